// The admin area's users and audit log over HTTP: GET /api/admin/users (paging, search, sort, 400s),
// PUT /api/admin/users/{id}/admin (grant, revoke, own flag, last admin, 404, 400) and
// GET /api/admin/audit, with the audit rows of the manual runs.
//
// Its own stack: the list counts every account and the last-admin case needs to know every admin
// (the shared stack's other files make admins of their own), and a manual price check re-prices
// every due flight in its database.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListPage } from '../../supabase/functions/_shared/schemas/pagination.ts';
import type {
  AdminAuditEntry,
  AdminUser,
  UpdateUserAdminResponse,
} from '../../supabase/functions/_shared/types/admin.ts';
import type { ApiClient } from './client.ts';
import { registerUser, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let api: ApiClient;
let sql: postgres.Sql;
let admin: RegisteredUser;
let travellers: RegisteredUser[];
/** Every username of this file's travellers shares it, so a search finds exactly them. */
const tag = `t${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  own = await startOwnStack('admin-users', { connections: 3 });
  ({ api, sql } = own);
  admin = await registerUser(api);
  await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
  travellers = [];
  for (const n of [1, 2, 3]) {
    travellers.push(await registerUser(api, { username: `${tag}_${n}`, email: `${tag}.${n}@example.com` }));
  }
  // traveller 2 has three flights, traveller 3 one; traveller 3 owes commission
  for (const [who, count] of [
    [travellers[1], 3],
    [travellers[2], 1],
  ] as const) {
    for (let i = 0; i < count; i++) {
      await sql`insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                            departure_airport, arrival_airport, departure_date, original_price)
                values (${who!.id}, 'Delta Air Lines', ${`DL${100 + i}`}, ${`${tag}${i}`.toUpperCase().slice(0, 10)},
                        'Smith', 'JFK', 'LAX', current_date + 40, 45000)`;
    }
  }
  await sql`update public.profiles set commission_owed = 1250, total_credits_earned = 5000 where id = ${travellers[2]!.id}`;
});

afterAll(async () => {
  await own?.stop();
});

const bearer = (user: RegisteredUser) => ({ token: user.session.access_token });
const put = <T>(path: string, body: unknown, user: RegisteredUser) => api.request<T>('PUT', path, body, bearer(user));

async function auditCount(): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from public.admin_audit_log`;
  return row?.n ?? 0;
}

async function isAdmin(id: string): Promise<boolean> {
  const [row] = await sql<{ is_admin: boolean }[]>`select is_admin from public.profiles where id = ${id}`;
  return row?.is_admin ?? false;
}

