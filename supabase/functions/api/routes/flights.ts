// Monitored flights: list, add by booking code, check a price, rebook, remove. Handlers
// validate, call the service, return; ownership (404 for another user's flight) is the service's.
import { Hono } from 'hono';
import {
  confirmRebookingInputSchema,
  flightIdSchema,
  manualFlightInputSchema,
  rebookInputSchema,
} from '../../_shared/schemas/flights.ts';
import type { AppEnv } from '../context.ts';
import { fieldNamingErrorMap, HttpError } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { flightsJson } from '../queries/flights.ts';
import {
  addManualFlight,
  checkFlightPrice,
  confirmAssistedRebooking,
  FLIGHT_MESSAGES,
  rebookFlight,
  removeFlight,
} from '../services/flights.ts';

function flightId(raw: string): number {
  const parsed = flightIdSchema.safeParse(raw, { error: fieldNamingErrorMap });
  // a malformed id names no flight of the caller's
  if (!parsed.success) throw new HttpError(404, FLIGHT_MESSAGES.notFound);
  return parsed.data;
}

export const flightsRouter = new Hono<AppEnv>()
  .get('/', async (c) => {
    const claims = c.var.claims;
    // FlightsResponse, with the list's JSON passed through as Postgres built it
    const flights = await c.var.deps.db.asUser(claims, (tx) => flightsJson(tx, claims.sub));
    return c.body(`{"flights":${flights}}`, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
  })
  .post('/manual', async (c) => {
    const input = await readJson(c, manualFlightInputSchema);
    return c.json(await addManualFlight(c.var.deps, c.var.claims, input), 201);
  })
  // takes an empty body (spec: `{}`); whatever is sent is ignored
  .post('/:id/check-price', async (c) => {
    return c.json(await checkFlightPrice(c.var.deps, c.var.claims, flightId(c.req.param('id'))));
  })
  // `{}` (the card's button), or `{approvalToken}` from an approval email's link
  .post('/:id/rebook', async (c) => {
    const id = flightId(c.req.param('id'));
    const text = await c.req.text();
    const input = text.includes('approvalToken') ? await readJson(c, rebookInputSchema) : {};
    return c.json(await rebookFlight(c.var.deps, c.var.claims, id, input));
  })
  .delete('/:id', async (c) => {
    return c.json(await removeFlight(c.var.deps, c.var.claims, flightId(c.req.param('id'))));
  })
  .post('/:id/confirm-rebooking', async (c) => {
    const id = flightId(c.req.param('id'));
    const input = await readJson(c, confirmRebookingInputSchema);
    return c.json(await confirmAssistedRebooking(c.var.deps, c.var.claims, id, input));
  });
