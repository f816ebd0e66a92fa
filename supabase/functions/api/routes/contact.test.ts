// The contact route's decisions with a scripted database and a recording mailer; the HTTP tests
// in tests/api/contact.test.ts cover the same route against the real stack and maildev.
import assert from 'node:assert/strict';
import { MailerError, type OutgoingEmail } from '../../_shared/mailer/index.ts';
import { ScriptedDb, testApp } from '../testing.ts';

const message = {
  name: 'Ada Lovelace',
  email: 'Ada@Example.com',
  subject: 'Refund\r\nBcc: someone@evil.test',
  message: 'My flight dropped by $80, can you rebook it?',
};

function recordingMailer(fail = false) {
  const sent: OutgoingEmail[] = [];
  return {
    sent,
    send(email: OutgoingEmail) {
      sent.push(email);
      return fail ? Promise.reject(new MailerError('SMTP 127.0.0.1:1 did not take the message')) : Promise.resolve();
    },
  };
}

/** Answers for: lock, limit check, record + prune, role switch + insert. */
function dbAllowing(until: { email?: Date; ip?: Date } = {}) {
  const now = new Date();
  return new ScriptedDb([[], [{ email_until: until.email ?? null, ip_until: until.ip ?? null, now }], [], [], [], []]);
}

Deno.test('contact: mails the support address with the sender as reply-to, subject on one line', async () => {
  const mailer = recordingMailer();
  const db = dbAllowing();
  const { request } = testApp({ db, mailer });
  const res = await request('/api/contact', {
    method: 'POST',
    json: message,
    headers: { 'X-Forwarded-For': '203.0.113.9' },
  });
  assert.equal(res.status, 201);
  assert.equal(mailer.sent.length, 1);
  assert.equal(mailer.sent[0]?.to, 'support@fareback.app');
  assert.equal(mailer.sent[0]?.replyTo, 'Ada@Example.com');
  assert.equal(mailer.sent[0]?.subject, '[FareBack contact] Refund Bcc: someone@evil.test');
  assert.equal(db.serviceTransactions, 1);
  // stored on the service connection, never as the sender's role (who holds no insert grant)
  assert.ok(!db.queries.some((q) => q.includes('set_config')));
  assert.ok(db.queries.some((q) => q.startsWith('insert into public.contact_messages (user_id, name, email')));
});

Deno.test('contact: a mail failure fails the transaction (nothing stored) and answers 503', async () => {
  const mailer = recordingMailer(true);
  const { request, logs } = testApp({ db: dbAllowing(), mailer });
  const res = await request('/api/contact', { method: 'POST', json: message });
  assert.equal(res.status, 503);
  assert.deepEqual(await res.json(), {
    message:
      "We couldn't send your message right now. Please try again in a few minutes, or email us at support@fareback.app.",
  });
  // the error left asService's callback, so the real database rolls the transaction back
  assert.ok(logs.some((entry) => entry.msg === 'contact message not mailed; nothing stored'));
});

Deno.test('contact: over the limit answers 429 with Retry-After and neither stores nor mails', async () => {
  const mailer = recordingMailer();
  const db = dbAllowing({ email: new Date(Date.now() + 90_000) });
  const { request } = testApp({ db, mailer });
  const res = await request('/api/contact', { method: 'POST', json: message });
  assert.equal(res.status, 429);
  const retryAfter = Number(res.headers.get('Retry-After'));
  assert.ok(retryAfter >= 89 && retryAfter <= 90, `Retry-After ${retryAfter}`);
  assert.deepEqual(await res.json(), {
    message: 'You have sent several messages in a short time. Please wait 2 minutes before sending another.',
  });
  assert.equal(mailer.sent.length, 0);
  assert.ok(!db.queries.some((q) => q.includes('insert into')));
});

Deno.test('contact: invalid input is refused before the database is touched', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db, mailer: recordingMailer() });
  const res = await request('/api/contact', { method: 'POST', json: { ...message, subject: 'Hi' } });
  assert.equal(res.status, 400);
  assert.equal(((await res.json()) as { message: string }).message, 'Subject must be at least 5 characters');
  assert.equal(db.touched, false);
});
