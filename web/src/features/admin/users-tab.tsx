import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

// Placeholder until the tab lands (issue 14).
export function AdminUsersTab() {
  return <PlaceholderPanel>Users, admin rights and commission payments will appear here.</PlaceholderPanel>;
}
