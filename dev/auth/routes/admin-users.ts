// The admin's user calls (the api creates, reads, updates and deletes accounts with them), for
// the service-role key or a JWT with an admin role only.
import { Hono, type Context } from 'hono';
import type { AuthContext, Env } from '../context.ts';
import { AuthError } from '../errors.ts';
import { isUniqueViolation, mergeMetadata, objectField, readJson, requireValidEmail, stringField } from '../request.ts';
import { deleteUser, findUserByEmail, findUserById, insertUser, jsonb, loadUserJson, type UserJson } from '../store.ts';
import { bearerToken, verifyJwt } from '../tokens.ts';

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export function adminUserRoutes(ctx: AuthContext): Hono<Env> {
  const { deps, sql, signingKey, hashNewPassword } = ctx;
  const routes = new Hono<Env>();

  /** GoTrue's requireAdmin: a JWT whose role is an admin role (the service-role key). */
  async function requireAdmin(c: Context<Env>): Promise<void> {
    const header = c.req.header('authorization');
    const token = header ? bearerToken(header) : c.req.header('apikey');
    if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    if (token === deps.serviceRoleKey) return;
    const claims = await verifyJwt(signingKey, token);
    if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
      throw new AuthError(403, 'not_admin', 'User not allowed');
    }
  }

  routes.use('/admin/*', async (c, next) => {
    await requireAdmin(c);
    await next();
  });

  routes.post('/admin/users', async (c) => {
    const body = await readJson(c);
    const email = requireValidEmail(stringField(body, 'email'));
    const password = stringField(body, 'password');
    const passwordHash = password === undefined ? null : await hashNewPassword(password);
    try {
      const user = await sql.begin(async (tx) => {
        if (await findUserByEmail(tx, email)) {
          throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        }
        const userId = await insertUser(tx, {
          email,
          passwordHash,
          emailConfirmed: body.email_confirm === true,
          userMetadata: objectField(body, 'user_metadata') ?? {},
          appMetadata: { provider: 'email', providers: ['email'], ...objectField(body, 'app_metadata') },
        });
        return loadUserJson(tx, userId);
      });
      return c.json(user);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      throw error;
    }
  });

  routes.get('/admin/users', async (c) => {
    const page = Math.max(1, Number(c.req.query('page')) || 1);
    const perPage = Math.min(1000, Math.max(1, Number(c.req.query('per_page')) || 50));
    const users = await sql.begin(async (tx) => {
      const rows = await tx<{ id: string }[]>`
        select id from auth.users order by created_at desc, id limit ${perPage} offset ${(page - 1) * perPage}`;
      const list: UserJson[] = [];
      for (const row of rows) {
        const user = await loadUserJson(tx, row.id);
        if (user) list.push(user);
      }
      return list;
    });
    return c.json({ users, aud: 'authenticated' });
  });

  function userIdParam(c: Context<Env>): string {
    const id = c.req.param('id') ?? '';
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
      throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
    }
    return id;
  }

  routes.get('/admin/users/:id', async (c) => {
    const id = userIdParam(c);
    const user = await sql.begin((tx) => loadUserJson(tx, id));
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    return c.json(user);
  });

  routes.put('/admin/users/:id', async (c) => {
    const id = userIdParam(c);
    const body = await readJson(c);
    const password = stringField(body, 'password');
    const passwordHash = password === undefined ? undefined : await hashNewPassword(password);
    const userMetadata = objectField(body, 'user_metadata');
    const appMetadata = objectField(body, 'app_metadata');
    const user = await sql.begin(async (tx) => {
      const current = await findUserById(tx, id, true);
      if (!current) return undefined;
      if (passwordHash) await tx`update auth.users set encrypted_password = ${passwordHash} where id = ${id}`;
      if (body.email_confirm === true) {
        await tx`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = ${id}`;
      }
      if (userMetadata) {
        const merged = mergeMetadata(current.raw_user_meta_data ?? {}, userMetadata);
        await tx`update auth.users set raw_user_meta_data = ${jsonb(tx, merged)} where id = ${id}`;
      }
      if (appMetadata) {
        const merged = mergeMetadata(current.raw_app_meta_data ?? {}, appMetadata);
        await tx`update auth.users set raw_app_meta_data = ${jsonb(tx, merged)} where id = ${id}`;
      }
      await tx`update auth.users set updated_at = now() where id = ${id}`;
      return loadUserJson(tx, id);
    });
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    return c.json(user);
  });

  routes.delete('/admin/users/:id', async (c) => {
    const id = userIdParam(c);
    const found = await sql.begin(async (tx) => {
      if (!(await findUserById(tx, id, true))) return false;
      await deleteUser(tx, id);
      return true;
    });
    if (!found) throw new AuthError(404, 'user_not_found', 'User not found');
    return c.json({});
  });

  return routes;
}
