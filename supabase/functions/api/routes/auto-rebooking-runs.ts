// Running automatic rebooking on demand: `POST /api/auto-rebooking/execute` (the caller's own
// flights; premium with auto-rebooking on). The toggle and thresholds live with the settings
// calls; the admin's run is routes/admin.ts. Refusals answer `{message, details}` as the spec
// words them: 403 without premium, 409 while switched off.
import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { AutoRebookingRefused, executeOwnRun } from '../services/auto-rebooking.ts';

export const autoRebookingRunsRouter = new Hono<AppEnv>().post('/execute', async (c) => {
  try {
    return c.json(await executeOwnRun(c.var.deps, c.var.claims));
  } catch (error) {
    if (error instanceof AutoRebookingRefused) return c.json(error.refusal, error.status);
    throw error;
  }
});
