// The daily expiry pass (docs/architecture.md "Billing API"): every traveller whose paid year
// ended and who does not renew through Stripe goes to the free plan and is told so. A job of the
// one runner, recurring once a UTC day; the SQL pass (private.expire_subscriptions)
// decides who is due, moves them and queues their notification in the job's own transaction, so
// a lost claim moves nobody and a second run finds nobody left to move.
import { expireSubscriptions } from '../queries/subscription-expiry.ts';
import type { JobHandler } from './job-runner.ts';

export const subscriptionExpiryJob: JobHandler = {
  kind: 'subscription_expiry',
  leaseSeconds: 300,
  recurring: { every: 'day' },
  async run(_job, ctx) {
    await ctx.finish(async (tx) => ({ expired: await expireSubscriptions(tx, new Date()) }));
  },
};
