// Timeouts, retries and a rate limit around any fare source (createFareSource applies it to both).
//
// - Each attempt gets `timeoutMs`; the attempt's AbortSignal fires when it expires, so an HTTP
//   source cancels its request.
// - RetryableFareSourceError (429, 5xx, dropped connections) and timeouts are retried up to
//   `maxRetries` times with exponential backoff and jitter; a wait the source asks for
//   (Retry-After, ratelimit-reset) is honoured, and one longer than `maxRetryAfterMs` ends the
//   retries at once. When the retries run out the caller gets FareSourceUnavailableError.
// - Everything else a source throws on purpose (booking not found, booking mismatch, fare gone,
//   not changeable, 4xx other than 429, an outcome already known to be unknown) passes through
//   unretried; an unexpected error becomes FareSourceUnavailableError (RebookOutcomeUnknownError
//   in a rebook, where it may have struck after the change), so a caller only ever sees the typed
//   errors of types.ts.
// - A rebook is not retried after a timeout: the change may have gone through, and a second one
//   could change the booking twice. The caller gets RebookOutcomeUnknownError (a
//   FareSourceUnavailableError, 503) and asks `rebookingOutcome` before anything else. Sources
//   throw RetryableFareSourceError from a rebook only where nothing was changed yet, so those are
//   retried, and when the retries run out the answer is plain FareSourceUnavailableError.
// - `rebookingOutcome` only reads, so it is retried like retrieveBooking and quote.
// - Every attempt first takes a token from the source's bucket (`ratePerSecond`, shared by all
//   callers in the process), so a sweep's concurrency never exceeds the rate the API allows.
//
// The clock and randomness are injectable so tests measure spacing and backoff without waiting.
import {
  FareSourceError,
  FareSourceUnavailableError,
  RebookOutcomeUnknownError,
  RetryableFareSourceError,
  type FareSource,
  type FareSourceCallOptions,
} from './types.ts';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; resolves early (without error) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
    }),
};

/** Token bucket: `ratePerSecond` tokens a second, at most `burst` saved up. Waiters queue in order. */
export class RateLimiter {
  private tokens: number;
  private updatedAt: number;

  constructor(
    readonly ratePerSecond: number,
    readonly burst = 1,
    private readonly clock: Clock = systemClock,
  ) {
    if (!(ratePerSecond > 0)) throw new Error('ratePerSecond must be above 0');
    this.tokens = burst;
    this.updatedAt = clock.now();
  }

  /** Waits until this caller may make a call. */
  async acquire(): Promise<void> {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) * this.ratePerSecond) / 1000);
    this.updatedAt = now;
    // Take the token now, even into debt: later callers then wait behind this one, so the
    // calls leave evenly spaced in arrival order.
    this.tokens -= 1;
    if (this.tokens < 0) await this.clock.sleep((-this.tokens * 1000) / this.ratePerSecond);
  }
}

const sharedLimiters = new Map<string, RateLimiter>();

/** One bucket per source and rate for the whole process, whoever builds the source. */
export function sharedRateLimiter(sourceName: string, ratePerSecond: number): RateLimiter {
  const key = `${sourceName}:${ratePerSecond}`;
  let limiter = sharedLimiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter(ratePerSecond);
    sharedLimiters.set(key, limiter);
  }
  return limiter;
}

export interface ResilienceOptions {
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The bucket calls take tokens from; default the process-wide one for the source. */
  limiter?: Pick<RateLimiter, 'acquire'>;
  /** Used when `limiter` is not given; without either, calls are not rate limited. */
  ratePerSecond?: number;
  /** First backoff; doubled each retry (default 250 ms). */
  baseDelayMs?: number;
  /** Backoff ceiling (default 8 s). */
  maxDelayMs?: number;
  /** A source asking to wait longer than this is treated as down (default 30 s). */
  maxRetryAfterMs?: number;
  clock?: Clock;
  /** [0, 1); jitter. */
  random?: () => number;
  /** Told about each retry (for logs and tests). */
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; error: unknown }) => void;
}

export class FareSourceTimeoutError extends RetryableFareSourceError {
  constructor(timeoutMs: number) {
    super(`The fare source did not answer within ${timeoutMs} ms`);
    this.name = 'FareSourceTimeoutError';
  }
}

/** The backoff before retry number `attempt` (0-based): half fixed, half random, doubling each time. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

export function withResilience(source: FareSource, options: ResilienceOptions): FareSource {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 8000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  const limiter =
    options.limiter ??
    (options.ratePerSecond ? sharedRateLimiter(source.name, options.ratePerSecond) : { acquire: async () => {} });

  async function attempt<T>(call: (options: FareSourceCallOptions) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const settled = new AbortController();
    const timeout = clock.sleep(options.timeoutMs, settled.signal).then(() => {
      if (settled.signal.aborted) return new Promise<never>(() => {});
      controller.abort(new FareSourceTimeoutError(options.timeoutMs));
      throw new FareSourceTimeoutError(options.timeoutMs);
    });
    try {
      return await Promise.race([call({ signal: controller.signal }), timeout]);
    } finally {
      settled.abort(); // stops the timer
    }
  }

  async function run<T>(
    operation: string,
    call: (options: FareSourceCallOptions) => Promise<T>,
    retryTimeouts: boolean,
  ): Promise<T> {
    for (let tried = 0; ; tried++) {
      await limiter.acquire();
      try {
        return await attempt(call);
      } catch (error) {
        if (!(error instanceof RetryableFareSourceError)) {
          if (error instanceof FareSourceError) throw error;
          // A bug inside a rebook may have struck after the change was made: ask before retrying.
          if (operation === 'rebook') throw new RebookOutcomeUnknownError(undefined, { cause: error });
          throw new FareSourceUnavailableError(undefined, { cause: error });
        }
        const timedOut = error instanceof FareSourceTimeoutError;
        const askedMs = error.retryAfterMs ?? 0;
        if (tried >= options.maxRetries || (timedOut && !retryTimeouts) || askedMs > maxRetryAfterMs) {
          // a change that timed out may have happened: the caller must ask before trying again
          if (timedOut && operation === 'rebook') throw new RebookOutcomeUnknownError(undefined, { cause: error });
          throw new FareSourceUnavailableError(undefined, { cause: error });
        }
        const delayMs = Math.max(askedMs, backoffDelay(tried, baseDelayMs, maxDelayMs, random));
        options.onRetry?.({ operation, attempt: tried + 1, delayMs, error });
        await clock.sleep(delayMs);
      }
    }
  }

  return {
    name: source.name,
    retrieveBooking: (request) => run('retrieveBooking', (call) => source.retrieveBooking(request, call), true),
    quote: (itinerary) => run('quote', (call) => source.quote(itinerary, call), true),
    rebook: (request) => run('rebook', (call) => source.rebook(request, call), false),
    rebookingOutcome: (request) => run('rebookingOutcome', (call) => source.rebookingOutcome(request, call), true),
  };
}
