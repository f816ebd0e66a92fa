// `/api/admin/airline-rules` (mounted in routes/admin.ts, behind requireAdmin): the rulebook, a new
// rule, an edit, and the per-airline kill switch (services/airline-rules.ts).
import { Hono } from 'hono';
import { airlineAutomationInputSchema, airlineRuleInputSchema } from '../../_shared/schemas/airline-rules.ts';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { createRule, editRule, listRules, switchAirlineAutomation } from '../services/airline-rules.ts';

function ruleId(raw: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new HttpError(400, 'Rule id must be a whole number');
  return id;
}

function airlineCode(raw: string): string {
  const code = raw.toUpperCase();
  if (!/^[A-Z0-9]{2}$/.test(code)) throw new HttpError(400, 'Airline code must be a 2-character IATA code');
  return code;
}

export const adminAirlineRulesRouter = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await listRules(c.var.deps, c.var.claims)))
  .post('/', async (c) => {
    const body = await readJson(c, airlineRuleInputSchema);
    return c.json(await createRule(c.var.deps, c.var.claims, body), 201);
  })
  .put('/airlines/:code/automation', async (c) => {
    const code = airlineCode(c.req.param('code'));
    const body = await readJson(c, airlineAutomationInputSchema);
    return c.json(await switchAirlineAutomation(c.var.deps, c.var.claims, code, body));
  })
  .put('/:id', async (c) => {
    const id = ruleId(c.req.param('id'));
    const body = await readJson(c, airlineRuleInputSchema);
    return c.json(await editRule(c.var.deps, c.var.claims, id, body));
  });
