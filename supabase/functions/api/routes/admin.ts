// Admin endpoints. Mounted after requireAuth; every route here also needs profiles.is_admin,
// checked in the caller's own transaction (row-level security applies) through
// private.is_admin(), the same helper the admin policies use.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { RunPriceCheckResponse } from '../../_shared/types/flights.ts';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { deliverPendingEmails } from '../services/notifications.ts';
import { priceSweepMessage, runPriceSweep, SWEEP_REQUEST_BUDGET_MS } from '../services/price-sweep.ts';

export const ADMIN_REQUIRED = 'Admin access required';

const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const isAdmin = await c.var.deps.db.asUser(c.var.claims, async (tx) => {
    const [row] = await tx<{ is_admin: boolean }[]>`select private.is_admin() as is_admin`;
    return row?.is_admin === true;
  });
  if (!isAdmin) throw new HttpError(403, ADMIN_REQUIRED);
  await next();
});

const ALERTS_PER_REQUEST = 200;

export const adminRouter = new Hono<AppEnv>();

adminRouter.use('*', requireAdmin);

/** Runs (or joins) a price sweep now, on behalf of the admin. */
adminRouter.post('/run-price-check', async (c) => {
  const { db, fareSource, config, log } = c.var.deps;
  const result = await runPriceSweep(
    { db, fareSource, config, log },
    { initiatedBy: c.var.claims.sub, budgetMs: SWEEP_REQUEST_BUDGET_MS },
  );
  // the alerts this sweep queued; what is left goes out with the next scheduled run
  await deliverPendingEmails(c.var.deps, ALERTS_PER_REQUEST);
  const body: RunPriceCheckResponse = {
    checkedCount: result.checkedCount,
    priceDropsFound: result.priceDropsFound,
    message: priceSweepMessage(result),
  };
  return c.json(body);
});
