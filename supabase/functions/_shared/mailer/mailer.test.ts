import assert from 'node:assert/strict';
import { createMailer, MailerError } from './index.ts';
import { createResendMailer } from './resend.ts';
import { createSmtpMailer } from './smtp.ts';

// ---- a minimal SMTP server: enough of RFC 5321 for nodemailer to hand over one message ----

interface SmtpServer {
  port: number;
  messages: Array<{ from: string; to: string[]; data: string }>;
  close(): void;
}

function startSmtpServer({ refuseRecipients = false } = {}): SmtpServer {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const messages: SmtpServer['messages'] = [];
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const connections: Deno.Conn[] = [];

  async function serve(conn: Deno.Conn) {
    connections.push(conn);
    const write = (line: string) => conn.write(encoder.encode(`${line}\r\n`));
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    await write('220 test ESMTP');
    const chunk = new Uint8Array(65536);
    for (;;) {
      const n = await conn.read(chunk).catch(() => null);
      if (n === null) break;
      buffer += decoder.decode(chunk.subarray(0, n));
      let newline: number;
      while ((newline = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(current);
            current = { from: '', to: [], data: '' };
            await write('250 queued');
          } else {
            current.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') await write('250 test');
        else if (verb === 'MAIL') {
          current.from = line;
          await write('250 ok');
        } else if (verb === 'RCPT') {
          if (refuseRecipients) await write('550 no such user');
          else {
            current.to.push(line);
            await write('250 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          await write('354 go ahead');
        } else if (verb === 'QUIT') {
          await write('221 bye');
          conn.close();
          return;
        } else if (verb === 'RSET' || verb === 'NOOP') await write('250 ok');
        else await write('502 not implemented');
      }
    }
    try {
      conn.close();
    } catch {
      // already closed
    }
  }

  (async () => {
    for await (const conn of listener) void serve(conn);
  })().catch(() => {});

  return {
    port: (listener.addr as Deno.NetAddr).port,
    messages,
    close() {
      listener.close();
      for (const conn of connections) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
    },
  };
}

const email = {
  to: 'support@fareback.app',
  subject: 'Contact: Refund question',
  text: 'Hello there, a question about my fare.',
  replyTo: 'Ada Lovelace <ada@example.com>',
};

const smtpMailerOn = (server: SmtpServer) =>
  createSmtpMailer({
    host: '127.0.0.1',
    port: server.port,
    secure: false,
    user: null,
    pass: null,
    from: 'FareBack <no-reply@fareback.app>',
  });

Deno.test('smtp: hands the message over with from, to, subject, body and reply-to', async () => {
  const server = startSmtpServer();
  try {
    const mailer = smtpMailerOn(server);
    await mailer.send({ ...email, html: '<p>Hello there</p>' });
    assert.equal(server.messages.length, 1);
    const [message] = server.messages;
    assert.match(message!.from, /<no-reply@fareback\.app>/);
    assert.deepEqual(message!.to, ['RCPT TO:<support@fareback.app>']);
    assert.match(message!.data, /^Subject: Contact: Refund question$/m);
    assert.match(message!.data, /^Reply-To: Ada Lovelace <ada@example\.com>$/m);
    assert.match(message!.data, /^To: support@fareback\.app$/m);
    assert.match(message!.data, /Hello there, a question about my fare\./);
    assert.match(message!.data, /<p>Hello there<\/p>/);
  } finally {
    server.close();
  }
});

Deno.test('smtp: extra headers, and the idempotency key as the Message-ID on every attempt', async () => {
  const server = startSmtpServer();
  try {
    const mailer = smtpMailerOn(server);
    const unsubscribe = {
      'List-Unsubscribe': '<https://api.test/unsubscribe?token=abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    };
    for (let i = 0; i < 2; i++) {
      await mailer.send({ ...email, headers: unsubscribe, idempotencyKey: 'notification-42' });
    }
    assert.equal(server.messages.length, 2);
    for (const message of server.messages) {
      assert.match(message.data, /^List-Unsubscribe: <https:\/\/api\.test\/unsubscribe\?token=abc>$/m);
      assert.match(message.data, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      assert.match(message.data, /^Message-ID: <notification-42@fareback\.app>$/im);
    }
  } finally {
    server.close();
  }
});

Deno.test('smtp: a refused recipient is a MailerError naming the server', async () => {
  const server = startSmtpServer({ refuseRecipients: true });
  try {
    const mailer = createSmtpMailer({
      host: '127.0.0.1',
      port: server.port,
      secure: false,
      user: null,
      pass: null,
      from: 'no-reply@fareback.app',
    });
    await assert.rejects(mailer.send(email), (error: unknown) => {
      assert.ok(error instanceof MailerError);
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
      return true;
    });
  } finally {
    server.close();
  }
});

Deno.test('smtp: an unreachable server is a MailerError, not a hang', async () => {
  // a port that was just free: nothing listens there
  const probe = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const mailer = createSmtpMailer({
    host: '127.0.0.1',
    port,
    secure: false,
    user: null,
    pass: null,
    from: 'no-reply@fareback.app',
    timeoutMs: 2000,
  });
  await assert.rejects(mailer.send(email), MailerError);
});

// ---- Resend ----

interface Call {
  url: string;
  init: RequestInit;
}

function stubFetch(responses: Array<Response | Error>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const queue = [...responses];
  const fake = (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const next = queue.shift();
    if (!next) return Promise.reject(new Error('no more stubbed responses'));
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  };
  return { fetch: fake as typeof fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

Deno.test('resend: posts the email with the key, snake_case reply_to and the sender', async () => {
  const { fetch, calls } = stubFetch([json(200, { id: 'em_1' })]);
  const mailer = createResendMailer({ apiKey: 're_test', from: 'FareBack <no-reply@fareback.app>', fetch });
  await mailer.send({ ...email, html: '<p>Hi</p>' });
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.url, 'https://api.resend.com/emails');
  assert.equal(calls[0]!.init.method, 'POST');
  const headers = new Headers(calls[0]!.init.headers);
  assert.equal(headers.get('Authorization'), 'Bearer re_test');
  assert.deepEqual(JSON.parse(String(calls[0]!.init.body)), {
    from: 'FareBack <no-reply@fareback.app>',
    to: ['support@fareback.app'],
    subject: email.subject,
    text: email.text,
    html: '<p>Hi</p>',
    reply_to: email.replyTo,
  });
});

Deno.test('resend: extra headers in the body, the idempotency key as Idempotency-Key', async () => {
  const { fetch, calls } = stubFetch([json(200, { id: 'em_1' })]);
  const mailer = createResendMailer({ apiKey: 're_test', from: 'no-reply@fareback.app', fetch });
  await mailer.send({
    ...email,
    headers: { 'List-Unsubscribe': '<https://x.test/u>' },
    idempotencyKey: 'notification-7',
  });
  assert.equal(new Headers(calls[0]!.init.headers).get('Idempotency-Key'), 'notification-7');
  assert.deepEqual(JSON.parse(String(calls[0]!.init.body)).headers, { 'List-Unsubscribe': '<https://x.test/u>' });
});

Deno.test('resend: retries 429, 5xx and network failures, then succeeds', async () => {
  const { fetch, calls } = stubFetch([
    json(429, { message: 'Too many requests' }, { 'Retry-After': '0' }),
    new TypeError('connection reset'),
    json(200, { id: 'em_2' }),
  ]);
  const mailer = createResendMailer({ apiKey: 'k', from: 'a@b.co', fetch, backoffMs: () => 0 });
  await mailer.send(email);
  assert.equal(calls.length, 3);
});

Deno.test('resend: a refusal (422) is final and its message is kept', async () => {
  const { fetch, calls } = stubFetch([json(422, { message: 'The from domain is not verified' })]);
  const mailer = createResendMailer({ apiKey: 'k', from: 'a@b.co', fetch, backoffMs: () => 0 });
  await assert.rejects(mailer.send(email), (error: unknown) => {
    assert.ok(error instanceof MailerError);
    assert.equal(error.message, 'Resend answered 422: The from domain is not verified');
    return true;
  });
  assert.equal(calls.length, 1);
});

Deno.test('resend: gives up after the retries with the last failure', async () => {
  const { fetch, calls } = stubFetch([
    json(503, {}),
    json(502, { message: 'Bad gateway' }),
    new Response('oops', { status: 500 }),
  ]);
  const mailer = createResendMailer({ apiKey: 'k', from: 'a@b.co', fetch, backoffMs: () => 0 });
  await assert.rejects(mailer.send(email), /Resend answered 500: oops \(after 3 attempts\)/);
  assert.equal(calls.length, 3);
});

Deno.test('createMailer: resend needs a key; smtp is the default transport', () => {
  const base = {
    from: 'a@b.co',
    smtpHost: '127.0.0.1',
    smtpPort: 25,
    smtpUser: null,
    smtpPass: null,
    smtpSecure: false,
    resendApiKey: null,
  };
  assert.throws(() => createMailer({ ...base, kind: 'resend' }), /RESEND_API_KEY/);
  assert.equal(typeof createMailer({ ...base, kind: 'smtp' }).send, 'function');
  assert.equal(typeof createMailer({ ...base, kind: 'resend', resendApiKey: 'k' }).send, 'function');
});
