// Address confirmation in the HTTP tests: the confirmation email a new account is sent, its link,
// and confirming an account the way its owner would (the link from the mail catcher).
import { expect } from 'vitest';
import { type ApiClient, type CaughtEmail, emailsTo } from './client.ts';

export const CONFIRMATION_SUBJECT = 'Confirm your email address for FareBack';

/** Confirmation emails caught for this address, waiting for at least `atLeast` of them. */
export async function confirmationEmails(address: string, atLeast = 1): Promise<CaughtEmail[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = await emailsTo(address, { atLeast: 0, timeoutMs: 0 });
    const confirmations = mails.filter((mail) => mail.subject === CONFIRMATION_SUBJECT);
    if (confirmations.length >= atLeast || Date.now() > deadline) return confirmations;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The token of the confirmation link in an email. */
export function confirmationTokenOf(mail: CaughtEmail): string {
  const match = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(`${mail.text ?? ''} ${mail.html ?? ''}`);
  if (!match?.[1]) throw new Error(`no confirmation link in email '${mail.subject}'`);
  return match[1];
}

/** Confirms the account's address with the link from its latest confirmation email. */
export async function confirmAddress(api: ApiClient, user: { email: string }): Promise<void> {
  const mails = await confirmationEmails(user.email);
  const latest = mails.at(-1);
  expect(latest, `a confirmation email to ${user.email}`).toBeTruthy();
  const res = await api.post('/auth/confirm-email', { token: confirmationTokenOf(latest!) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
