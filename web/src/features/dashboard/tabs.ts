// The dashboard's six tabs in spec order (index 0-5), with the short labels shown under 768 px.
// `id` is what the URL carries (?tab=history), so a tab can be linked to and survives a reload.
export const DASHBOARD_TABS = [
  { id: 'flights', label: 'Flights', shortLabel: 'Flights' },
  { id: 'history', label: 'Rebooking History', shortLabel: 'History' },
  { id: 'credits', label: 'Airline Credits', shortLabel: 'Credits' },
  { id: 'settings', label: 'Settings', shortLabel: 'Settings' },
  { id: 'add', label: 'Manual Entry', shortLabel: 'Add' },
  { id: 'plan', label: 'Subscription', shortLabel: 'Plan' },
] as const;

export type DashboardTab = (typeof DASHBOARD_TABS)[number]['id'];

export const DEFAULT_TAB: DashboardTab = 'flights';

/** The tab a `?tab=` value names; unknown or missing values fall back to Flights. */
export function tabFromParam(value: string | null): DashboardTab {
  return DASHBOARD_TABS.find((tab) => tab.id === value)?.id ?? DEFAULT_TAB;
}
