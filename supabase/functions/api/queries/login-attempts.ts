// private.login_attempts: every password sign-in attempt, so repeated failures can be slowed.
// An account is locked after LOGIN_MAX_FAILURES_PER_ACCOUNT failures since its last success
// within the window; an address after LOGIN_MAX_FAILURES_PER_IP failures within the window.
// The lock lifts when enough of those failures have aged out of the window.
import {
  LOGIN_FAILURE_WINDOW_MINUTES,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_IP,
} from '../../_shared/constants.ts';
import type { Tx } from '../db.ts';

export interface LoginAttemptKey {
  /** Client address, or null when the request carries none. */
  ip: string | null;
  /** Lower-cased email of the account, or the lower-cased identifier when no account matches. */
  account: string;
}

/** Seconds until another attempt is allowed, or 0 when the caller may try now. */
export async function loginRetryAfterSeconds(tx: Tx, { ip, account }: LoginAttemptKey): Promise<number> {
  const window = `${LOGIN_FAILURE_WINDOW_MINUTES} minutes`;
  const [row] = await tx<{ account_until: Date | null; ip_until: Date | null; now: Date }[]>`
    select
      (select f.attempted_at + ${window}::interval
         from private.login_attempts f
        where f.account = ${account}
          and not f.succeeded
          and f.attempted_at > now() - ${window}::interval
          and f.attempted_at > coalesce(
                (select max(s.attempted_at) from private.login_attempts s
                  where s.account = ${account} and s.succeeded),
                '-infinity'::timestamptz)
        order by f.attempted_at desc
        offset ${LOGIN_MAX_FAILURES_PER_ACCOUNT - 1} limit 1) as account_until,
      ${
        ip === null
          ? tx`null::timestamptz`
          : tx`(select f.attempted_at + ${window}::interval
                  from private.login_attempts f
                 where f.ip = ${ip}
                   and not f.succeeded
                   and f.attempted_at > now() - ${window}::interval
                 order by f.attempted_at desc
                 offset ${LOGIN_MAX_FAILURES_PER_IP - 1} limit 1)`
      } as ip_until,
      now() as now
  `;
  if (!row) return 0;
  const until = Math.max(row.account_until?.getTime() ?? 0, row.ip_until?.getTime() ?? 0);
  return Math.max(0, Math.ceil((until - row.now.getTime()) / 1000));
}

export async function recordLoginAttempt(
  tx: Tx,
  { ip, account, succeeded }: LoginAttemptKey & { succeeded: boolean },
): Promise<void> {
  await tx`
    insert into private.login_attempts (ip, account, succeeded)
    values (${ip}, ${account}, ${succeeded})
  `;
}
