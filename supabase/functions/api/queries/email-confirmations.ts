// Address confirmation (migration 20261122000300_profiles_and_plans.sql): the links confirmation
// emails carry, kept as SHA-256 hashes in private.email_confirmations, which also count the
// emails sent per account for the re-send limit; and profiles.email_confirmed_at, which they set.
// Service connection only: every function names the account it acts for.
import { CONFIRMATION_EMAILS_PER_HOUR, CONFIRMATION_LINK_VALID_HOURS } from '../../_shared/constants.ts';
import type { Tx } from '../db.ts';

/**
 * Records a confirmation email about to be sent, unless the account has had
 * CONFIRMATION_EMAILS_PER_HOUR in the last hour; answers whether it may be sent.
 */
export async function recordConfirmationEmail(
  tx: Tx,
  { userId, email, tokenHash }: { userId: string; email: string; tokenHash: string },
): Promise<boolean> {
  // two requests for one account must not both see room under the limit
  await tx`select pg_advisory_xact_lock(hashtext(${`email-confirmation:${userId}`}))`;
  const [row] = await tx<{ sent: number }[]>`
    select count(*)::int as sent from private.email_confirmations
     where user_id = ${userId} and created_at > now() - interval '1 hour'
  `;
  if ((row?.sent ?? 0) >= CONFIRMATION_EMAILS_PER_HOUR) return false;
  await tx`
    insert into private.email_confirmations (user_id, email, token_hash, expires_at)
    values (${userId}, ${email}, ${tokenHash}, now() + make_interval(hours => ${CONFIRMATION_LINK_VALID_HOURS}))
  `;
  // an expired row no longer counts for anything (the re-send window is shorter than a link's life)
  await tx`delete from private.email_confirmations where expires_at < now()`;
  return true;
}

/**
 * Spends the link and confirms its account's address, if the link is unused, unexpired, and the
 * account still has the address it was sent to. Answers whether the address is now confirmed
 * (also when the link was already used to confirm this very address: a second click).
 */
export async function confirmEmailWithToken(tx: Tx, tokenHash: string): Promise<boolean> {
  const [row] = await tx<{ confirmed: boolean }[]>`
    with spent as (
      update private.email_confirmations c
         set used_at = now()
       where c.token_hash = ${tokenHash} and c.used_at is null and c.expires_at > now()
      returning c.user_id, c.email
    ),
    confirmed as (
      update public.profiles p
         set email_confirmed_at = coalesce(p.email_confirmed_at, now())
        from spent s
       where p.id = s.user_id and lower(p.email) = lower(s.email)
      returning p.id
    )
    select exists (select 1 from confirmed)
        or exists (
             select 1 from private.email_confirmations c
               join public.profiles p on p.id = c.user_id
              where c.token_hash = ${tokenHash} and c.used_at is not null
                and p.email_confirmed_at is not null and lower(p.email) = lower(c.email)
           ) as confirmed
  `;
  return row?.confirmed ?? false;
}

/** Confirms the account's address, if it still is `email` (a password reset through its link). */
export async function markEmailConfirmed(tx: Tx, { userId, email }: { userId: string; email: string }): Promise<void> {
  await tx`
    update public.profiles
       set email_confirmed_at = now()
     where id = ${userId} and lower(email) = lower(${email}) and email_confirmed_at is null
  `;
}
