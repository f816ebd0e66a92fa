// SMTP through nodemailer: the local mail catcher (maildev, plain SMTP on 54325) or a provider
// on port 465 with implicit TLS. One transport per mailer; nodemailer opens a connection per
// message. Fails with MailerError when the server cannot be reached in time or refuses the
// message; nodemailer does not retry, and neither do we: the caller answers 503 and the
// sender can try again.
// @ts-types="npm:@types/nodemailer@8.0.2"
import nodemailer from 'nodemailer';
import { type Mailer, MailerError, type OutgoingEmail } from './types.ts';

export interface SmtpMailerOptions {
  host: string;
  port: number;
  /** Implicit TLS (port 465). Without it, STARTTLS is used when the server offers it. */
  secure: boolean;
  user: string | null;
  pass: string | null;
  from: string;
  /** Connection, greeting and socket timeouts in milliseconds (default 10000). */
  timeoutMs?: number;
}

/** `<key@sender's domain>`: the key made safe for a Message-ID. */
export function messageIdFor(key: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'fareback.app';
  return `<${key.replace(/[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/g, '-')}@${domain}>`;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const timeout = options.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    ...(options.user ? { auth: { user: options.user, pass: options.pass ?? '' } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(email: OutgoingEmail) {
      try {
        await transport.sendMail({
          from: options.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          ...(email.html === undefined ? {} : { html: email.html }),
          ...(email.replyTo === undefined ? {} : { replyTo: email.replyTo }),
          ...(email.headers === undefined ? {} : { headers: email.headers }),
          ...(email.idempotencyKey === undefined
            ? {}
            : { messageId: messageIdFor(email.idempotencyKey, options.from) }),
        });
      } catch (error) {
        throw new MailerError(
          `SMTP ${options.host}:${options.port} did not take the message: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
    },
  };
}
