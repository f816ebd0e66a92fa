// The demo flights' price history: a week and a half of checks, one every two days, that visits
// each flight's highest and lowest recorded price and ends at the price the card shows (the
// current fare, or the rebooking price of a rebooked flight) at its last check. Without it the
// demo cards read "No price checks yet" under a price range and a last-checked time. Written as
// the api's price checks write it (public.flight_prices, then private.refresh_recent_prices for
// the card's copy), for flights that have none yet.
import type postgres from 'postgres';

type Sql = postgres.Sql | postgres.TransactionSql;

/** The shape of the series, oldest first: 0 is the highest price, 1 the lowest, 'end' the last. */
const SHAPE: readonly (number | 'end')[] = [0, 0, 0.5, 1, 0.5, 0.75, 'end'];
const DAYS_BETWEEN_CHECKS = 2;

export async function writeDemoPriceHistory(sql: Sql, userId: string): Promise<void> {
  const flights = await sql<{ id: number; high: number; low: number; end: number; currency: string; last: string }[]>`
    select f.id::int, coalesce(f.highest_price, f.original_price) as high,
           coalesce(f.lowest_price, f.current_price, f.original_price) as low,
           coalesce(case when f.has_been_rebooked then f.rebooking_price end, f.current_price, f.original_price) as end,
           f.currency, coalesce(f.last_checked, now())::text as last
      from public.flights f
     where f.user_id = ${userId}
       and not exists (select 1 from public.flight_prices fp where fp.flight_id = f.id)`;
  for (const flight of flights) {
    const points = SHAPE.map((step, index) => ({
      price: step === 'end' ? flight.end : Math.round(flight.high - (flight.high - flight.low) * step),
      daysBefore: (SHAPE.length - 1 - index) * DAYS_BETWEEN_CHECKS,
    }));
    for (const point of points) {
      await sql`
        insert into public.flight_prices (flight_id, user_id, price, currency, checked_at, source)
        values (${flight.id}, ${userId}, ${point.price}, ${flight.currency},
                ${flight.last}::timestamptz - make_interval(days => ${point.daysBefore}), 'demo')`;
    }
  }
  if (flights.length > 0) await sql`select private.refresh_recent_prices(${flights.map((f) => f.id)}::bigint[])`;
}
