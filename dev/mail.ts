// The local mail catcher: maildev 2.2.1 (3.x from this registry serves nothing). Every email the
// stack sends (password resets, alerts, contact messages) lands here; its web inbox is at the web
// port and its JSON API at /email.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface MailDevInstance {
  listen(cb: (err?: Error) => void): void;
  close(cb: (err?: Error) => void): void;
  on(event: 'new', handler: (mail: { id: string; envelope?: { to?: { address: string }[] } }) => void): void;
  getRawEmail(id: string, done: (err: Error | null, stream?: NodeJS.ReadableStream) => void): void;
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
  /** Called with every message received (the stack hands the inbound domain's to the api). */
  onMessage?: CaughtMessage;
}): Promise<MailCatcher> {
  const MailDev = require('maildev') as MailDevConstructor;
  const host = options.host ?? '127.0.0.1';
  const maildev = new MailDev({
    smtp: options.smtpPort,
    web: options.webPort,
    ip: host,
    silent: true,
    ...(options.mailDirectory ? { mailDirectory: options.mailDirectory } : {}),
  });
  await new Promise<void>((resolve, reject) => maildev.listen((err) => (err ? reject(err) : resolve())));
  const onMessage = options.onMessage;
  if (onMessage) {
    maildev.on('new', (mail) => {
      const recipients = (mail.envelope?.to ?? []).map((to) => to.address);
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