describe('GET /api/admin/users', () => {
  it('answers the first page, newest first, every field in API names', async () => {
    const res = await api.get<ListPage<AdminUser>>('/admin/users', bearer(admin));
    expect(res.status).toBe(200);
    const [total] = await sql<{ n: number }[]>`select count(*)::int as n from public.profiles`;
    expect(res.body).toMatchObject({ total: total?.n, page: 1, pageSize: 25 });
    const created = res.body.items.map((u) => u.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const third = res.body.items.find((u) => u.id === travellers[2]!.id);
    expect(third).toEqual({
      id: travellers[2]!.id,
      username: `${tag}_3`,
      email: `${tag}.3@example.com`,
      isAdmin: false,
      subscriptionTier: 'free',
      planName: 'Free',
      emailConnected: false,
      flightCount: 1,
      totalCreditsEarned: 5000,
      commissionOwed: 1250,
      commissionPaid: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(res.body.items.find((u) => u.id === admin.id)?.isAdmin).toBe(true);
  });

  it('searches username or email (any case), pages and sorts the matches', async () => {
    const byName = await api.get<ListPage<AdminUser>>(
      `/admin/users?q=${tag.toUpperCase()}_&sort=username&order=asc`,
      bearer(admin),
    );
    expect(byName.status).toBe(200);
    expect(byName.body.total).toBe(3);
    expect(byName.body.items.map((u) => u.username)).toEqual([`${tag}_1`, `${tag}_2`, `${tag}_3`]);

    const byEmail = await api.get<ListPage<AdminUser>>(`/admin/users?q=${tag}.2@example`, bearer(admin));
    expect(byEmail.body.items.map((u) => u.id)).toEqual([travellers[1]!.id]);

    const page2 = await api.get<ListPage<AdminUser>>(
      `/admin/users?q=${tag}&sort=flights&order=desc&pageSize=2&page=2`,
      bearer(admin),
    );
    expect(page2.body).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.body.items.map((u) => u.username)).toEqual([`${tag}_1`]);
    const page1 = await api.get<ListPage<AdminUser>>(
      `/admin/users?q=${tag}&sort=flights&order=desc&pageSize=2`,
      bearer(admin),
    );
    expect(page1.body.items.map((u) => [u.username, u.flightCount])).toEqual([
      [`${tag}_2`, 3],
      [`${tag}_3`, 1],
    ]);

    const owed = await api.get<ListPage<AdminUser>>(
      `/admin/users?q=${tag}&sort=commissionOwed&order=desc`,
      bearer(admin),
    );
    expect(owed.body.items[0]?.id).toBe(travellers[2]!.id);

    // % and _ are taken literally: no username has a literal "%"
    const literal = await api.get<ListPage<AdminUser>>('/admin/users?q=%25', bearer(admin));
    expect(literal.body).toMatchObject({ total: 0, items: [] });

    const past = await api.get<ListPage<AdminUser>>(`/admin/users?q=${tag}&page=9`, bearer(admin));
    expect(past.body).toMatchObject({ total: 3, items: [], page: 9 });
  });

  it.each([
    ['page=0', 'page', 'Page must be a whole number of at least 1'],
    ['pageSize=101', 'pageSize', 'Page size must be a whole number from 1 to 100'],
    ['sort=password', 'sort', 'Sort must be one of: createdAt, username, email, tier, flights, commissionOwed'],
    ['order=up', 'order', 'Order must be asc or desc'],
    ['role=admin', '', 'Unknown parameter: role'],
    [`q=${'x'.repeat(101)}`, 'q', 'Search must be at most 100 characters'],
  ])('refuses ?%s with 400 naming the field', async (query, field, message) => {
    const res = await api.get<{ message: string; errors: { field: string; message: string }[] }>(
      `/admin/users?${query}`,
      bearer(admin),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toEqual([{ field, message }]);
  });
});

describe('PUT /api/admin/users/{id}/admin', () => {
  it('grants and revokes, answering the user as the list shows them, each with its audit row', async () => {
    const target = travellers[0]!;
    const before = await auditCount();
    const granted = await put<UpdateUserAdminResponse>(`/admin/users/${target.id}/admin`, { isAdmin: true }, admin);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      success: true,
      message: 'Admin status updated',
      user: { id: target.id, username: target.username, isAdmin: true, flightCount: 0 },
    });
    expect(await isAdmin(target.id)).toBe(true);

    const revoked = await put<UpdateUserAdminResponse>(`/admin/users/${target.id}/admin`, { isAdmin: false }, admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body.user.isAdmin).toBe(false);
    expect(await isAdmin(target.id)).toBe(false);

    const audit = await api.get<ListPage<AdminAuditEntry>>(`/admin/audit?q=${target.username}`, bearer(admin));
    expect(audit.status).toBe(200);
    expect(audit.body.total).toBe(2);
    expect(audit.body.items).toEqual([
      {
        id: expect.any(Number),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        actorId: admin.id,
        actorName: admin.username,
        action: 'admin.revoke',
        targetType: 'user',
        targetId: target.id,
        targetLabel: target.username,
        before: { isAdmin: true },
        after: { isAdmin: false },
      },
      expect.objectContaining({ action: 'admin.grant', before: { isAdmin: false }, after: { isAdmin: true } }),
    ]);
    expect(await auditCount()).toBe(before + 2);
  });

  it('asking for the flag the user already has changes nothing and writes no audit row', async () => {
    const before = await auditCount();
    const res = await put<UpdateUserAdminResponse>(
      `/admin/users/${travellers[1]!.id}/admin`,
      { isAdmin: false },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, user: { isAdmin: false } });
    const own = await put<UpdateUserAdminResponse>(`/admin/users/${admin.id}/admin`, { isAdmin: true }, admin);
    expect(own.status).toBe(200);
    expect(await auditCount()).toBe(before);
  });

  it('refuses an admin removing their own flag (409)', async () => {
    const before = await auditCount();
    const res = await put(`/admin/users/${admin.id}/admin`, { isAdmin: false }, admin);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'You cannot remove your own admin status' });
    expect(await isAdmin(admin.id)).toBe(true);
    expect(await auditCount()).toBe(before);
  });

  it('answers 404 for an unknown user and 400 for a malformed id or body, changing nothing', async () => {
    const before = await auditCount();
    const unknown = await put(`/admin/users/00000000-0000-4000-8000-000000000000/admin`, { isAdmin: true }, admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'User not found' });

    const malformed = await put<{ message: string; errors: unknown[] }>(
      '/admin/users/42/admin',
      { isAdmin: true },
      admin,
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      message: 'User id must be a user id',
      errors: [{ field: 'id', message: 'User id must be a user id' }],
    });

    for (const body of [{}, { isAdmin: 'yes' }, { isAdmin: true, role: 'owner' }]) {
      const res = await put<{ message: string }>(`/admin/users/${travellers[1]!.id}/admin`, body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(/isAdmin|Unknown field/);
    }
    const notJson = await api.request('PUT', `/admin/users/${travellers[1]!.id}/admin`, undefined, {
      ...bearer(admin),
      raw: '{"isAdmin":',
    });
    expect(notJson.status).toBe(400);
    expect(await isAdmin(travellers[1]!.id)).toBe(false);
    expect(await auditCount()).toBe(before);
  });

  it('two admins revoking each other at the same moment: one is refused (409), one admin is left', async () => {
    // the file's admin and a second one are the only admins (the seed's demo admin steps down)
    const second = travellers[1]!;
    await sql`update public.profiles set is_admin = true where id = ${second.id}`;
    await sql`update public.profiles set is_admin = false where is_admin and id not in ${sql([admin.id, second.id])}`;
    const before = await auditCount();

    let outcomes: number[];
    if (own.stack.singleSession) {
      // PGlite runs one transaction at a time: the second request comes after the first's commit,
      // when its admin is no longer one
      outcomes = [
        (await put(`/admin/users/${second.id}/admin`, { isAdmin: false }, admin)).status,
        (await put(`/admin/users/${admin.id}/admin`, { isAdmin: false }, second)).status,
      ];
      expect(outcomes).toEqual([200, 403]);
    } else {
      // hold the lock removals of admins take, so both requests are inside their update, waiting
      const lockHolder = await sql.reserve();
      await lockHolder`begin`;
      await lockHolder`select pg_advisory_xact_lock(hashtextextended('fareback.profiles.is_admin', 0))`;
      const requests = [
        put<{ message: string }>(`/admin/users/${second.id}/admin`, { isAdmin: false }, admin),
        put<{ message: string }>(`/admin/users/${admin.id}/admin`, { isAdmin: false }, second),
      ];
      for (;;) {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from pg_locks
           where locktype = 'advisory' and not granted
             and database = (select oid from pg_database where datname = current_database())`;
        if (row?.n === 2) break;
      }
      await lockHolder`commit`;
      lockHolder.release();
      const answers = await Promise.all(requests);
      outcomes = answers.map((a) => a.status).sort();
      expect(outcomes).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.body).toEqual({ message: 'The last admin cannot be removed' });
    }
    const [left] = await sql<{ n: number }[]>`select count(*)::int as n from public.profiles where is_admin`;
    expect(left?.n).toBe(1);
    expect(await auditCount()).toBe(before + 1);
    // put things back for the rest of the file: the file's admin is the admin again
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
    await sql`update public.profiles set is_admin = false where id = ${second.id}`;
  });
});

describe('GET /api/admin/audit', () => {
  it('pages newest first, sorts, searches by action, actor or target, and refuses bad parameters', async () => {
    const all = await api.get<ListPage<AdminAuditEntry>>('/admin/audit?pageSize=100', bearer(admin));
    expect(all.status).toBe(200);
    const ids = all.body.items.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.body.total).toBe(await auditCount());

    const grants = await api.get<ListPage<AdminAuditEntry>>('/admin/audit?q=admin.grant&pageSize=100', bearer(admin));
    expect(grants.body.items.length).toBeGreaterThan(0);
    expect(grants.body.items.every((e) => e.action === 'admin.grant')).toBe(true);

    const byActor = await api.get<ListPage<AdminAuditEntry>>(
      `/admin/audit?q=${admin.username}&sort=action&order=asc&pageSize=100`,
      bearer(admin),
    );
    expect(byActor.body.items.length).toBeGreaterThan(0);
    expect(byActor.body.items.every((e) => e.actorName === admin.username || e.targetLabel === admin.username)).toBe(
      true,
    );
    const actions = byActor.body.items.map((e) => e.action);
    expect(actions).toEqual([...actions].sort());

    const bad = await api.get<{ errors: unknown[] }>('/admin/audit?sort=before', bearer(admin));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'sort', message: 'Sort must be one of: at, action, actor' }]);
  });

  it('records the manual runs with the counts they answered and the run they started or joined', async () => {
    const check = await api.post<{ checkedCount: number; priceDropsFound: number }>(
      '/admin/run-price-check',
      {},
      bearer(admin),
    );
    expect(check.status).toBe(200);
    const rebook = await api.post<{ rebookedCount: number; savingsAmount: number }>(
      '/admin/run-auto-rebooking',
      {},
      bearer(admin),
    );
    expect(rebook.status).toBe(200);

    const runs = await api.get<ListPage<AdminAuditEntry>>('/admin/audit?q=run.&pageSize=2', bearer(admin));
    const [rebookRow, checkRow] = runs.body.items;
    expect(checkRow).toMatchObject({
      actorId: admin.id,
      actorName: admin.username,
      action: 'run.price_check',
      targetType: 'run',
      targetLabel: 'Price check',
      before: null,
      after: {
        checkedCount: check.body.checkedCount,
        priceDropsFound: check.body.priceDropsFound,
        sweepId: Number(checkRow?.targetId),
      },
    });
    const [sweep] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.price_check_logs where id = ${Number(checkRow?.targetId)}`;
    expect(sweep?.n).toBe(1);
    expect(rebookRow).toMatchObject({
      actorId: admin.id,
      action: 'run.auto_rebooking',
      targetType: 'run',
      targetLabel: 'Auto-rebooking',
      after: {
        rebookedCount: rebook.body.rebookedCount,
        savingsAmount: rebook.body.savingsAmount,
        runId: Number(rebookRow?.targetId),
      },
    });
    const [run] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.auto_rebooking_logs where id = ${Number(rebookRow?.targetId)}`;
    expect(run?.n).toBe(1);
  });
});
