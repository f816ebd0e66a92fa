// The traveller's own data: GET /api/account/export ('Download my data') and
// POST /api/account/delete ('Delete account'). services/account-deletion.ts holds the rules.
import { Hono } from 'hono';
import { deleteAccountInputSchema } from '../../_shared/schemas/auth.ts';
import type { AppEnv } from '../context.ts';
import { readJson } from '../lib/body.ts';
import { deleteOwnAccount, exportAccountData } from '../services/account-deletion.ts';

export const accountRouter = new Hono<AppEnv>()
  .get('/export', async (c) => {
    const data = await exportAccountData(c.var.deps, c.var.claims);
    c.header('Content-Disposition', 'attachment; filename="fareback-my-data.json"');
    return c.json(data);
  })
  .post('/delete', async (c) => {
    const input = await readJson(c, deleteAccountInputSchema);
    return c.json(await deleteOwnAccount(c.var.deps, c.var.claims, input));
  });
