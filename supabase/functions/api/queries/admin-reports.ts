// The admin dashboard's stats and its flights and billing lists (docs/architecture.md, "Admin API:
// stats and lists"). Run as the admin (db.asUser): the admin policies on profiles, flights,
// subscription_plans and billing_transactions show an admin every row, so row-level security
// backs the route's own admin check. Lists follow the shared convention (queries/pagination.ts).
import type { ListPage, ListQuery } from '../../_shared/schemas/pagination.ts';
import type { AdminFlight, AdminStatsResponse, AdminTransaction } from '../../_shared/types/admin.ts';
import { BILLING_STATUSES, BILLING_TRANSACTION_TYPES } from '../../_shared/types/billing.ts';
import type { Tx } from '../db.ts';
import { containsPattern, listPage } from './pagination.ts';

/** `GET /api/admin/stats?days=N`: private.admin_stats, one statement (migration 20261122001100_admin_reports.sql). */
export async function adminStats(tx: Tx, days: number): Promise<AdminStatsResponse> {
  const [row] = await tx<{ stats: AdminStatsResponse }[]>`select private.admin_stats(${days}::int) as stats`;
  if (!row) throw new Error('private.admin_stats answered no row');
  const { series, ...stats } = row.stats;
  // bigint sums arrive as JSON numbers already; the order of the keys is the contract's
  return { ...stats, series };
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** Drops the columns a list sorts by but does not answer (named `_...`). */
function answerColumns<T>(row: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('_'))) as T;
}

// ---- flights ---------------------------------------------------------------------------------

export type AdminFlightSortKey =
  'createdAt' | 'departureDate' | 'airline' | 'bookingCode' | 'status' | 'originalPrice' | 'airlineCredit' | 'user';

const FLIGHT_SORT: Record<AdminFlightSortKey, string> = {
  createdAt: 'createdAt',
  departureDate: '_departureDate',
  airline: 'airline',
  bookingCode: 'bookingCode',
  status: 'status',
  originalPrice: 'originalPrice',
  airlineCredit: 'airlineCredit',
  user: 'username',
};

/** A search for a route: 'JFK-LAX' (also 'JFK LAX', 'JFK>LAX', 'JFK to LAX') or one airport. */
export function routeSearch(q: string): { from: string; to: string } | { airport: string } | null {
  const pair = /^([a-z]{3})\s*(?:-|–|—|>|→|\s|\bto\b)+\s*([a-z]{3})$/i.exec(q);
  if (pair?.[1] && pair[2]) return { from: pair[1].toUpperCase(), to: pair[2].toUpperCase() };
  if (/^[a-z]{3}$/i.test(q)) return { airport: q.toUpperCase() };
  return null;
}

/**
 * `GET /api/admin/flights`: every traveller's flights. Search: booking code, airline or flight
 * number containing the text, or the route (see routeSearch). A rebooked flight's commission and
 * rate are the ones recorded with it (flights.commission_rate, migration
 * 20261122000500_flights_and_prices.sql), whatever the traveller's plan or its rate is now; a
 * flight without a recorded rebooking has none (0). `creditReview` says why a guided
 * rebooking's declared credit needs a look.
 */
export async function adminFlights(tx: Tx, query: ListQuery<AdminFlightSortKey>): Promise<ListPage<AdminFlight>> {
  let search = tx`true`;
  if (query.q) {
    const route = routeSearch(query.q);
    const from = route ? ('airport' in route ? route.airport : route.from) : null;
    const to = route && 'to' in route ? route.to : null;
    // the ids as their owner, where the trigram indexes apply (migration 20261122001100_admin_reports.sql)
    search = tx`f.id in (select private.admin_flight_ids_matching(${containsPattern(query.q)}, ${from}, ${to}))`;
  }
  // A left join on a unique key: a count of the matching rows that does not read profiles is planned
  // without it (a profile always exists: a foreign key, not null).
  const matching = tx`
    select f.id::int as "id", f.user_id as "userId", p.username as "username", p.email as "email",
           f.airline as "airline", f.flight_number as "flightNumber", f.booking_code as "bookingCode",
           f.departure_airport as "departureAirport", f.arrival_airport as "arrivalAirport",
           f.departure_date::text as "departureDate", f.departure_date as "_departureDate",
           f.status as "status", f.has_been_rebooked as "hasBeenRebooked",
           f.original_price as "originalPrice", f.current_price as "currentPrice",
           f.rebooking_price as "rebookingPrice", f.airline_credit as "airlineCredit",
           coalesce(f.commission_rate, 0) as "commissionRate",
           coalesce(f.commission_amount, 0) as "commission",
           f.credit_review as "creditReview",
           f.last_checked as "lastChecked", f.created_at as "createdAt"
      from public.flights f
      left join public.profiles p on p.id = f.user_id
     where ${search}
  `;
  type Row = Omit<AdminFlight, 'lastChecked' | 'createdAt'> & { lastChecked: Date | null; createdAt: Date };
  const page = await listPage<Row & Record<string, unknown>, AdminFlightSortKey>(tx, matching, query, {
    sort: FLIGHT_SORT,
    unique: 'id',
  });
  return {
    ...page,
    items: page.items.map((row) => ({
      ...answerColumns<Row>(row),
      lastChecked: iso(row.lastChecked),
      createdAt: iso(row.createdAt) ?? '',
    })),
  };
}

// ---- billing ---------------------------------------------------------------------------------

export type AdminBillingSortKey = 'date' | 'amount' | 'type' | 'status' | 'user';

const BILLING_SORT: Record<AdminBillingSortKey, string> = {
  date: 'date',
  amount: 'amount',
  type: 'type',
  status: 'status',
  user: 'username',
};

/**
 * `GET /api/admin/billing`: every traveller's transactions. Search: the traveller's username or
 * email containing the text, or a type or status containing it ('pend' finds pending). The types
 * and statuses are a closed list (CHECK constraints), matched here so the database compares
 * values its indexes hold.
 */
export async function adminBilling(tx: Tx, query: ListQuery<AdminBillingSortKey>): Promise<ListPage<AdminTransaction>> {
  let search = tx`true`;
  if (query.q) {
    const pattern = containsPattern(query.q);
    const text = query.q.toLowerCase();
    const types = BILLING_TRANSACTION_TYPES.filter((t) => t.includes(text));
    const statuses = BILLING_STATUSES.filter((s) => s.includes(text));
    // the travellers first (as their owner, where the trigram indexes apply: migration
    // 20261122001100_admin_reports.sql), then their rows (billing's user index); a type or status only when the
    // text is part of one
    const travellers = tx`b.user_id in (select private.admin_profile_ids_matching(${pattern}))`;
    search = tx`(${travellers}
                 ${types.length ? tx`or b.type = any(${types}::text[])` : tx``}
                 ${statuses.length ? tx`or b.status = any(${statuses}::text[])` : tx``})`;
  }
  const matching = tx`
    select b.id::int as "id", b.user_id as "userId", p.username as "username", p.email as "email",
           b.transaction_date as "date", b.type as "type", b.amount as "amount", b.status as "status",
           b.description as "description", b.payment_method as "paymentMethod",
           b.payment_reference as "paymentReference"
      from public.billing_transactions b
      left join public.profiles p on p.id = b.user_id
     where ${search}
  `;
  type Row = Omit<AdminTransaction, 'date'> & { date: Date };
  const page = await listPage<Row & Record<string, unknown>, AdminBillingSortKey>(tx, matching, query, {
    sort: BILLING_SORT,
    unique: 'id',
  });
  return { ...page, items: page.items.map((row) => ({ ...row, date: iso(row.date) ?? '' })) };
}
