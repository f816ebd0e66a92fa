// The contact route: it validates, reads the optional session and the client address, and hands
// them to the contact service (whose rules services/contact.test.ts covers); the HTTP tests in
// tests/api/contact.test.ts cover both against the real stack and maildev.
import assert from 'node:assert/strict';
import { HttpError } from '../errors.ts';
import { contactDb, contactMessage, recordingMailer, ScriptedDb, testApp, userClaims } from '../testing.ts';

const message = contactMessage();
const traveller = userClaims();

Deno.test('contact route: 201 with the service answer; the client address the proxy appended is counted', async () => {
  const db = contactDb();
  const mailer = recordingMailer();
  const { request } = testApp({ db, mailer });
  const res = await request('/api/contact', {
    method: 'POST',
    json: message,
    // one trusted proxy hop (the default): the last entry is the client, the first one is forged
    headers: { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' },
  });
  assert.equal(res.status, 201);
  assert.deepEqual(await res.json(), {
    message: 'Thank you for your message. We will reply within 24-48 business hours.',
  });
  assert.equal(mailer.sent.length, 1);
  assert.deepEqual(db.parameters[2], ['ada@example.com', '203.0.113.9']);
  // a visitor: no account on the row
  assert.equal(db.parameters[4]?.[0], null);
});

Deno.test('contact route: a verified token attaches the account; one that does not verify is ignored', async () => {
  const verifyAccessToken = (token: string) =>
    token === 'good' ? Promise.resolve(traveller) : Promise.reject(new HttpError(401, 'Not authenticated'));
  const sendWith = async (token: string) => {
    const db = contactDb();
    const { request, logs } = testApp({ db, verifyAccessToken });
    const res = await request('/api/contact', {
      method: 'POST',
      json: message,
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 201);
    const loggedUser = logs.find((entry) => entry.msg === 'request')?.userId;
    return { storedUser: db.parameters[4]?.[0], loggedUser };
  };
  assert.deepEqual(await sendWith('good'), { storedUser: traveller.sub, loggedUser: traveller.sub });
  assert.deepEqual(await sendWith('expired'), { storedUser: null, loggedUser: null });
});

Deno.test("contact route: the service's 429 reaches the client with Retry-After", async () => {
  const { request } = testApp({ db: contactDb({ email: new Date(Date.now() + 90_000) }) });
  const res = await request('/api/contact', { method: 'POST', json: message });
  assert.equal(res.status, 429);
  assert.match(res.headers.get('Retry-After') ?? '', /^(89|90)$/);
  assert.deepEqual(await res.json(), {
    message: 'You have sent several messages in a short time. Please wait 2 minutes before sending another.',
  });
});

Deno.test('contact route: invalid input is refused with per-field errors before the database is touched', async () => {
  const db = new ScriptedDb();
  const mailer = recordingMailer();
  const { request } = testApp({ db, mailer });
  const res = await request('/api/contact', { method: 'POST', json: { ...message, subject: 'Hi' } });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), {
    message: 'Subject must be at least 5 characters',
    errors: [{ field: 'subject', message: 'Subject must be at least 5 characters' }],
  });
  assert.equal(db.touched, false);
  assert.equal(mailer.sent.length, 0);
});
