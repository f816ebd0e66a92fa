import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

// Placeholder until the tab lands (issue 14).
export function AdminAuditTab() {
  return <PlaceholderPanel>Every admin action will appear here.</PlaceholderPanel>;
}
