import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

// Placeholder until the tab lands (issue 14).
export function AdminDashboardTab() {
  return <PlaceholderPanel>Platform statistics will appear here.</PlaceholderPanel>;
}
