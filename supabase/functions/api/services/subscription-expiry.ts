// The daily pass over paid years (docs/architecture.md "The end of a paid year"), a job of the one
// runner, recurring once a UTC day: first the renewals FareBack makes itself (a year paid by card:
// billing/renewals.ts, charges through the payment provider), then the reminders 30 and 7 days
// before a renewal, then the expiry: every traveller whose paid year ended and does not renew goes
// to the free plan and is told so. The SQL pass (private.expire_subscriptions) decides who is due,
// moves them and queues their notification in the job's own transaction, so a lost claim moves
// nobody and a second run finds nobody left to move. `now` is the run's clock (ctx.now).
import { queueRenewalReminders } from '../queries/billing.ts';
import { expireSubscriptions } from '../queries/subscription-expiry.ts';
import { renewSubscriptions } from './billing/renewals.ts';
import type { JobHandler } from './job-runner.ts';

export const subscriptionExpiryJob: JobHandler = {
  kind: 'subscription_expiry',
  leaseSeconds: 300,
  recurring: { every: 'day' },
  async run(_job, ctx) {
    const now = new Date(ctx.now());
    const renewals = await renewSubscriptions(ctx.deps, now);
    await ctx.finish(async (tx) => ({
      renewals,
      reminders: await queueRenewalReminders(tx, now),
      expired: await expireSubscriptions(tx, now),
    }));
  },
};
