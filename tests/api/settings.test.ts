// The settings calls on the real stack: automatic rebooking on and off, rebooking thresholds,
// notification preferences and price-alert thresholds. Every call, every refusal (400 naming the
// field and the bound, 403 for what only premium may do, 401 without a session), and after each
// refusal the stored profile exactly as it was.
import type postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { SETTINGS_LIMITS } from '../../supabase/functions/_shared/schemas/settings.ts';
import type { CurrentUserResponse } from '../../supabase/functions/_shared/types/user.ts';
import { apiClient, databaseClient } from './client.ts';
import { putOnPremium, registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

const token = (user: RegisteredUser) => ({ token: user.session.access_token });

/** Every setting column the four calls write, as stored. */
async function storedSettings(sql: postgres.Sql, userId: string) {
  const [row] = await sql<Record<string, unknown>[]>`
    select auto_rebooking, min_savings_percent, min_savings_amount, threshold_condition,
           use_separate_international_thresholds, international_min_savings_percent,
           international_min_savings_amount, notify_price_drops, notify_rebookings,
           notify_cancellations, notification_frequency, notification_time, min_price_drop,
           min_price_drop_percent, time_zone, updated_at
      from public.profiles where id = ${userId}
  `;
  return row;
}

async function premiumTraveller(): Promise<RegisteredUser> {
  const user = await registerUser(api);
  await putOnPremium(sql, user.id);
  return user;
}

async function me(user: RegisteredUser) {
  const res = await api.get<CurrentUserResponse>('/auth/me', token(user));
  expect(res.status).toBe(200);
  return res.body.user;
}

const THRESHOLDS = {
  minSavingsPercent: 25,
  minSavingsAmount: 7500,
  thresholdCondition: 'both',
  useSeparateInternationalThresholds: true,
  internationalMinSavingsPercent: 35,
  internationalMinSavingsAmount: 20000,
} as const;

/** Sends a refused request and checks the status, the message and that nothing was stored. */
async function refused(
  user: RegisteredUser,
  path: string,
  body: unknown,
  status: number,
  message: string | RegExp,
): Promise<void> {
  const before = await storedSettings(sql, user.id);
  const res = await api.post<{ message: string }>(path, body, token(user));
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  else expect(res.body.message).toMatch(message);
  expect(await storedSettings(sql, user.id)).toEqual(before);
}

describe('POST /api/auto-rebooking/toggle', () => {
  it('turns automatic rebooking on and off for a premium traveller', async () => {
    const user = await premiumTraveller();
    const on = await api.post('/auto-rebooking/toggle', { enabled: true }, token(user));
    expect(on).toMatchObject({ status: 200, body: { message: 'Auto-rebooking enabled' } });
    expect((await me(user)).autoRebooking).toBe(true);
    const off = await api.post('/auto-rebooking/toggle', { enabled: false }, token(user));
    expect(off).toMatchObject({ status: 200, body: { message: 'Auto-rebooking disabled' } });
    expect((await me(user)).autoRebooking).toBe(false);
  });

  it('refuses to turn it on without premium (403), and changes nothing', async () => {
    const user = await registerUser(api);
    await refused(
      user,
      '/auto-rebooking/toggle',
      { enabled: true },
      403,
      'Premium subscription required for automatic rebooking.',
    );
  });

  it('lets a free traveller turn it off (nothing to turn off)', async () => {
    const user = await registerUser(api);
    const res = await api.post('/auto-rebooking/toggle', { enabled: false }, token(user));
    expect(res).toMatchObject({ status: 200, body: { message: 'Auto-rebooking disabled' } });
  });

  it.each([
    [{}, 'Enabled is required'],
    [{ enabled: 'yes' }, 'Enabled must be true or false'],
    [{ enabled: true, extra: 1 }, 'Unknown field: extra'],
  ])('refuses %j with 400', async (body, message) => {
    const user = await premiumTraveller();
    await refused(user, '/auto-rebooking/toggle', body, 400, message);
  });
});

describe('POST /api/auto-rebooking/thresholds', () => {
  it('stores all six thresholds for a premium traveller, and /auth/me returns them', async () => {
    const user = await premiumTraveller();
    const res = await api.post('/auto-rebooking/thresholds', THRESHOLDS, token(user));
    expect(res).toMatchObject({ status: 200, body: { message: 'Auto-rebooking thresholds updated' } });
    expect(await me(user)).toMatchObject(THRESHOLDS);
  });

  it('accepts the stored limits themselves', async () => {
    const user = await premiumTraveller();
    for (const edge of ['min', 'max'] as const) {
      const body = {
        ...THRESHOLDS,
        minSavingsPercent: SETTINGS_LIMITS.minSavingsPercent[edge],
        minSavingsAmount: SETTINGS_LIMITS.minSavingsAmount[edge],
        internationalMinSavingsPercent: SETTINGS_LIMITS.internationalMinSavingsPercent[edge],
        internationalMinSavingsAmount: SETTINGS_LIMITS.internationalMinSavingsAmount[edge],
      };
      const res = await api.post('/auto-rebooking/thresholds', body, token(user));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await me(user)).toMatchObject(body);
    }
  });

  it('refuses a free traveller (403), and changes nothing', async () => {
    const user = await registerUser(api);
    await refused(
      user,
      '/auto-rebooking/thresholds',
      THRESHOLDS,
      403,
      'Premium subscription required to customize rebooking thresholds.',
    );
  });

  it.each([
    ['minSavingsPercent', 0, 'Minimum savings percent must be a whole percent from 1 to 90'],
    ['minSavingsPercent', 91, 'Minimum savings percent must be a whole percent from 1 to 90'],
    ['minSavingsPercent', 12.5, 'Minimum savings percent must be a whole percent from 1 to 90'],
    [
      'minSavingsAmount',
      99,
      'Minimum savings amount must be a whole number of cents from 100 to 100000 ($1 to $1,000)',
    ],
    [
      'minSavingsAmount',
      100001,
      'Minimum savings amount must be a whole number of cents from 100 to 100000 ($1 to $1,000)',
    ],
    ['thresholdCondition', 'neither', 'Threshold condition must be one of: either, both'],
    ['useSeparateInternationalThresholds', 'on', 'Use separate international thresholds must be true or false'],
    [
      'internationalMinSavingsPercent',
      95,
      'International minimum savings percent must be a whole percent from 1 to 90',
    ],
    [
      'internationalMinSavingsAmount',
      50,
      'International minimum savings amount must be a whole number of cents from 100 to 100000 ($1 to $1,000)',
    ],
  ])('refuses %s = %j with 400 naming the field and the bound', async (field, value, message) => {
    const user = await premiumTraveller();
    const before = await storedSettings(sql, user.id);
    const res = await api.post<{ message: string; errors: { field: string; message: string }[] }>(
      '/auto-rebooking/thresholds',
      { ...THRESHOLDS, [field]: value },
      token(user),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toEqual([{ field, message }]);
    expect(await storedSettings(sql, user.id)).toEqual(before);
  });

  it('refuses a body missing a threshold', async () => {
    const user = await premiumTraveller();
    const { minSavingsAmount: _omitted, ...rest } = THRESHOLDS;
    await refused(user, '/auto-rebooking/thresholds', rest, 400, 'Minimum savings amount is required');
  });
});

describe('POST /api/notifications/preferences', () => {
  it('stores the three switches, frequency and time, for a free traveller too', async () => {
    const user = await registerUser(api);
    const res = await api.post(
      '/notifications/preferences',
      {
        notifyPriceDrops: false,
        notifyRebookings: true,
        notifyCancellations: false,
        notificationFrequency: 'daily',
        notificationTime: '18:30',
        timeZone: 'America/Argentina/Buenos_Aires',
      },
      token(user),
    );
    expect(res).toMatchObject({ status: 200, body: { message: 'Preferences Updated' } });
    expect(await me(user)).toMatchObject({
      notifyPriceDrops: false,
      notifyRebookings: true,
      notifyCancellations: false,
      notificationFrequency: 'daily',
      notificationTime: '18:30',
      timeZone: 'America/Argentina/Buenos_Aires',
    });
  });

  it('keeps frequency, time and time zone as stored when the body has only the switches', async () => {
    const user = await registerUser(api);
    expect(await me(user)).toMatchObject({
      notificationFrequency: 'instant',
      notificationTime: '09:00',
      timeZone: 'UTC',
    });
    await api.post(
      '/notifications/preferences',
      {
        notifyPriceDrops: true,
        notifyRebookings: true,
        notifyCancellations: true,
        notificationFrequency: 'weekly',
        timeZone: 'Asia/Tokyo',
      },
      token(user),
    );
    const res = await api.post(
      '/notifications/preferences',
      { notifyPriceDrops: true, notifyRebookings: false, notifyCancellations: true },
      token(user),
    );
    expect(res.status).toBe(200);
    expect(await me(user)).toMatchObject({
      notifyRebookings: false,
      notificationFrequency: 'weekly',
      notificationTime: '09:00',
      timeZone: 'Asia/Tokyo',
    });
  });

  const switches = { notifyPriceDrops: true, notifyRebookings: true, notifyCancellations: true };
  it.each([
    [{ notifyPriceDrops: true, notifyRebookings: true }, 'Notify cancellations is required'],
    [{ ...switches, notifyPriceDrops: 1 }, 'Notify price drops must be true or false'],
    [{ ...switches, notificationFrequency: 'hourly' }, 'Notification frequency must be one of: instant, daily, weekly'],
    [{ ...switches, notificationTime: '24:00' }, 'Notification time must be a time of day as HH:MM (00:00 to 23:59)'],
    [{ ...switches, notificationTime: '9:00' }, 'Notification time must be a time of day as HH:MM (00:00 to 23:59)'],
    [
      { ...switches, timeZone: 'Mars/Olympus_Mons' },
      'Time zone must be an IANA time zone name, such as America/New_York',
    ],
    [{ ...switches, timeZone: 'EST' }, 'Time zone must be an IANA time zone name, such as America/New_York'],
    [{ ...switches, timeZone: 'UTC+5' }, 'Time zone must be an IANA time zone name, such as America/New_York'],
    [{ ...switches, timeZone: 42 }, 'Time zone must be an IANA time zone name, such as America/New_York'],
  ])('refuses %j with 400, and changes nothing', async (body, message) => {
    const user = await registerUser(api);
    await refused(user, '/notifications/preferences', body, 400, message);
  });
});

describe('POST /api/price-alerts/thresholds', () => {
  it('stores cents and percent for a free traveller', async () => {
    const user = await registerUser(api);
    const res = await api.post('/price-alerts/thresholds', { minPriceDrop: 4500, minPriceDropPercent: 7 }, token(user));
    expect(res).toMatchObject({ status: 200, body: { message: 'Thresholds updated' } });
    expect(await me(user)).toMatchObject({ minPriceDrop: 4500, minPriceDropPercent: 7 });
  });

  it('accepts 0 and the ceilings', async () => {
    const user = await registerUser(api);
    for (const body of [
      { minPriceDrop: 0, minPriceDropPercent: 0 },
      { minPriceDrop: SETTINGS_LIMITS.minPriceDrop.max, minPriceDropPercent: 100 },
    ]) {
      const res = await api.post('/price-alerts/thresholds', body, token(user));
      expect(res.status).toBe(200);
      expect(await me(user)).toMatchObject(body);
    }
  });

  it.each([
    [
      { minPriceDrop: -500, minPriceDropPercent: 10 },
      'Minimum price drop must be a whole number of cents from 0 to 10000000 ($0 to $100,000)',
    ],
    [
      { minPriceDrop: 10000001, minPriceDropPercent: 10 },
      'Minimum price drop must be a whole number of cents from 0 to 10000000 ($0 to $100,000)',
    ],
    [
      { minPriceDrop: 2500, minPriceDropPercent: 101 },
      'Minimum price drop percent must be a whole percent from 0 to 100',
    ],
    [{ minPriceDrop: '25', minPriceDropPercent: 10 }, /^Minimum price drop must be a whole number of cents/],
    [{ minPriceDrop: 2500 }, 'Minimum price drop percent is required'],
  ])('refuses %j with 400, and changes nothing', async (body, message) => {
    const user = await registerUser(api);
    await refused(user, '/price-alerts/thresholds', body, 400, message);
  });
});

describe('every settings call', () => {
  it.each([
    ['/auto-rebooking/toggle', { enabled: false }],
    ['/auto-rebooking/thresholds', THRESHOLDS],
    ['/notifications/preferences', { notifyPriceDrops: true, notifyRebookings: true, notifyCancellations: true }],
    ['/price-alerts/thresholds', { minPriceDrop: 2500, minPriceDropPercent: 10 }],
  ])('%s needs a session', async (path, body) => {
    const res = await api.post(path, body);
    expect(res.status).toBe(401);
  });

  it.each([
    '/auto-rebooking/toggle',
    '/auto-rebooking/thresholds',
    '/notifications/preferences',
    '/price-alerts/thresholds',
  ])('%s refuses a body that is not JSON', async (path) => {
    const user = await premiumTraveller();
    const before = await storedSettings(sql, user.id);
    const res = await api.post<{ message: string }>(path, undefined, { ...token(user), raw: '{not json' });
    expect(res).toMatchObject({ status: 400, body: { message: 'Request body must be valid JSON' } });
    expect(await storedSettings(sql, user.id)).toEqual(before);
  });

  it("changes only the caller's own profile", async () => {
    const [caller, other] = [await premiumTraveller(), await premiumTraveller()];
    const before = await storedSettings(sql, other.id);
    await api.post('/auto-rebooking/toggle', { enabled: true }, token(caller));
    await api.post('/auto-rebooking/thresholds', THRESHOLDS, token(caller));
    await api.post(
      '/notifications/preferences',
      { notifyPriceDrops: false, notifyRebookings: false, notifyCancellations: false },
      token(caller),
    );
    await api.post('/price-alerts/thresholds', { minPriceDrop: 100, minPriceDropPercent: 1 }, token(caller));
    expect(await storedSettings(sql, other.id)).toEqual(before);
  });
});
