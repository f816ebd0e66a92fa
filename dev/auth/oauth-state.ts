// The `state` of the local Google sign-in: GET /authorize issues a one-time value bound to the
// redirect target it was asked for, the chooser page posts it back, and POST /callback accepts
// a choice only with a state it issued, within 10 minutes, once. So a choice cannot be forged
// without first loading the chooser, nor replayed, nor sent somewhere the authorize call did not
// name. Kept in memory (bounded): the auth server is one process, and a state outliving a restart
// would only matter to a sign-in already in progress.
import { randomBytes } from 'node:crypto';

export const OAUTH_STATE_SECONDS = 10 * 60;
const MAX_STATES = 10_000;

interface PendingState {
  redirectTo: string;
  expiresAt: number;
}

export class OAuthStates {
  private readonly pending = new Map<string, PendingState>();

  constructor(
    private readonly ttlMs: number = OAUTH_STATE_SECONDS * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  issue(redirectTo: string): string {
    const state = randomBytes(32).toString('base64url');
    this.pending.set(state, { redirectTo, expiresAt: this.now() + this.ttlMs });
    if (this.pending.size > MAX_STATES) this.prune();
    return state;
  }

  /** The redirect target `state` was issued for, or null: unknown, expired or already used. */
  consume(state: string | undefined): { redirectTo: string } | null {
    if (!state) return null;
    const found = this.pending.get(state);
    if (!found) return null;
    this.pending.delete(state);
    return found.expiresAt > this.now() ? { redirectTo: found.redirectTo } : null;
  }

  private prune(): void {
    const now = this.now();
    for (const [state, entry] of this.pending) if (entry.expiresAt <= now) this.pending.delete(state);
    for (const state of this.pending.keys()) {
      if (this.pending.size <= MAX_STATES * 0.9) break;
      this.pending.delete(state);
    }
  }
}
