// The admin area's query keys, one tree so that an action can refresh what it changed
// (a plan edit refreshes the plans, a run refreshes the stats and the flights...). Each tab's
// queries and mutations live beside the tab and build their keys from here.
export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  flights: () => [...adminKeys.all, 'flights'] as const,
  billing: () => [...adminKeys.all, 'billing'] as const,
  plans: () => [...adminKeys.all, 'plans'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
  airlineRules: () => [...adminKeys.all, 'airline-rules'] as const,
};
