// The admin's plans over HTTP (GET, POST /api/admin/subscription-plans, PUT .../{id}): every
// plan, creating and editing with a 400 per field, the name unique whatever its case (also when
// two admins create it at once), 404 and 400 ids, what the public plan list shows afterwards,
// and what a rename does to the travellers on the plan (nothing). Plans this file adds carry a
// tag and are removed afterwards; the stack's Free and Premium plans are never changed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminSubscriptionPlan,
  AdminSubscriptionPlanResponse,
  AdminSubscriptionPlansResponse,
} from '../../supabase/functions/_shared/types/admin.ts';
import type { SubscriptionPlansResponse } from '../../supabase/functions/_shared/types/plans.ts';
import { apiClient, databaseClient } from './client.ts';
import { registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();
const tag = randomBytes(4).toString('hex');
const named = (name: string) => `${name} ${tag}`;

let admin: RegisteredUser;
const auth = (user: RegisteredUser) => ({ token: user.session.access_token });
const travellers: string[] = [];

interface Refusal {
  message: string;
  errors?: { field: string; message: string }[];
}

const list = () => api.get<AdminSubscriptionPlansResponse>('/admin/subscription-plans', auth(admin));
const create = (body: unknown, as = admin) =>
  api.post<AdminSubscriptionPlanResponse & Refusal>('/admin/subscription-plans', body, auth(as));
const update = (id: number | string, body: unknown, as = admin) =>
  api.request<AdminSubscriptionPlanResponse & Refusal>('PUT', `/admin/subscription-plans/${id}`, body, auth(as));

function planBody(overrides: Record<string, unknown> = {}) {
  return {
    name: named(`Plan ${randomBytes(2).toString('hex')}`),
    price: 1999,
    flightLimit: 20,
    commissionRate: 15,
    description: 'For frequent travellers',
    autoRebookingEnabled: true,
    isActive: true,
    ...overrides,
  };
}

async function created(overrides: Record<string, unknown> = {}): Promise<AdminSubscriptionPlan> {
  const res = await create(planBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.plan;
}

async function plansNamed(name: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from public.subscription_plans where lower(name) = lower(${name})`;
  return row?.n ?? 0;
}

async function planRow(id: number) {
  const [row] = await sql`select name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate,
                                 description, is_active from public.subscription_plans where id = ${id}`;
  return row;
}

beforeAll(async () => {
  admin = await registerUser(api);
  await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
});

afterAll(async () => {
  // travellers put on this file's plans go back to the free plan, then the plans go
  if (travellers.length > 0) {
    await sql`update public.profiles set plan_id = private.default_plan_id() where id in ${sql(travellers)}`;
  }
  await sql`delete from public.subscription_plans where name like ${`% ${tag}`}`;
});

describe('GET /api/admin/subscription-plans', () => {
  it('answers every plan by id, retired ones too, with its subscribers and dates', async () => {
    const retired = await created({ isActive: false, price: 0, autoRebookingEnabled: false });
    const res = await list();
    expect(res.status).toBe(200);
    const ids = res.body.plans.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(res.body.plans.find((p) => p.id === retired.id)).toEqual(retired);
    const premium = res.body.plans.find((p) => p.name === 'Premium');
    expect(premium).toEqual({
      id: expect.any(Number),
      name: 'Premium',
      tier: 'premium',
      price: 2499,
      flightLimit: -1,
      autoRebookingEnabled: true,
      commissionRate: 25,
      description: expect.stringContaining('Unlimited monitoring'),
      isActive: true,
      subscriberCount: expect.any(Number),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [count] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.profiles where plan_id = ${premium?.id ?? 0}`;
    // other files add premium travellers meanwhile: the answer is at most what is there now
    expect(premium?.subscriberCount).toBeLessThanOrEqual(count?.n ?? 0);
    expect(premium?.subscriberCount).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(premium?.createdAt ?? ''))).toBe(false);
  });
});

