// The contact service's rules with a scripted database and a recording mailer; the HTTP tests in
// tests/api/contact.test.ts cover the same rules against the real stack and maildev.
import assert from 'node:assert/strict';
import type { LogEntry } from '../context.ts';
import { contactDb, contactMessage, recordingMailer, type ScriptedDb, testConfig, userClaims } from '../testing.ts';
import { CONTACT_MESSAGES, sendContactMessage } from './contact.ts';

const message = contactMessage({ email: 'Ada@Example.com', subject: 'Refund\r\nBcc: someone@evil.test' });
const traveller = userClaims();

function deps(db: ScriptedDb, mailer = recordingMailer()) {
  const logs: LogEntry[] = [];
  return { db, mailer, logs, config: testConfig, log: (entry: LogEntry) => logs.push(entry) };
}

Deno.test('contact service: stores, then mails support with the sender as reply-to, subject on one line', async () => {
  const db = contactDb();
  const queriesWhenMailed: number[] = [];
  const mailer = recordingMailer();
  const send = mailer.send.bind(mailer);
  mailer.send = (email) => {
    queriesWhenMailed.push(db.queries.length);
    return send(email);
  };
  const answer = await sendContactMessage(deps(db, mailer), message, { claims: null, ip: '203.0.113.9' });

  assert.deepEqual(answer, { message: 'Thank you for your message. We will reply within 24-48 business hours.' });
  assert.equal(mailer.sent.length, 1);
  const mail = mailer.sent[0];
  assert.equal(mail?.to, 'support@fareback.app');
  assert.equal(mail?.replyTo, 'Ada@Example.com');
  assert.equal(mail?.subject, '[FareBack contact] Refund Bcc: someone@evil.test');
  assert.match(mail?.text ?? '', /^Account: not signed in$/m);
  // one transaction on the service connection, never as the sender's role (who holds no insert grant)
  assert.equal(db.serviceTransactions, 1);
  assert.equal(db.userTransactions.length, 0);
  assert.ok(!db.queries.some((q) => q.includes('set_config')));
  // the row is written before the mail goes, so the database refuses a bad row before anyone is mailed
  const insertAt = db.queries.findIndex((q) =>
    q.startsWith('insert into public.contact_messages (user_id, name, email'),
  );
  assert.ok(insertAt >= 0);
  assert.deepEqual(queriesWhenMailed, [insertAt + 1]);
});

Deno.test('contact service: a signed-in sender is named in the mail', async () => {
  const mailer = recordingMailer();
  await sendContactMessage(deps(contactDb(), mailer), message, { claims: traveller, ip: null });
  assert.match(
    mailer.sent[0]?.text ?? '',
    /^Account: signed in as ada@example\.com \(user 00000000-0000-4000-8000-000000000007\)$/m,
  );
});

Deno.test(
  'contact service: a mail failure leaves the transaction (nothing stored) as 503 with the support address',
  async () => {
    const d = deps(contactDb(), recordingMailer(true));
    const error = await sendContactMessage(d, message, { claims: null, ip: null, requestId: 'req-1' }).catch(
      (e: unknown) => e,
    );
    assert.ok(error instanceof Error && 'status' in error);
    assert.equal(error.status, 503);
    assert.equal(
      error.message,
      "We couldn't send your message right now. Please try again in a few minutes, or email us at support@fareback.app.",
    );
    // thrown out of asService's callback, so the real database rolls the transaction back
    assert.deepEqual(
      d.logs.map((entry) => [entry.msg, entry.requestId]),
      [['contact message not mailed; nothing stored', 'req-1']],
    );
  },
);

Deno.test('contact service: over a limit answers 429 with Retry-After, neither storing nor mailing', async () => {
  const mailer = recordingMailer();
  const db = contactDb({ email: new Date(Date.now() + 90_000) });
  const error = await sendContactMessage(deps(db, mailer), message, { claims: null, ip: '203.0.113.9' }).catch(
    (e: unknown) => e,
  );
  assert.ok(error instanceof Error && 'status' in error && 'headers' in error);
  assert.equal(error.status, 429);
  const retryAfter = Number((error.headers as Record<string, string>)['Retry-After']);
  assert.ok(retryAfter >= 89 && retryAfter <= 90, `Retry-After ${retryAfter}`);
  assert.equal(error.message, CONTACT_MESSAGES.tooMany(2));
  assert.equal(mailer.sent.length, 0);
  assert.ok(!db.queries.some((q) => q.includes('insert into')));
});

Deno.test(
  'contact service: the sender address is counted in lower case (3 in 10 minutes), the client address too',
  async () => {
    const db = contactDb();
    await sendContactMessage(deps(db), message, { claims: null, ip: '203.0.113.9' });
    // the lock and the count are per lower-cased address, so ADA@ and ada@ are one sender
    assert.deepEqual(db.parameters[0], ['contact:ada@example.com']);
    const [window, email, , perAddress, ip] = db.parameters[1] ?? [];
    assert.deepEqual([window, email, perAddress], ['10 minutes', 'ada@example.com', 2]);
    assert.ok(ip && typeof ip === 'object', 'the client address is counted too');
    assert.deepEqual(db.parameters[2], ['ada@example.com', '203.0.113.9']);
    assert.equal(
      CONTACT_MESSAGES.tooMany(1),
      'You have sent several messages in a short time. Please wait 1 minute before sending another.',
    );
  },
);
