import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

// Placeholder until the tab lands (issue 14).
export function AdminBillingTab() {
  return <PlaceholderPanel>Transactions will appear here.</PlaceholderPanel>;
}
