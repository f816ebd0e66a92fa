// Admin endpoints. Mounted after requireAuth; every route here also needs an admin
// (middleware/require-admin.ts).
import { Hono } from 'hono';
import type { RunAutoRebookingResponse } from '../../_shared/types/auto-rebooking.ts';
import type { RunPriceCheckResponse } from '../../_shared/types/flights.ts';
import type { AppEnv } from '../context.ts';
import { requireAdmin } from '../middleware/require-admin.ts';
import { runForAdmin } from '../services/auto-rebooking.ts';
import { runSweepAndSendAlerts } from '../services/price-sweep.ts';

export const adminRouter = new Hono<AppEnv>();

adminRouter.use('*', requireAdmin);

/** Runs (or joins) a price sweep now, on behalf of the admin. */
adminRouter.post('/run-price-check', async (c) => {
  const run = await runSweepAndSendAlerts(c.var.deps, c.var.claims.sub);
  const body: RunPriceCheckResponse = {
    checkedCount: run.sweep.checkedCount,
    priceDropsFound: run.sweep.priceDropsFound,
    message: run.message,
  };
  return c.json(body);
});

/**
 * Runs (or joins) an automatic rebooking run over every premium traveller with auto-rebooking on,
 * driving its batches for up to ~20 s; the counts are what the run has done by then (the rest
 * continues on the queue and is counted in its auto_rebooking_logs row).
 */
adminRouter.post('/run-auto-rebooking', async (c) => {
  const body: RunAutoRebookingResponse = await runForAdmin(c.var.deps, c.var.claims.sub);
  return c.json(body);
});
