// Picks the mailer the configuration names. (Implementations land with issue 4.)
import type { Mailer } from './types.ts';

export type { Mailer, OutgoingEmail } from './types.ts';

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

export function createMailer(_options: MailerOptions): Mailer {
  return {
    send() {
      return Promise.reject(new Error('The mailer is not built yet'));
    },
  };
}
