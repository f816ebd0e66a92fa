// Email import on the shared stack, which runs with the sample mailbox (EMAIL_DEV_MAILBOX) and no
// Google credentials: the OAuth configuration, the configuration error, the pasted-code path's
// validation, scanning the sample mailbox (flights found, changed and cancelled, none from the
// negatives), the plan's limit, the emails read, and disconnecting. Gmail itself is tested
// against the Google stand-in in email-google.test.ts.
import { describe, expect, it } from 'vitest';
import type {
  EmailConnectDevResponse,
  EmailConnectionResponse,
  HeldBookingsResponse,
  ImportedEmailsResponse,
  OAuthConfigResponse,
} from '../../supabase/functions/_shared/types/email.ts';
import type { Flight } from '../../supabase/functions/_shared/types/flights.ts';
import type { CurrentUserResponse } from '../../supabase/functions/_shared/types/user.ts';
import { apiClient, databaseClient } from './client.ts';
import { newIp, registerUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();
const auth = (token: string) => ({ token, ip: newIp() });

async function scanDone(token: string): Promise<EmailConnectionResponse['connection']> {
  let connection: EmailConnectionResponse['connection'] | undefined;
  await expect
    .poll(
      async () => {
        const res = await api.get<EmailConnectionResponse>('/email/connection', auth(token));
        connection = res.body.connection;
        return connection.scan?.status;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe('done');
  return connection as EmailConnectionResponse['connection'];
}

async function flightsOf(token: string): Promise<Flight[]> {
  const res = await api.get<{ flights: Flight[] }>('/flights', auth(token));
  expect(res.status).toBe(200);
  return res.body.flights;
}

describe('GET /api/oauth/config', () => {
  it('answers the redirect URI on the site, what is configured, the read-only scope and the dev mailbox', async () => {
    const user = await registerUser(api);
    const res = await api.get<OAuthConfigResponse>('/oauth/config', auth(user.session.access_token));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      redirectUri: `${api.stack.url}/oauth2callback`,
      clientIdAvailable: false,
      clientSecretAvailable: false,
      scopes: ['https://www.googleapis.com/auth/gmail.readonly'],
      devConnectAvailable: true,
    });
  });

  it('needs a session', async () => {
    expect((await api.get('/oauth/config', { ip: newIp() })).status).toBe(401);
    expect((await api.get('/email/connect', { ip: newIp() })).status).toBe(401);
    expect((await api.get('/email/connection', { ip: newIp() })).status).toBe(401);
    expect((await api.get('/email/connect-dev', { ip: newIp() })).status).toBe(401);
  });
});

describe('GET /api/email/connect without Google credentials', () => {
  it('answers 503 with a configuration error naming what is missing and the development toggle', async () => {
    const user = await registerUser(api);
    const res = await api.get<{ message: string; details: string }>('/email/connect', auth(user.session.access_token));
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('configuration error');
    expect(res.body.details).toContain('GOOGLE_CLIENT_ID');
    expect(res.body.details).toContain('Toggle Email (Dev)');
  });
});

describe('POST /api/email/manual-token-exchange', () => {
  it('refuses an empty or missing code with the spec message, changing nothing', async () => {
    const user = await registerUser(api);
    for (const body of [{ code: '' }, { code: '   ' }, {}]) {
      const res = await api.post<{ message: string; errors: { field: string; message: string }[] }>(
        '/email/manual-token-exchange',
        body,
        auth(user.session.access_token),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'code', message: 'Authorization code required' }]);
    }
    const [row] = await sql`select count(*)::int as n from public.email_connections where user_id = ${user.id}`;
    expect(row?.n).toBe(0);
  });

  it('is 503 while Gmail is not configured', async () => {
    const user = await registerUser(api);
    const res = await api.post('/email/manual-token-exchange', { code: '4/abc' }, auth(user.session.access_token));
    expect(res.status).toBe(503);
  });
});

