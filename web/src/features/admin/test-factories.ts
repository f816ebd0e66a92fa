import type { AdminAuditEntry, AdminStatsResponse, AdminUser } from '@shared/types/admin.ts';
import type { ListPage } from '@/lib/pagination';

/*
 * The admin calls' answers for the admin screens' component tests (test data, never imported by
 * the app).
 */

let sequence = 0;

export function buildAdminStats(overrides: Partial<AdminStatsResponse> = {}): AdminStatsResponse {
  return {
    totalUsers: 1234,
    premiumUsers: 234,
    freeUsers: 1000,
    newUsersLast30Days: 56,
    totalFlights: 5678,
    currentlyMonitoredFlights: 4321,
    upcomingFlights: 3999,
    potentialRebookableFlights: 12,
    totalPriceDrops: 789,
    totalRebookedFlights: 321,
    rebookingsLast30Days: 21,
    totalSavings: 1_234_567,
    averageSavingsPerRebooking: 3846,
    totalCommissionsOwed: 98_765,
    totalCommissionsPaid: 43_210,
    alertedDrops: 40,
    alertsJudged: 32,
    alertPrecision: 94,
    series: [
      { date: '2026-11-22', priceDrops: 3, rebookings: 1, savings: 5000 },
      { date: '2026-11-23', priceDrops: 5, rebookings: 2, savings: 12_500 },
      { date: '2026-11-24', priceDrops: 0, rebookings: 0, savings: 0 },
    ],
    ...overrides,
  };
}

export function buildAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  sequence += 1;
  return {
    id: `10000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    username: `member${sequence}`,
    email: `member${sequence}@example.com`,
    isAdmin: false,
    subscriptionTier: 'free',
    planName: 'Free',
    emailConnected: false,
    flightCount: 3,
    totalCreditsEarned: 0,
    commissionOwed: 0,
    commissionPaid: 0,
    createdAt: '2026-10-01T12:00:00.000Z',
    ...overrides,
  };
}

export function buildAuditEntry(overrides: Partial<AdminAuditEntry> = {}): AdminAuditEntry {
  sequence += 1;
  return {
    id: sequence,
    at: '2026-11-24T07:05:00.000Z',
    actorId: '10000000-0000-4000-8000-000000000000',
    actorName: 'admin',
    action: 'admin.grant',
    targetType: 'user',
    targetId: '10000000-0000-4000-8000-000000000001',
    targetLabel: 'member1',
    before: { isAdmin: false },
    after: { isAdmin: true },
    ...overrides,
  };
}

/** One page holding every item. */
export function pageOf<T>(items: T[], overrides: Partial<ListPage<T>> = {}): ListPage<T> {
  return { items, total: items.length, page: 1, pageSize: 25, ...overrides };
}
