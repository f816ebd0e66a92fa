// Failed password sign-ins, counted where the password is checked (POST /token?grant_type=password),
// keyed so that someone else's failures cannot lock out the owner of an account:
// - per account and client address: 5 failures in 15 minutes, then 429 for that pair only;
// - per client address, across accounts: 20 failures in 15 minutes, then 429 for that address;
// - per account, across addresses: from the 10th failure in the window on, every attempt waits
//   250 ms, 500 ms, 1 s, 2 s, then 4 s (the cap) before it is answered. A right password still
//   succeeds after the wait, so a distributed guesser is slowed without locking the owner out.
// The auth server is one process, so the counts live in memory (bounded; they start empty after a
// restart). An attempt counts as a failure from the moment it starts and is taken back when the
// password turns out right, so a burst of parallel guesses cannot slip past the limits.

export interface LoginLimits {
  windowMs: number;
  /** Failures per (account, address) in the window before that pair is refused. */
  perAccountAndAddress: number;
  /** Failures per address, across accounts, in the window before the address is refused. */
  perAddress: number;
  /** Failures per account, across addresses, in the window before every attempt is delayed. */
  delayAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  windowMs: 15 * 60 * 1000,
  perAccountAndAddress: 5,
  perAddress: 20,
  delayAfter: 10,
  baseDelayMs: 250,
  maxDelayMs: 4000,
};

/** Keys kept per map before old ones are dropped (a flood of made-up addresses stays bounded). */
const MAX_KEYS = 20_000;

export interface LoginAttempt {
  /** The password was right: the attempt is no failure, and this address's failures on the account are forgiven. */
  succeeded(): void;
}

export class LoginLimiter {
  private readonly pairs = new Map<string, number[]>();
  private readonly addresses = new Map<string, number[]>();
  private readonly accounts = new Map<string, number[]>();
  private readonly keep: number;

  constructor(
    readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    // Enough history for every rule: the delay stops growing once it reaches its cap.
    const doublings = Math.ceil(Math.log2(Math.max(1, limits.maxDelayMs / Math.max(1, limits.baseDelayMs))));
    this.keep = Math.max(limits.perAccountAndAddress, limits.perAddress, limits.delayAfter + doublings + 1);
  }

  /** Seconds until `account` may be tried from `address` again; 0 when it may now. */
  retryAfterSeconds(account: string, address: string): number {
    const waits = [
      this.waitMs(this.pairs, pairKey(account, address), this.limits.perAccountAndAddress),
      this.waitMs(this.addresses, address, this.limits.perAddress),
    ];
    const wait = Math.max(...waits);
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  /** How long to wait before answering an attempt on `account`, from its failures in the window. */
  delayMs(account: string): number {
    const failures = this.recent(this.accounts, account).length;
    if (failures < this.limits.delayAfter) return 0;
    return Math.min(this.limits.maxDelayMs, this.limits.baseDelayMs * 2 ** (failures - this.limits.delayAfter));
  }

  /** Counts an attempt as a failure until `succeeded()` is called. */
  begin(account: string, address: string): LoginAttempt {
    const time = this.now();
    const pair = pairKey(account, address);
    this.push(this.pairs, pair, time);
    this.push(this.addresses, address, time);
    this.push(this.accounts, account, time);
    return {
      succeeded: () => {
        this.pairs.delete(pair);
        this.remove(this.addresses, address, time);
        this.remove(this.accounts, account, time);
      },
    };
  }

  /** Milliseconds until fewer than `limit` failures remain in the window for `key`. */
  private waitMs(map: Map<string, number[]>, key: string, limit: number): number {
    const times = this.recent(map, key);
    if (times.length < limit) return 0;
    const oldestCounted = times[times.length - limit] ?? 0;
    return Math.max(1, oldestCounted + this.limits.windowMs - this.now());
  }

  private recent(map: Map<string, number[]>, key: string): number[] {
    const times = map.get(key);
    if (!times) return [];
    const since = this.now() - this.limits.windowMs;
    const firstRecent = times.findIndex((time) => time > since);
    if (firstRecent === -1) {
      map.delete(key);
      return [];
    }
    if (firstRecent > 0) times.splice(0, firstRecent);
    return times;
  }

  private push(map: Map<string, number[]>, key: string, time: number): void {
    const times = this.recent(map, key);
    times.push(time);
    if (times.length > this.keep) times.splice(0, times.length - this.keep);
    map.set(key, times);
    if (map.size > MAX_KEYS) this.shrink(map);
  }

  private remove(map: Map<string, number[]>, key: string, time: number): void {
    const times = map.get(key);
    const index = times?.lastIndexOf(time) ?? -1;
    if (times && index !== -1) times.splice(index, 1);
    if (times?.length === 0) map.delete(key);
  }

  /** Drops expired keys, then the oldest ones, until the map is back under its bound. */
  private shrink(map: Map<string, number[]>): void {
    for (const key of [...map.keys()]) this.recent(map, key);
    for (const key of map.keys()) {
      if (map.size <= MAX_KEYS * 0.9) break;
      map.delete(key);
    }
  }
}

function pairKey(account: string, address: string): string {
  return `${account}\u0000${address}`;
}
