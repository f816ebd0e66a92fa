// Resend's HTTP API (POST https://api.resend.com/emails). Rate limits (429), server errors and
// network failures or timeouts are retried twice with a short backoff (honouring Retry-After up
// to a few seconds); any other refusal (bad key, unverified sender domain, invalid address) is
// final. Fails with MailerError naming Resend's status and message.
import { type Mailer, MailerError, type OutgoingEmail } from './types.ts';

export interface ResendMailerOptions {
  apiKey: string;
  from: string;
  /** Base URL of the API (default https://api.resend.com); tests point it at a local stub. */
  apiUrl?: string;
  /** Per attempt, in milliseconds (default 10000). */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx and network failures (default 2). */
  maxRetries?: number;
  /** Backoff before retry n (1-based) when no Retry-After is given; default 300 ms * 2^(n-1). */
  backoffMs?: (retry: number) => number;
  fetch?: typeof fetch;
}

const MAX_RETRY_AFTER_MS = 5000;

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return null;
}

async function refusalMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: use the text
  }
  return text.slice(0, 200) || response.statusText;
}

export function createResendMailer(options: ResendMailerOptions): Mailer {
  const apiUrl = (options.apiUrl ?? 'https://api.resend.com').replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = options.maxRetries ?? 2;
  const backoff = options.backoffMs ?? ((retry: number) => 300 * 2 ** (retry - 1));
  const doFetch = options.fetch ?? fetch;

  return {
    async send(email: OutgoingEmail) {
      const body = JSON.stringify({
        from: options.from,
        to: [email.to],
        subject: email.subject,
        text: email.text,
        ...(email.html === undefined ? {} : { html: email.html }),
        ...(email.replyTo === undefined ? {} : { reply_to: email.replyTo }),
        ...(email.headers === undefined ? {} : { headers: email.headers }),
      });
      const headers: Record<string, string> = {
        Authorization: `Bearer ${options.apiKey}`,
        'Content-Type': 'application/json',
        ...(email.idempotencyKey === undefined ? {} : { 'Idempotency-Key': email.idempotencyKey.slice(0, 256) }),
      };
      let lastFailure = '';
      for (let attempt = 0; attempt <= maxRetries; attempt += 1) {
        let wait: number | null = null;
        try {
          const response = await doFetch(`${apiUrl}/emails`, {
            method: 'POST',
            headers,
            body,
            signal: AbortSignal.timeout(timeoutMs),
          });
          if (response.ok) {
            await response.body?.cancel();
            return;
          }
          lastFailure = `Resend answered ${response.status}: ${await refusalMessage(response)}`;
          if (response.status !== 429 && response.status < 500) throw new MailerError(lastFailure);
          wait = retryAfterMs(response.headers.get('Retry-After'));
        } catch (error) {
          if (error instanceof MailerError) throw error;
          lastFailure = `Resend could not be reached: ${error instanceof Error ? error.message : String(error)}`;
        }
        if (attempt < maxRetries) {
          await new Promise((resolve) => setTimeout(resolve, wait ?? backoff(attempt + 1)));
        }
      }
      throw new MailerError(`${lastFailure} (after ${maxRetries + 1} attempts)`);
    },
  };
}
