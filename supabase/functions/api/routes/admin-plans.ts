// `/api/admin/subscription-plans` (mounted in routes/admin.ts, behind requireAdmin): every plan,
// creating one and editing one. The body is the shared subscriptionPlanSchema (the admin forms
// parse with it too); the rules are the service's (services/admin-plans.ts).
import { Hono } from 'hono';
import { subscriptionPlanSchema } from '../../_shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { createPlan, editPlan, listPlans } from '../services/admin-plans.ts';

export const PLAN_ID_RULE = 'Plan id must be a whole number';

/** A plan id from the path: digits only, within what a JavaScript number holds exactly. */
function planId(raw: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new HttpError(400, PLAN_ID_RULE);
  return id;
}

export const adminPlansRouter = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await listPlans(c.var.deps, c.var.claims)))
  .post('/', async (c) => {
    const body = await readJson(c, subscriptionPlanSchema);
    return c.json(await createPlan(c.var.deps, c.var.claims, body), 201);
  })
  .put('/:id', async (c) => {
    const id = planId(c.req.param('id'));
    const body = await readJson(c, subscriptionPlanSchema);
    return c.json(await editPlan(c.var.deps, c.var.claims, id, body));
  });
