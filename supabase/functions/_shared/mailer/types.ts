// The mailer contract (DESIGN "Adapters"): send one email. Implementations: SMTP (the local mail
// catcher, or a provider on port 465) and Resend's HTTP API.

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}

/** Sending failed after the mailer's own retries. */
export class MailerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailerError';
  }
}
