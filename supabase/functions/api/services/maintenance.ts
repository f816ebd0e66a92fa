// Housekeeping, every 15 minutes, as the `maintenance` job of the one runner: rebookings a request
// left open are settled (services/rebooking-reconciler.ts: it asks the fare source, so outside
// the job's transaction), then, with the job's completion, expired rows are pruned (login attempts
// and fare-source call counts after a day, finished jobs after a week, dead letters after a month;
// queries/maintenance.ts) and an instant notification left without a delivery job gets one,
// which the same run sends.
import { pruneExpiredRows } from '../queries/maintenance.ts';
import { enqueueStrandedNotifications } from '../queries/notifications.ts';
import type { JobHandler } from './job-runner.ts';
import { reconcileRebookings } from './rebooking-reconciler.ts';

export const MAINTENANCE_KIND = 'maintenance';

export const maintenanceJob: JobHandler = {
  kind: MAINTENANCE_KIND,
  // the reconciler asks the fare source about up to 50 rebookings, each with its own timeout
  leaseSeconds: 600,
  recurring: { every: '15 minutes' },
  async run(_job, ctx) {
    const rebookings = await reconcileRebookings(ctx.deps);
    await ctx.finish(async (tx) => {
      const pruned = await pruneExpiredRows(tx);
      return {
        loginAttemptsDeleted: pruned.loginAttempts,
        fareSourceCallsDeleted: pruned.fareSourceCalls,
        jobsDeleted: pruned.jobs,
        notificationsQueued: await enqueueStrandedNotifications(tx),
        rebookings: { ...rebookings },
      };
    });
  },
};
