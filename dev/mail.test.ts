import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForEmail } from './auth/test-support.ts';
import { envelopeRecipients, startMailCatcher, type MailCatcher } from './mail.ts';
import { freePort } from './stack.ts';

describe('envelopeRecipients', () => {
  it("reads smtp-server's rcptTo, as maildev stores it for a mail it received", () => {
    expect(
      envelopeRecipients({
        to: [
          { address: 'a@example.com', args: false },
          { address: 'b@example.com', args: false },
        ],
      }),
    ).toEqual(['a@example.com', 'b@example.com']);
  });

  it('gives no recipients for what maildev stores for a mail restored from its directory, or anything odd', () => {
    // maildev 2.2.1 restores a mail with envelope.to = '' (issue 21: '...map is not a function')
    expect(envelopeRecipients({ to: '' })).toEqual([]);
    expect(envelopeRecipients({ to: 'someone@example.com' as unknown })).toEqual([]);
    expect(envelopeRecipients({ to: { address: 'x@example.com' } })).toEqual([]);
    expect(envelopeRecipients({})).toEqual([]);
    expect(envelopeRecipients(undefined)).toEqual([]);
    expect(envelopeRecipients({ to: [null, 3, { address: 4 }, { name: 'n' }, 'c@example.com'] })).toEqual([
      'c@example.com',
    ]);
  });
});

describe('the mail catcher over a mail directory', () => {
  let catcher: MailCatcher | null = null;
  let dir = '';

  afterEach(async () => {
    await catcher?.stop();
    catcher = null;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts over stored mail, keeps showing it, and hands on only what arrives while it runs', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'fareback-mail-'));
    // a mail a previous run received and already handed on (to a forwarding address)
    await writeFile(
      path.join(dir, 'Stored01.eml'),
      [
        'From: Airline <bookings@airline.example>',
        'To: trips+stored@inbound.fareback.test',
        'Subject: Stored confirmation',
        'Message-ID: <stored@airline.example>',
        'Date: Sat, 28 Nov 2026 04:00:00 +0000',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Booked.',
        '',
      ].join('\r\n'),
    );
    const handedOn: Array<{ recipients: string[]; raw: string }> = [];
    const smtpPort = await freePort();
    catcher = await startMailCatcher({
      webPort: await freePort(),
      smtpPort,
      mailDirectory: dir,
      onMessage: (raw, recipients) => handedOn.push({ recipients, raw: raw.toString('utf8') }),
    });

    // restored: listed by the JSON API (before the fix, announcing it crashed the process)
    const stored = await waitForEmail(catcher.url, 'trips+stored@inbound.fareback.test', 60_000);
    expect(stored.subject).toBe('Stored confirmation');

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'bookings@airline.example',
      to: 'trips+fresh@inbound.fareback.test',
      subject: 'Fresh confirmation',
      text: 'Booked again.',
    });
    await expect.poll(() => handedOn.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    expect(handedOn).toHaveLength(1);
    expect(handedOn[0]!.recipients).toEqual(['trips+fresh@inbound.fareback.test']);
    expect(handedOn[0]!.raw).toContain('Subject: Fresh confirmation');
  }, 120_000);
});
