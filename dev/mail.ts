// The local mail catcher: maildev 2.2.1 (3.x from this registry serves nothing). Every email the
// stack sends (password resets, alerts, contact messages) lands here; its web inbox is at the web
// port and its JSON API at /email.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

interface MailDevInstance {
  listen(cb: (err?: Error) => void): void;
  close(cb: (err?: Error) => void): void;
  on(event: 'new', handler: (mail: { id: string; envelope?: { to?: unknown } }) => void): void;
  getRawEmail(id: string, done: (err: Error | null, stream?: NodeJS.ReadableStream) => void): void;
}

/**
 * The envelope recipients of a mail maildev announces, or none when it has no SMTP envelope.
 * Received over SMTP, maildev 2.2.1 stores smtp-server's `rcptTo` as `envelope.to`: an array of
 * `{ address, args }` (node_modules/maildev/lib/mailserver.js, handleDataStream). A mail it restores
 * from its mail directory at start has `envelope.to` set to `''` (loadMailsFromDirectory: the
 * envelope is never written to disk, and the 'to' event it listens for is never emitted by its
 * parser), and `envelope.to.map` crashed the stack's second start (issue 21). Anything that is not
 * an array of addresses therefore means no recipients.
 */
export function envelopeRecipients(envelope: { to?: unknown } | undefined): string[] {
  const to = envelope?.to;
  if (!Array.isArray(to)) return [];
  return to.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return [entry];
    const address = (entry as { address?: unknown } | null)?.address;
    return typeof address === 'string' ? [address] : [];
  });
}

/** The ids of the mails stored in a maildev mail directory (`<id>.eml`). */
function storedMailIds(mailDirectory: string | undefined): Set<string> {
  if (!mailDirectory || !existsSync(mailDirectory)) return new Set();
  return new Set(
    readdirSync(mailDirectory)
      .filter((file) => path.extname(file) === '.eml')
      .map((file) => path.basename(file, '.eml')),
  );
}

/** A message the catcher received: its raw bytes and the envelope's recipients. */
export type CaughtMessage = (raw: Buffer, recipients: string[]) => void;
type MailDevConstructor = new (options: Record<string, unknown>) => MailDevInstance;

export interface MailCatcher {
  url: string;
  smtpPort: number;
  stop(): Promise<void>;
}

export async function startMailCatcher(options: {
  webPort: number;
  smtpPort: number;
  host?: string;
  mailDirectory?: string;
  /** Called with every message received over SMTP while it runs (the stack hands the inbound
   * domain's to the api); never for the mails it restores from `mailDirectory` at start, which were
   * handed on when they arrived. */
  onMessage?: CaughtMessage;
}): Promise<MailCatcher> {
  // read before maildev starts: it announces every restored mail as 'new', like a received one
  const restored = storedMailIds(options.mailDirectory);
  const MailDev = require('maildev') as MailDevConstructor;
  const host = options.host ?? '127.0.0.1';
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const ownHandlers = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const maildev = new MailDev({
    smtp: options.smtpPort,
    web: options.webPort,
    ip: host,
    silent: true,
    ...(options.mailDirectory ? { mailDirectory: options.mailDirectory } : {}),
  });
  // maildev's constructor adds SIGINT and SIGTERM handlers that close it and call process.exit(0)
  // (node_modules/maildev/index.js, shutdown): on Ctrl-C they ended `npm start` in the middle of
  // the stack's own stop, before the api was stopped and PGlite closed. Whoever started the
  // catcher decides when the process ends, so they go.
  for (const signal of signals) {
    for (const handler of process.listeners(signal)) {
      if (!ownHandlers.get(signal)?.has(handler)) process.removeListener(signal, handler);
    }
  }
  await new Promise<void>((resolve, reject) => maildev.listen((err) => (err ? reject(err) : resolve())));
  const onMessage = options.onMessage;
  if (onMessage) {
    maildev.on('new', (mail) => {
      if (restored.has(mail.id)) return;
      const recipients = envelopeRecipients(mail.envelope);
      if (recipients.length === 0) return;
      maildev.getRawEmail(mail.id, (err, stream) => {
        if (err || !stream) return;
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => onMessage(Buffer.concat(chunks), recipients));
      });
    });
  }
  return {
    url: `http://${host}:${options.webPort}`,
    smtpPort: options.smtpPort,
    stop: () => new Promise<void>((resolve) => maildev.close(() => resolve())),
  };
}
