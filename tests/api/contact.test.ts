import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiClient, databaseClient, emailsTo } from './client.ts';
import { newIp, registerUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

const SUPPORT = 'support@fareback.app';

/** A message whose subject is unique to the test, so its row and email can be found. */
function newMessage(overrides: Record<string, unknown> = {}) {
  const tag = randomBytes(4).toString('hex');
  return {
    name: 'Ada Lovelace',
    email: `ada.${tag}@example.com`,
    subject: `Refund question ${tag}`,
    message: 'My flight to Lisbon dropped by $80. Can FareBack rebook it?',
    ...overrides,
  };
}

async function storedRows(email: string) {
  return sql<{ name: string; email: string; subject: string; message: string; user_id: string | null }[]>`
    select name, email, subject, message, user_id from public.contact_messages where lower(email) = lower(${email})
  `;
}

/**
 * Support emails whose subject contains `subject`: waits until `atLeast` have arrived (or ten
 * seconds); with atLeast 0, waits half a second for a mail that should not come.
 */
async function supportMailAbout(subject: string, atLeast = 1) {
  const deadline = Date.now() + (atLeast === 0 ? 500 : 10_000);
  for (;;) {
    const all = await emailsTo(SUPPORT, { atLeast: 0, timeoutMs: 0 });
    const mine = all.filter((mail) => mail.subject.includes(subject));
    if ((atLeast > 0 && mine.length >= atLeast) || Date.now() > deadline) return mine;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('POST /api/contact', () => {
  it('stores the message and emails it to the support address, replying to the sender', async () => {
    const message = newMessage();
    const res = await api.post('/contact', message, { ip: newIp() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'Thank you for your message. We will reply within 24-48 business hours.' });

    const rows = await storedRows(message.email);
    expect(rows).toEqual([{ ...message, user_id: null }]);

    const [mail, ...others] = await supportMailAbout(message.subject);
    expect(others).toHaveLength(0);
    expect(mail?.to.map((to) => to.address)).toEqual([SUPPORT]);
    expect(mail?.subject).toBe(`[FareBack contact] ${message.subject}`);
    expect(mail?.text).toContain(message.message);
    expect(mail?.text).toContain(`From: Ada Lovelace <${message.email}>`);
    expect(mail?.text).toContain('Account: not signed in');
    const headers = (mail as unknown as { headers: Record<string, string> }).headers;
    expect(headers['reply-to']).toContain(message.email);
  });

  it('trims the fields and attaches the account of a signed-in sender', async () => {
    const user = await registerUser(api);
    const message = newMessage({ email: user.email });
    const res = await api.post(
      '/contact',
      { ...message, name: '  Ada Lovelace  ', subject: `  ${message.subject as string} ` },
      { ip: newIp(), token: user.session.access_token },
    );
    expect(res.status).toBe(201);
    expect(await storedRows(user.email)).toEqual([{ ...message, user_id: user.id }]);
    const [mail] = await supportMailAbout(message.subject as string);
    expect(mail?.text).toContain(`Account: signed in as ${user.email} (user ${user.id})`);
  });

  it('ignores a token that does not verify and stores the message as a visitor', async () => {
    const message = newMessage();
    const res = await api.post('/contact', message, { ip: newIp(), token: 'not-a-token' });
    expect(res.status).toBe(201);
    expect((await storedRows(message.email)).map((row) => row.user_id)).toEqual([null]);
  });

  it.each([
    ['name', { name: 'A' }, 'Name must be at least 2 characters'],
    ['name (spaces only)', { name: '    ' }, 'Name must be at least 2 characters'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['email (empty)', { email: '' }, 'Please enter a valid email address'],
    ['subject', { subject: 'Hi' }, 'Subject must be at least 5 characters'],
    ['message', { message: 'Too short' }, 'Message must be at least 10 characters'],
    ['name (missing)', { name: undefined }, 'Name is required'],
    ['message (wrong type)', { message: 42 }, 'Message must be text'],
  ])('refuses an invalid %s with 400 and the rule, storing and mailing nothing', async (_label, change, expected) => {
    const message = newMessage(change);
    const res = await api.post<{ message: string; errors: Array<{ field: string; message: string }> }>(
      '/contact',
      message,
      { ip: newIp() },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(expected);
    if (typeof message.email === 'string' && message.email.includes('@')) {
      expect(await storedRows(message.email)).toHaveLength(0);
    }
    expect(await supportMailAbout(message.subject as string, 0)).toHaveLength(0);
  });

  it('names every invalid field at once', async () => {
    const res = await api.post<{ message: string; errors: Array<{ field: string; message: string }> }>(
      '/contact',
      { name: 'A', email: 'x', subject: 'Hi', message: 'short' },
      { ip: newIp() },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'name', message: 'Name must be at least 2 characters' },
      { field: 'email', message: 'Please enter a valid email address' },
      { field: 'subject', message: 'Subject must be at least 5 characters' },
      { field: 'message', message: 'Message must be at least 10 characters' },
    ]);
  });

  it.each([
    ['name', { name: 'N'.repeat(101) }, 'Name must be at most 100 characters'],
    ['subject', { subject: 'S'.repeat(201) }, 'Subject must be at most 200 characters'],
    ['message', { message: 'M'.repeat(5001) }, 'Message must be at most 5000 characters'],
    ['email', { email: `${'e'.repeat(250)}@example.com` }, 'Email must be at most 254 characters'],
  ])('refuses an oversized %s with 400 and the limit', async (_label, change, expected) => {
    const message = newMessage(change);
    const res = await api.post<{ message: string }>('/contact', message, { ip: newIp() });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(expected);
    expect(await supportMailAbout(message.subject as string, 0)).toHaveLength(0);
  });

  it('refuses a body over the size cap and malformed JSON with 400/413, never 500', async () => {
    const huge = await api.post<{ message: string }>('/contact', newMessage({ message: 'x'.repeat(70_000) }), {
      ip: newIp(),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toMatch(/too large/);
    const malformed = await api.request('POST', '/contact', undefined, { raw: '{name', ip: newIp() });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Request body must be valid JSON' });
  });

  it('allows three messages per sender address in ten minutes, then answers 429 with Retry-After', async () => {
    const first = newMessage();
    for (let i = 0; i < 3; i += 1) {
      // a different client address each time: the sender address alone is limited
      const res = await api.post('/contact', { ...first, subject: `${first.subject} #${i}` }, { ip: newIp() });
      expect(res.status).toBe(201);
    }
    const refused = await api.post<{ message: string }>(
      '/contact',
      { ...first, email: first.email.toUpperCase(), subject: `${first.subject} #4` },
      { ip: newIp() },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'You have sent several messages in a short time. Please wait 10 minutes before sending another.',
    );
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(540);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await storedRows(first.email)).toHaveLength(3);
    expect(await supportMailAbout(`${first.subject} #4`, 0)).toHaveLength(0);
  });

  it('allows ten messages per client address in ten minutes, whatever the sender address', async () => {
    const ip = newIp();
    for (let i = 0; i < 10; i += 1) {
      const res = await api.post('/contact', newMessage(), { ip });
      expect(res.status).toBe(201);
    }
    const message = newMessage();
    const refused = await api.post<{ message: string }>('/contact', message, { ip });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await storedRows(message.email)).toHaveLength(0);
    // another client is not affected
    expect((await api.post('/contact', newMessage(), { ip: newIp() })).status).toBe(201);
  });

  it('counts the address the trusted proxy appended: a forged first X-Forwarded-For entry changes nothing', async () => {
    // The attack: a fresh made-up address at the front of X-Forwarded-For on every request. The
    // test stands in for the trusted proxy, which appends the real client address after it.
    const ip = newIp();
    const forwardedFor = () => ({ 'X-Forwarded-For': `${newIp()}, ${ip}` });
    for (let i = 0; i < 10; i += 1) {
      const res = await api.post('/contact', newMessage(), { headers: forwardedFor() });
      expect(res.status, `message ${i + 1}`).toBe(201);
    }
    const message = newMessage();
    const refused = await api.post('/contact', message, { headers: forwardedFor() });
    expect(refused.status).toBe(429);
    expect(await storedRows(message.email)).toHaveLength(0);
  });
});
