// Subscription plans and the caller's subscription. `GET /plans` is public (the landing page shows
// the Premium price to visitors), so it reads as anon: the plans' policies decide what it sees.
import { Hono } from 'hono';
import type { SubscriptionPlansResponse } from '../../_shared/types/plans.ts';
import type { AppEnv } from '../context.ts';
import { activePlans } from '../queries/plans.ts';

export const publicSubscriptionRouter = new Hono<AppEnv>().get('/plans', async (c) => {
  const plans = await c.var.deps.db.asAnon(activePlans);
  return c.json({ plans } satisfies SubscriptionPlansResponse);
});
