// Contact messages (public.contact_messages) and the submissions the contact form's rate limits
// count (private.contact_submissions, migration 20261122001000_contact.sql). The
// limits themselves are the contact service's (services/contact.ts).
import type { ContactInput } from '../../_shared/schemas/contact.ts';
import type { Tx } from '../db.ts';

export interface ContactLimits {
  perAddress: number;
  perIp: number;
  windowMinutes: number;
}

export interface ContactSender {
  /** Lower-cased sender address. */
  email: string;
  /** Client address, or null when the request carries none (then only the address limit applies). */
  ip: string | null;
}

/**
 * Serialises submissions for one sender address, so two simultaneous requests cannot both see
 * room under the limit. Held until the transaction ends.
 */
export async function lockSender(tx: Tx, { email }: ContactSender): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext(${`contact:${email}`}))`;
}

/** Seconds until this sender may send another message, or 0 when they may send now. */
export async function contactRetryAfterSeconds(
  tx: Tx,
  { email, ip }: ContactSender,
  limits: ContactLimits,
): Promise<number> {
  const window = `${limits.windowMinutes} minutes`;
  const [row] = await tx<{ email_until: Date | null; ip_until: Date | null; now: Date }[]>`
    select
      (select s.submitted_at + ${window}::interval
         from private.contact_submissions s
        where s.email = ${email} and s.submitted_at > now() - ${window}::interval
        order by s.submitted_at desc
        offset ${limits.perAddress - 1} limit 1) as email_until,
      ${
        ip === null
          ? tx`null::timestamptz`
          : tx`(select s.submitted_at + ${window}::interval
                  from private.contact_submissions s
                 where s.ip = ${ip} and s.submitted_at > now() - ${window}::interval
                 order by s.submitted_at desc
                 offset ${limits.perIp - 1} limit 1)`
      } as ip_until,
      now() as now
  `;
  if (!row) return 0;
  const until = Math.max(row.email_until?.getTime() ?? 0, row.ip_until?.getTime() ?? 0);
  return Math.max(0, Math.ceil((until - row.now.getTime()) / 1000));
}

/** Counts this submission against the limits, and forgets submissions older than a day. */
export async function recordContactSubmission(tx: Tx, { email, ip }: ContactSender): Promise<void> {
  await tx`insert into private.contact_submissions (email, ip) values (${email}, ${ip})`;
  await tx`delete from private.contact_submissions where submitted_at < now() - interval '1 day'`;
}

/**
 * Stores the message on the service connection, with the signed-in sender's id (from their
 * verified token) or none for a visitor. Only the api writes contact_messages: users hold no
 * insert grant (migration 20261122001000_contact.sql), since on Supabase that grant would let
 * anyone post rows straight to /rest/v1, past the validation and the limits.
 */
export async function insertContactMessage(tx: Tx, input: ContactInput, userId: string | null): Promise<void> {
  await tx`
    insert into public.contact_messages (user_id, name, email, subject, message)
    values (${userId}, ${input.name}, ${input.email}, ${input.subject}, ${input.message})
  `;
}
