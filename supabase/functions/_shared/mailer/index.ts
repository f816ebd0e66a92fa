// Picks the mailer the configuration names: SMTP (the local mail catcher by default, or a
// provider on port 465 with SMTP_SECURE=true) or Resend's HTTP API.
import { createResendMailer } from './resend.ts';
import { createSmtpMailer } from './smtp.ts';
import type { Mailer } from './types.ts';

export type { Mailer, OutgoingEmail } from './types.ts';
export { MailerError } from './types.ts';

export interface MailerOptions {
  kind: 'smtp' | 'resend';
  from: string;
  smtpHost: string;
  smtpPort: number;
  smtpUser: string | null;
  smtpPass: string | null;
  smtpSecure: boolean;
  resendApiKey: string | null;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.kind === 'resend') {
    if (!options.resendApiKey) throw new Error('RESEND_API_KEY is required when MAILER is resend');
    return createResendMailer({ apiKey: options.resendApiKey, from: options.from });
  }
  return createSmtpMailer({
    host: options.smtpHost,
    port: options.smtpPort,
    secure: options.smtpSecure,
    user: options.smtpUser,
    pass: options.smtpPass,
    from: options.from,
  });
}
