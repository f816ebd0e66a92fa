import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { STATS_SPANS } from '@shared/schemas/admin.ts';
import type { AdminStatsResponse } from '@shared/types/admin.ts';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './api';

export type StatsSpan = (typeof STATS_SPANS)[number];
export const DEFAULT_STATS_SPAN: StatsSpan = 30;

export function getAdminStats(days: StatsSpan): Promise<AdminStatsResponse> {
  return apiRequest<AdminStatsResponse>('GET', '/admin/stats', undefined, { query: { days } });
}

/**
 * The stats and the chart's days, one query per span. A new span keeps the previous answer on
 * screen while it loads, so the tiles (the same for every span) do not blink.
 */
export const adminStatsQueryOptions = (days: StatsSpan) =>
  queryOptions({
    queryKey: [...adminKeys.stats(), days] as const,
    queryFn: () => getAdminStats(days),
    placeholderData: keepPreviousData,
  });
