// Admin routes: mounted after requireAuth, they also need profiles.is_admin. Checked in the
// caller's own transaction (row-level security applies) through private.is_admin(), the helper
// the admin policies use, so the route and the policies cannot disagree on who is an admin.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { isAdmin } from '../queries/profiles.ts';

export const ADMIN_REQUIRED = 'Admin access required';

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const admin = await c.var.deps.db.asUser(c.var.claims, isAdmin);
  if (!admin) throw new HttpError(403, ADMIN_REQUIRED);
  await next();
});
