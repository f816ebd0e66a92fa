import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { dashboardStats } from '../queries/flights.ts';

export const dashboardRouter = new Hono<AppEnv>().get('/stats', async (c) => {
  const claims = c.var.claims;
  return c.json(await c.var.deps.db.asUser(claims, (tx) => dashboardStats(tx, claims.sub)));
});
