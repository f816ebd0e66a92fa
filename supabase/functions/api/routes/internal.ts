// The scheduler's one endpoint: pg_cron + pg_net on Supabase (private.request_job_run(), migration
// 20261129200000_one_scheduler.sql), the dev stack's ticker locally (dev/ticker.ts), both every
// minute. Mounted before the auth middleware: the caller is not a user but holds the shared
// CRON_SECRET, sent as `Authorization: Bearer`.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { JOB_HANDLERS, JOB_KINDS } from '../jobs/handlers.ts';
import { readJson } from '../lib/body.ts';
import { sameSecret } from '../lib/same-secret.ts';
import { runDueJobs } from '../services/job-runner.ts';

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

/** An empty body (the scheduler's `{}`) runs every kind; `kinds` only those (an operator's run, a test's). */
const runJobsSchema = z.object({
  kinds: z
    .array(z.enum(JOB_KINDS as [string, ...string[]]))
    .min(1)
    .optional(),
});

export const internalRouter = new Hono<AppEnv>();

internalRouter.use('*', requireCronSecret);

/**
 * Every minute: the current period's job of each recurring kind is enqueued (once per period),
 * then the queued work that is due runs (jobs/handlers.ts) within one invocation's time budget;
 * what is left waits for the next call.
 */
internalRouter.post('/jobs', async (c) => {
  const { kinds } = (await c.req.text()).trim() === '' ? {} : await readJson(c, runJobsSchema);
  const result = await runDueJobs(c.var.deps, JOB_HANDLERS, kinds ? { kinds } : {});
  return c.json(result);
});
