import { Hono } from 'hono';
import type { HealthResponse } from '../../_shared/types/auth.ts';
import type { AppEnv } from '../context.ts';

export const healthRouter = new Hono<AppEnv>().get('/', async (c) => {
  const reachable = await c.var.deps.db.ping();
  const body: HealthResponse = { status: 'ok', database: reachable ? 'ok' : 'unreachable' };
  return c.json(body, reachable ? 200 : 503);
});
