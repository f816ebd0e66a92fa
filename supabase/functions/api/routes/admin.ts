// Admin endpoints. Mounted after requireAuth; every route here also needs an admin
// (middleware/require-admin.ts).
import { Hono } from 'hono';
import {
  adminBillingQuerySchema,
  adminFlightsQuerySchema,
  adminStatsQuerySchema,
} from '../../_shared/schemas/admin.ts';
import type { ListPage } from '../../_shared/schemas/pagination.ts';
import type { AdminFlight, AdminStatsResponse, AdminTransaction } from '../../_shared/types/admin.ts';
import type { RunAutoRebookingResponse } from '../../_shared/types/auto-rebooking.ts';
import type { RunPriceCheckResponse } from '../../_shared/types/flights.ts';
import type { AppEnv } from '../context.ts';
import { readQuery } from '../lib/query-string.ts';
import { requireAdmin } from '../middleware/require-admin.ts';
import { adminBilling, adminFlights, adminStats } from '../queries/admin-reports.ts';
import { adminAirlineRulesRouter } from './admin-airline-rules.ts';
import { adminPlansRouter } from './admin-plans.ts';
import { auditAutoRebookingRun, auditPriceCheckRun } from '../services/admin-audit.ts';
import { runForAdmin } from '../services/auto-rebooking.ts';
import { runSweepAndSendAlerts } from '../services/price-sweep.ts';
import { adminActionsRouter } from './admin-actions.ts';

export const adminRouter = new Hono<AppEnv>();

adminRouter.use('*', requireAdmin);
adminRouter.route('/subscription-plans', adminPlansRouter);
adminRouter.route('/airline-rules', adminAirlineRulesRouter);
adminRouter.route('/', adminActionsRouter);

/** Spec section 3's stats and the chart's series over the last `days` (7-365, default 30) UTC days. */
adminRouter.get('/stats', async (c) => {
  const { days } = readQuery(c, adminStatsQuerySchema);
  const body: AdminStatsResponse = await c.var.deps.db.asUser(c.var.claims, (tx) => adminStats(tx, days));
  return c.json(body);
});

/** Every traveller's flights, a page at a time: search by booking code, airline, flight number or route. */
adminRouter.get('/flights', async (c) => {
  const query = readQuery(c, adminFlightsQuerySchema);
  const body: ListPage<AdminFlight> = await c.var.deps.db.asUser(c.var.claims, (tx) => adminFlights(tx, query));
  return c.json(body);
});

/** Every traveller's transactions, a page at a time: search by username, email, type or status. */
adminRouter.get('/billing', async (c) => {
  const query = readQuery(c, adminBillingQuerySchema);
  const body: ListPage<AdminTransaction> = await c.var.deps.db.asUser(c.var.claims, (tx) => adminBilling(tx, query));
  return c.json(body);
});

/** Runs (or joins) a price sweep now, on behalf of the admin; audited with the sweep's totals. */
adminRouter.post('/run-price-check', async (c) => {
  const admin = c.var.claims.sub;
  const run = await runSweepAndSendAlerts(c.var.deps, admin, auditPriceCheckRun(admin));
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
  const admin = c.var.claims.sub;
  const body: RunAutoRebookingResponse = await runForAdmin(c.var.deps, admin, auditAutoRebookingRun(admin));
  return c.json(body);
});
