// private.fare_source_calls (migration 20261122000500_flights_and_prices.sql): what a traveller's own
// requests cost at the fare source. A call is counted before it is made, so a failing source
// still spends the budget (it cost a request all the same).
import type { Tx } from '../db.ts';

export type FareCallKind = 'add' | 'check';

export interface FareBudget {
  /** Seconds between two checks of one flight; 0 turns the interval off. */
  checkMinIntervalSeconds: number;
  /** Calls per traveller per rolling hour. */
  fareCallsPerHour: number;
}

/**
 * Counts one call for the traveller when the budget allows it, and answers 0; otherwise counts
 * nothing and answers the seconds until it would be allowed. Serialised per traveller (an
 * advisory lock held to the end of the transaction), so concurrent requests cannot overspend.
 */
export async function spendFareCall(
  tx: Tx,
  budget: FareBudget,
  call: { userId: string; kind: FareCallKind; flightId: number | null },
): Promise<number> {
  await tx`select pg_advisory_xact_lock(hashtext(${`fare-budget:${call.userId}`}))`;
  const interval = call.kind === 'check' && call.flightId !== null ? budget.checkMinIntervalSeconds : 0;
  const [row] = await tx<{ flight_until: Date | null; user_until: Date | null; now: Date }[]>`
    select
      ${
        interval > 0
          ? tx`(select max(c.called_at) + make_interval(secs => ${interval})
                  from private.fare_source_calls c
                 where c.flight_id = ${call.flightId} and c.kind = 'check'
                   and c.called_at > now() - make_interval(secs => ${interval}))`
          : tx`null::timestamptz`
      } as flight_until,
      (select c.called_at + interval '1 hour'
         from private.fare_source_calls c
        where c.user_id = ${call.userId} and c.called_at > now() - interval '1 hour'
        order by c.called_at desc
        offset ${budget.fareCallsPerHour - 1} limit 1) as user_until,
      now() as now
  `;
  const until = Math.max(row?.flight_until?.getTime() ?? 0, row?.user_until?.getTime() ?? 0);
  const wait = row ? Math.ceil((until - row.now.getTime()) / 1000) : 0;
  if (wait > 0) return wait;
  await tx`
    insert into private.fare_source_calls (user_id, flight_id, kind)
    values (${call.userId}, ${call.flightId}, ${call.kind})
  `;
  return 0;
}
