// private.login_attempts: every password sign-in attempt, so repeated failures can be limited
// without letting one person's failures lock out another (constants in _shared/constants.ts):
// - one address and one account: refused after LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP failures
//   since that pair's last success, within the window;
// - one address, any accounts: refused after LOGIN_MAX_FAILURES_PER_IP failures in the window;
// - one account, any addresses: never refused, only slowed (see loginDelayMs), counting failures
//   since the account's last success within the window. Refusing here would hand anyone who
//   knows a username the power to lock its owner out.
// A refusal lifts when enough of its failures have aged out of the window.
import {
  LOGIN_DELAY_AFTER_ACCOUNT_FAILURES,
  LOGIN_DELAY_BASE_MS,
  LOGIN_DELAY_MAX_MS,
  LOGIN_FAILURE_WINDOW_MINUTES,
  LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP,
  LOGIN_MAX_FAILURES_PER_IP,
} from '../../_shared/constants.ts';
import type { Tx } from '../db.ts';

export interface LoginAttemptKey {
  /** Client address, or null when the request carries none (all such attempts count as one address). */
  ip: string | null;
  /** Lower-cased email of the account, or the lower-cased identifier when no account matches. */
  account: string;
}

export interface LoginThrottle {
  /** Seconds until this address may try this account again, or 0 when it may try now. */
  retryAfterSeconds: number;
  /** The account's failures from every address since its last success, within the window. */
  accountFailures: number;
}

/** How long an attempt waits before its password is checked, given the account's failures. */
export function loginDelayMs(accountFailures: number): number {
  if (accountFailures < LOGIN_DELAY_AFTER_ACCOUNT_FAILURES) return 0;
  const doublings = Math.min(accountFailures - LOGIN_DELAY_AFTER_ACCOUNT_FAILURES, 16);
  return Math.min(LOGIN_DELAY_BASE_MS * 2 ** doublings, LOGIN_DELAY_MAX_MS);
}

export async function loginThrottle(tx: Tx, { ip, account }: LoginAttemptKey): Promise<LoginThrottle> {
  const window = `${LOGIN_FAILURE_WINDOW_MINUTES} minutes`;
  const [row] = await tx<{ pair_until: Date | null; ip_until: Date | null; account_failures: number; now: Date }[]>`
    select
      (select f.attempted_at + ${window}::interval
         from private.login_attempts f
        where f.account = ${account}
          and f.ip is not distinct from ${ip}
          and not f.succeeded
          and f.attempted_at > now() - ${window}::interval
          and f.attempted_at > coalesce(
                (select max(s.attempted_at) from private.login_attempts s
                  where s.account = ${account} and s.ip is not distinct from ${ip} and s.succeeded),
                '-infinity'::timestamptz)
        order by f.attempted_at desc
        offset ${LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP - 1} limit 1) as pair_until,
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
      (select count(*)::int
         from private.login_attempts f
        where f.account = ${account}
          and not f.succeeded
          and f.attempted_at > now() - ${window}::interval
          and f.attempted_at > coalesce(
                (select max(s.attempted_at) from private.login_attempts s
                  where s.account = ${account} and s.succeeded),
                '-infinity'::timestamptz)) as account_failures,
      now() as now
  `;
  if (!row) return { retryAfterSeconds: 0, accountFailures: 0 };
  const until = Math.max(row.pair_until?.getTime() ?? 0, row.ip_until?.getTime() ?? 0);
  return {
    retryAfterSeconds: Math.max(0, Math.ceil((until - row.now.getTime()) / 1000)),
    accountFailures: Number(row.account_failures ?? 0),
  };
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
