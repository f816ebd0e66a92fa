// The mailer contract (DESIGN "Adapters"): send one email. Implementations: SMTP (the local mail
// catcher, or a provider on port 465) and Resend's HTTP API.

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /**
   * The same key for every attempt at the same message: SMTP sends it as the Message-ID (so a
   * repeat after a crash between send and commit is the same message to the receiving side),
   * Resend as its Idempotency-Key (Resend sends a repeated key once, within 24 hours).
   */
  idempotencyKey?: string;
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
