// Endpoints for the scheduler: pg_cron + pg_net on Supabase, the dev stack's ticker locally
// (migration 20261122000200_jobs_and_scheduling.sql, dev/ticker.ts). Mounted before the auth middleware:
// the caller is not a user but holds the shared CRON_SECRET, sent as `Authorization: Bearer`.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { sameSecret } from '../lib/same-secret.ts';
import { JOB_HANDLERS } from '../jobs/handlers.ts';
import { pruneExpiredRows } from '../queries/maintenance.ts';
import { runDueJobs } from '../services/job-runner.ts';
import { enqueueStrandedNotifications } from '../queries/notifications.ts';
import { sendQueuedNotifications } from '../services/notifications.ts';
import { runSweepAndSendAlerts } from '../services/price-sweep.ts';
import { reconcileRebookings } from '../services/rebooking-reconciler.ts';

const requireCronSecret = createMiddleware<AppEnv>(async (c, next) => {
  const secret = c.var.deps.config.cronSecret;
  if (!secret) throw new HttpError(503, 'Scheduled work is not configured on this server (CRON_SECRET is not set)');
  const header = c.req.header('Authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match?.[1] || !(await sameSecret(match[1], secret))) {
    throw new HttpError(401, 'A valid scheduler secret is required');
  }
  await next();
});

export const internalRouter = new Hono<AppEnv>();

internalRouter.use('*', requireCronSecret);

/** One scheduled run: starts a sweep of the due flights, or carries on with the running one. */
internalRouter.post('/price-sweep', async (c) => {
  const run = await runSweepAndSendAlerts(c.var.deps, null);
  const rebookings = await reconcileRebookings(c.var.deps);
  return c.json({ ...run.sweep, alertsSent: run.alertsSent, rebookings, message: run.message });
});

/**
 * Hourly housekeeping: expired rows (login attempts, fare-source call counts, finished jobs and
 * old dead letters), alerts left queued, rebookings a request left open.
 */
internalRouter.post('/maintenance', async (c) => {
  const pruned = await c.var.deps.db.asService(pruneExpiredRows);
  // a notification left pending without a delivery job gets one, and what is due goes out
  await c.var.deps.db.asService(enqueueStrandedNotifications);
  const alerts = await sendQueuedNotifications(c.var.deps);
  const rebookings = await reconcileRebookings(c.var.deps);
  return c.json({
    loginAttemptsDeleted: pruned.loginAttempts,
    fareSourceCallsDeleted: pruned.fareSourceCalls,
    jobsDeleted: pruned.jobs,
    alertsSent: alerts.completed,
    rebookings,
  });
});

/**
 * Every minute: the queued background work that is due (jobs/handlers.ts), within one
 * invocation's time budget; what is left waits for the next call.
 */
internalRouter.post('/jobs', async (c) => {
  const result = await runDueJobs(c.var.deps, JOB_HANDLERS);
  return c.json(result);
});