describe('the sample mailbox (GET /api/email/connect-dev)', () => {
  it('connects, scans the sample mailbox into flights (changed, cancelled, none from negatives), and disconnects', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    const on = await api.get<EmailConnectDevResponse>('/email/connect-dev', auth(token));
    expect(on.status).toBe(200);
    expect(on.body.emailConnected).toBe(true);

    const connection = await scanDone(token);
    expect(connection.state).toBe('connected');
    expect(connection.provider).toBe('sample');
    expect(connection.scan).toMatchObject({
      scanned: 11,
      total: 11,
      flightsFound: 5,
      flightsUpdated: 1,
      flightsCancelled: 1,
      flightsHeld: 1,
    });
    expect(connection.scan?.summary).toBe('Scanned 11 of 11 emails, 5 flights found, 1 held for you to confirm');

    const flights = await flightsOf(token);
    const byCode = new Map(flights.map((f) => [f.bookingCode, f]));
    expect([...byCode.keys()].sort()).toEqual(['5TQ8ZL', 'GHT4WR', 'K7PQ2M', 'QWMBXA', 'X4NR9B']);
    // the Air Canada booking came forwarded from a person's address, not an airline's: held
    const held = await api.get<HeldBookingsResponse>('/email/held', auth(token));
    expect(held.body.held).toEqual([
      expect.objectContaining({ bookingCode: 'PJ7KQD', from: expect.stringContaining('julia.harper@example.com') }),
    ]);
    // the schedule change moved the United flight
    expect(byCode.get('K7PQ2M')).toMatchObject({
      flightNumber: 'UA2217',
      departureAirport: 'SFO',
      arrivalAirport: 'EWR',
      departureDate: '2027-03-13',
      isManualEntry: false,
    });
    expect(byCode.get('GHT4WR')).toMatchObject({
      flightNumber: 'DL1287',
      departureAirport: 'ATL',
      arrivalAirport: 'LAX',
      isRoundTrip: true,
      returnFlightNumber: 'DL2540',
      returnDate: '2027-04-18',
      originalPrice: 46890,
    });
    expect(byCode.get('QWMBXA')?.status).toBe('cancelled');
    expect(byCode.get('QWMBXA')?.isWatched).toBe(false);
    // where each came from, never the body
    const source = byCode.get('K7PQ2M')?.emailSource as Record<string, unknown>;
    expect(Object.keys(source).sort()).toEqual(['date', 'from', 'messageId', 'senderDomain', 'subject', 'via']);
    expect(source).toMatchObject({
      via: 'sample',
      messageId: '06-united-schedule-change.eml',
      senderDomain: 'united.com',
    });
    expect(String(source.subject)).toContain('itinerary has changed');

    const me = await api.get<CurrentUserResponse>('/auth/me', auth(token));
    expect(me.body.user).toMatchObject({ emailConnected: true, emailConnectionState: 'connected' });

    // which emails were read and what was taken from each
    const read = await api.get<ImportedEmailsResponse>('/email/messages?pageSize=50&sort=date&order=asc', auth(token));
    expect(read.status).toBe(200);
    expect(read.body.total).toBe(11);
    const outcome = Object.fromEntries(read.body.items.map((m) => [m.messageId, m.outcome]));
    expect(outcome).toMatchObject({
      '01-united-confirmation.eml': 'created',
      '06-united-schedule-change.eml': 'updated',
      '07-jetblue-cancellation.eml': 'cancelled',
      '08-hotel-reservation.eml': 'not_a_booking',
      '09-airline-newsletter.eml': 'not_a_booking',
      '10-checkin-reminder.eml': 'not_a_booking',
      '11-air-canada-forwarded.eml': 'held',
    });
    const united = read.body.items.find((m) => m.messageId === '01-united-confirmation.eml');
    expect(united?.bookings).toEqual([
      expect.objectContaining({ bookingCode: 'K7PQ2M', kind: 'booking', flightId: byCode.get('K7PQ2M')?.id }),
    ]);
    const search = await api.get<ImportedEmailsResponse>('/email/messages?q=marriott', auth(token));
    expect(search.body.items.map((m) => m.messageId)).toEqual(['08-hotel-reservation.eml']);
    expect((await api.get('/email/messages?sort=body', auth(token))).status).toBe(400);

    // a second scan reads nothing again
    const again = await api.post<{ scan: { id: number } }>('/email/scan', {}, auth(token));
    expect(again.status).toBe(202);
    const second = await scanDone(token);
    expect(second.scan).toMatchObject({ id: again.body.scan.id, scanned: 11, flightsFound: 0, flightsUpdated: 0 });
    expect(await flightsOf(token)).toHaveLength(5);

    const off = await api.get<EmailConnectDevResponse>('/email/connect-dev', auth(token));
    expect(off.body.emailConnected).toBe(false);
    const after = await api.get<CurrentUserResponse>('/auth/me', auth(token));
    expect(after.body.user).toMatchObject({ emailConnected: false, emailConnectionState: 'not_connected' });
    // the flights found stay
    expect(await flightsOf(token)).toHaveLength(5);
    const refused = await api.post<{ message: string }>('/email/scan', {}, auth(token));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Connect your email first.');
  });

  it('keeps flights past the plan limit as found, not watched, and tells the traveller', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    // notices go only to a confirmed address
    await sql`select private.confirm_email_address(${user.email})`;
    for (const code of ['OVRA01', 'OVRA02', 'OVRA03', 'OVRA04']) {
      const res = await api.post(
        '/flights/manual',
        { airline: 'United Airlines', bookingCode: code, passengerLastName: 'Harper' },
        auth(token),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await api.get('/email/connect-dev', auth(token));
    const connection = await scanDone(token);
    expect(connection.scan?.flightsFound).toBe(5);
    expect(connection.scan?.flightsNotWatched).toBeGreaterThan(0);
    expect(connection.scan?.summary).toContain("not watched: your plan's limit is reached");

    const flights = await flightsOf(token);
    expect(flights).toHaveLength(9);
    expect(flights.filter((f) => f.isWatched)).toHaveLength(5);
    const [notice] = await sql`
      select type, data from public.notification_history
       where user_id = ${user.id} and type = 'import_over_limit'`;
    expect(notice?.data).toMatchObject({ found: connection.scan?.flightsNotWatched, limit: 5 });
  });

  it('shows each traveller only their own connection and the emails read for them', async () => {
    const a = await registerUser(api);
    const b = await registerUser(api);
    await api.get('/email/connect-dev', auth(a.session.access_token));
    const other = await api.get<EmailConnectionResponse>('/email/connection', auth(b.session.access_token));
    expect(other.body.connection).toMatchObject({ state: 'not_connected', provider: null, scan: null });
    const read = await api.get<ImportedEmailsResponse>('/email/messages', auth(b.session.access_token));
    expect(read.body.total).toBe(0);
    await api.get('/email/connect-dev', auth(a.session.access_token));
  });
});

describe('POST /api/email/disconnect', () => {
  it('answers when nothing is connected', async () => {
    const user = await registerUser(api);
    const res = await api.post<{ message: string }>('/email/disconnect', {}, auth(user.session.access_token));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('No email is connected.');
  });
});
