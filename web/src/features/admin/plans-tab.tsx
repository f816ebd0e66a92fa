import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

// Placeholder until the tab lands (issue 14).
export function AdminPlansTab() {
  return <PlaceholderPanel>Subscription plans will appear here.</PlaceholderPanel>;
}
