/**
 * The flights feature's query keys (the dashboard stats, derived from the flights, share the
 * prefix), in a file of their own: a route that names them for another feature (what a confirmed
 * held booking makes stale) then loads none of the flights feature's code.
 */
export const flightKeys = {
  all: ['flights'] as const,
  list: () => [...flightKeys.all, 'list'] as const,
  stats: () => [...flightKeys.all, 'stats'] as const,
};