describe('POST /api/admin/subscription-plans', () => {
  it('creates a plan (201) with the fields as written; a price or automatic rebooking makes it premium', async () => {
    const body = planBody({ description: '  Trimmed  ' });
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.plan).toEqual({
      id: expect.any(Number),
      name: body.name,
      tier: 'premium',
      price: 1999,
      flightLimit: 20,
      autoRebookingEnabled: true,
      commissionRate: 15,
      description: 'Trimmed',
      isActive: true,
      subscriberCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await planRow(res.body.plan.id)).toMatchObject({ tier: 'premium', price: 1999, flight_limit: 20 });

    // the optional fields default: no commission, no automatic rebooking, active, no description
    const bare = await create({ name: named('Bare'), price: 0, flightLimit: -1 });
    expect(bare.status, JSON.stringify(bare.body)).toBe(201);
    expect(bare.body.plan).toMatchObject({
      price: 0,
      flightLimit: -1,
      commissionRate: 0,
      autoRebookingEnabled: false,
      isActive: true,
      description: null,
    });
    expect(await planRow(bare.body.plan.id)).toMatchObject({ tier: 'free', commission_rate: 0 });
  });

  it.each([
    ['flightLimit', 0, 'Flight limit must be -1 (unlimited) or from 1 to 100000'],
    ['flightLimit', -2, 'Flight limit must be -1 (unlimited) or from 1 to 100000'],
    ['flightLimit', 1.5, 'Flight limit must be a whole number'],
    ['flightLimit', '5', 'Flight limit must be a number'],
    ['price', -1, 'Price must be 0 or more cents (at most $1,000,000)'],
    ['price', 9.99, 'Price must be a whole number'],
    ['commissionRate', 101, 'Commission rate must be from 0 to 100 percent'],
    ['commissionRate', -1, 'Commission rate must be from 0 to 100 percent'],
    ['name', '', 'Name is required'],
    ['name', '   ', 'Name is required'],
    ['name', 'x'.repeat(101), 'Name must be at most 100 characters'],
    ['isActive', 'yes', 'Active must be true or false'],
  ])('refuses %s = %j with a 400 naming the field, creating nothing', async (field, value, message) => {
    const body = planBody({ [field]: value });
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message, errors: [{ field, message }] });
    if (typeof body.name === 'string' && body.name.trim()) expect(await plansNamed(body.name)).toBe(0);
  });

  it('refuses an unknown field and a missing one', async () => {
    const body = planBody({ tier: 'premium' });
    const unknown = await create(body);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      message: 'Unknown field: tier',
      errors: [{ field: '', message: 'Unknown field: tier' }],
    });
    expect(await plansNamed(body.name)).toBe(0);

    const { price: _price, ...noPrice } = planBody();
    const missing = await create(noPrice);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'price', message: 'Price must be a number' }]);

    const notJson = await api.request<Refusal>('POST', '/admin/subscription-plans', undefined, {
      ...auth(admin),
      raw: '{"name":',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe('Request body must be valid JSON');
  });

  it('refuses a name already taken, whatever its case, on the name field', async () => {
    const first = await created({ name: named('Gold') });
    for (const name of [first.name, first.name.toUpperCase(), `  ${first.name.toLowerCase()}  `, 'premium', 'FREE']) {
      const res = await create(planBody({ name }));
      expect(res.status, name).toBe(400);
      expect(res.body).toEqual({
        message: 'A plan with this name already exists',
        errors: [{ field: 'name', message: 'A plan with this name already exists' }],
      });
    }
    expect(await plansNamed(first.name)).toBe(1);
  });

  it('two admins creating the same name at once: one plan, the other a 400 on the name', async () => {
    const name = named('Race');
    const results = await Promise.all([create(planBody({ name })), create(planBody({ name: name.toUpperCase() }))]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(results.find((r) => r.status === 400)?.body.errors).toEqual([
      { field: 'name', message: 'A plan with this name already exists' },
    ]);
    expect(await plansNamed(name)).toBe(1);
  });

  it('is for admins only: a traveller is refused (403) and nothing is created', async () => {
    const traveller = await registerUser(api);
    const body = planBody();
    const res = await create(body, traveller);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Admin access required');
    expect(await plansNamed(body.name)).toBe(0);
    expect((await api.get('/admin/subscription-plans', auth(traveller))).status).toBe(403);
    expect((await api.get('/admin/subscription-plans')).status).toBe(401);
  });

  it('records who created it in the audit log, in the same transaction', async () => {
    const plan = await created();
    const rows = await sql`select actor_id, action, target_type from public.admin_audit_log
                            where target_type = 'plan' and target_id = ${String(plan.id)}`;
    expect(rows).toEqual([{ actor_id: admin.id, action: 'plan.create', target_type: 'plan' }]);
  });
});

