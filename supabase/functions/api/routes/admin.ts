// Admin endpoints. Mounted after requireAuth; every route here also needs an admin
// (middleware/require-admin.ts).
import { Hono } from 'hono';
import type { RunPriceCheckResponse } from '../../_shared/types/flights.ts';
import type { AppEnv } from '../context.ts';
import { requireAdmin } from '../middleware/require-admin.ts';
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
