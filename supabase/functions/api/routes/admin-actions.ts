// Admin routes for users, admin rights and the audit log, mounted by routes/admin.ts after
// requireAdmin (so every call here is an admin's). Reads and the flag run as the admin (asUser):
// row-level security backs each one.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  adminAuditQuerySchema,
  adminCommissionPaymentSchema,
  adminUsersQuerySchema,
  userAdminSchema,
} from '../../_shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { fieldNamingErrorMap } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { readQuery } from '../lib/query-string.ts';
import { adminAuditPage } from '../queries/admin-audit.ts';
import { adminUsersPage } from '../queries/admin-users.ts';
import { updateUserAdmin } from '../services/admin-users.ts';

/** A user id in the path: a uuid, else 400 naming `id` (the same rule as a body's userId). */
const userPathSchema = z.object({ id: adminCommissionPaymentSchema.shape.userId });

export const adminActionsRouter = new Hono<AppEnv>()
  .get('/users', async (c) => {
    const query = readQuery(c, adminUsersQuerySchema);
    return c.json(await c.var.deps.db.asUser(c.var.claims, (tx) => adminUsersPage(tx, query)));
  })
  .put('/users/:id/admin', async (c) => {
    const { id } = userPathSchema.parse({ id: c.req.param('id') }, { error: fieldNamingErrorMap });
    const { isAdmin } = await readJson(c, userAdminSchema);
    return c.json(await updateUserAdmin(c.var.deps, c.var.claims, id, isAdmin));
  })
  .get('/audit', async (c) => {
    const query = readQuery(c, adminAuditQuerySchema);
    return c.json(await c.var.deps.db.asUser(c.var.claims, (tx) => adminAuditPage(tx, query)));
  });
