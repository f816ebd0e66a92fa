// The dashboard's six tabs in order (index 0-5), with the short labels shown under 768 px.
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

/** The tab ids, Flights first: the default when the URL names none or an unknown one. */
export const DASHBOARD_TAB_IDS: readonly DashboardTab[] = DASHBOARD_TABS.map((tab) => tab.id);