describe('PUT /api/admin/subscription-plans/{id}', () => {
  it('edits every field and answers the plan as stored', async () => {
    const plan = await created();
    const body = planBody({
      name: named('Edited'),
      price: 2999,
      flightLimit: -1,
      commissionRate: 0,
      description: null,
      autoRebookingEnabled: false,
      isActive: false,
    });
    const res = await update(plan.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.plan).toEqual({ ...plan, ...body, updatedAt: expect.any(String) });
    expect(await planRow(plan.id)).toEqual({
      name: body.name,
      tier: 'premium',
      price: 2999,
      flight_limit: -1,
      auto_rebooking_enabled: false,
      commission_rate: 0,
      description: null,
      is_active: false,
    });
    const audit = await sql`select actor_id, action from public.admin_audit_log
                             where target_type = 'plan' and target_id = ${String(plan.id)} order by id`;
    expect(audit).toEqual([
      { actor_id: admin.id, action: 'plan.create' },
      { actor_id: admin.id, action: 'plan.update' },
    ]);
  });

  it('refuses each invalid field (400) and changes nothing', async () => {
    const plan = await created();
    const before = await planRow(plan.id);
    for (const [field, value] of [
      ['flightLimit', 0],
      ['flightLimit', -2],
      ['flightLimit', 1.5],
      ['price', -1],
      ['commissionRate', 101],
      ['name', ''],
    ] as const) {
      const res = await update(plan.id, planBody({ [field]: value }));
      expect(res.status, `${field} ${value}`).toBe(400);
      expect(res.body.errors?.map((e) => e.field)).toEqual([field]);
    }
    expect(await planRow(plan.id)).toEqual(before);
  });

  it('refuses another plan’s name, in any case, and allows its own in another case', async () => {
    const gold = await created({ name: named('Gold Two') });
    const silver = await created({ name: named('Silver') });
    const taken = await update(silver.id, planBody({ name: gold.name.toLowerCase() }));
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual([{ field: 'name', message: 'A plan with this name already exists' }]);
    expect((await planRow(silver.id))?.name).toBe(silver.name);

    const own = await update(silver.id, planBody({ name: silver.name.toUpperCase() }));
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.plan.name).toBe(silver.name.toUpperCase());
  });

  it('answers 404 for an unknown plan and 400 for an id that is not a whole number', async () => {
    const unknown = await update(987654321, planBody());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Plan not found' });
    for (const id of ['abc', '1.5', '-1', '0', '99999999999999999999']) {
      const res = await update(id, planBody());
      expect(res.status, id).toBe(400);
      expect(res.body).toEqual({ message: 'Plan id must be a whole number' });
    }
  });

  it('refuses (409) to turn a plan travellers are on from paid to free, changing nothing', async () => {
    const plan = await created();
    const traveller = await registerUser(api);
    travellers.push(traveller.id);
    await sql`update public.profiles set plan_id = ${plan.id} where id = ${traveller.id}`;
    const res = await update(plan.id, planBody({ name: plan.name, price: 0, autoRebookingEnabled: false }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message:
        'Travellers are on this plan (1): it cannot change between free (no price, no automatic rebooking) and paid while anyone is on it. Create a new plan instead.',
    });
    expect(await planRow(plan.id)).toMatchObject({ tier: 'premium', price: 1999, auto_rebooking_enabled: true });
  });

  it('a rename changes nobody’s terms: the traveller keeps the plan, its limit, rate and tier', async () => {
    const plan = await created({ flightLimit: 12, commissionRate: 20 });
    const traveller = await registerUser(api);
    travellers.push(traveller.id);
    await sql`update public.profiles set plan_id = ${plan.id} where id = ${traveller.id}`;
    const me = async () => (await api.get<{ user: Record<string, unknown> }>('/auth/me', auth(traveller))).body.user;
    const terms = (user: Record<string, unknown>) => ({
      subscriptionTier: user.subscriptionTier,
      flightLimit: user.flightLimit,
      commissionRate: user.commissionRate,
    });
    const before = await me();
    expect(terms(before)).toEqual({ subscriptionTier: 'premium', flightLimit: 12, commissionRate: 20 });

    const renamed = await update(plan.id, planBody({ name: named('Gold 2027'), flightLimit: 12, commissionRate: 20 }));
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.plan.subscriberCount).toBe(1);
    expect(terms(await me())).toEqual(terms(before));
    const [profile] = await sql`select plan_id::int from public.profiles where id = ${traveller.id}`;
    expect(profile).toEqual({ plan_id: plan.id });
  });
});

describe('the public plan list follows the admin’s changes', () => {
  it('shows a new active plan, its new price, and hides it once retired', async () => {
    const publicPlans = async () =>
      (await api.get<SubscriptionPlansResponse>('/subscription/plans')).body.plans.filter((p) => p.name.endsWith(tag));
    const plan = await created({ name: named('Public'), price: 1234 });
    expect((await publicPlans()).find((p) => p.id === plan.id)).toEqual({
      id: plan.id,
      name: plan.name,
      tier: 'premium',
      price: 1234,
      flightLimit: 20,
      autoRebookingEnabled: true,
      commissionRate: 15,
      description: 'For frequent travellers',
    });

    expect((await update(plan.id, planBody({ name: plan.name, price: 1500 }))).status).toBe(200);
    expect((await publicPlans()).find((p) => p.id === plan.id)?.price).toBe(1500);

    expect((await update(plan.id, planBody({ name: plan.name, price: 1500, isActive: false }))).status).toBe(200);
    expect((await publicPlans()).map((p) => p.id)).not.toContain(plan.id);
    // the admin still sees it
    expect((await list()).body.plans.find((p) => p.id === plan.id)?.isActive).toBe(false);
  });
});
