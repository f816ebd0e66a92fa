// `GET /api/airlines` and `GET /api/airports`. The one airline list of the product (issue 23), public: the dataset's
// airlines (names and IATA codes) with what public.airlines adds, FareBack's own rows first.
// The manual entry picker searches it; the dashboard's "Supported airlines" are those with
// automaticRebooking. It changes only with a deploy, so clients may cache it for a day.
import { Hono } from 'hono';
import { searchAirports } from '../../_shared/airport-search.ts';
import { airlineList } from '../../_shared/airlines.ts';
import type { Airline, AirlinesResponse, AirportsResponse } from '../../_shared/types/flights.ts';
import type { AppEnv } from '../context.ts';
import { listAirlineFacts } from '../queries/airlines.ts';

export const airlinesRouter = new Hono<AppEnv>().get('/', async (c) => {
  const facts = await c.var.deps.db.asService((tx) => listAirlineFacts(tx));
  const ours = new Set(facts.map((f) => f.code));
  const others: Airline[] = airlineList()
    .filter((a) => !ours.has(a.code))
    .map((a) => ({
      code: a.code,
      name: a.name,
      automaticRebooking: false,
      fareBrands: [],
      manageBookingUrl: null,
      flightStatusUrl: null,
    }));
  const body: AirlinesResponse = { airlines: [...facts, ...others] };
  return c.json(body, 200, { 'Cache-Control': 'public, max-age=86400' });
});

/** `GET /api/airports?q=`: airports for the itinerary form, by code, city or name (public). */
export const airportsRouter = new Hono<AppEnv>().get('/', async (c) => {
  const query = (c.req.query('q') ?? '').slice(0, 100);
  const body: AirportsResponse = { airports: await searchAirports(query) };
  return c.json(body, 200, { 'Cache-Control': 'public, max-age=86400' });
});
