import { PlaceholderPanel } from '@/components/ui/placeholder-panel';

// Placeholder until the tab lands (issue 14).
export function AdminFlightsTab() {
  return <PlaceholderPanel>Every monitored flight will appear here.</PlaceholderPanel>;
}
