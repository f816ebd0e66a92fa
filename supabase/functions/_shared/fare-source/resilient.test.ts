import { describe, expect, it } from '../extraction/testing/harness.ts';
import { backoffDelay, FareSourceTimeoutError, RateLimiter, sharedRateLimiter, withResilience } from './resilient.ts';
import { FakeClock } from './testing/fake-clock.ts';
import {
  BookingNotFoundError,
  FareNoLongerAvailableError,
  type FareQuote,
  type FareSource,
  type FareSourceCallOptions,
  FareSourceError,
  FareSourceUnavailableError,
  RebookOutcomeUnknownError,
  type Itinerary,
  type RebookRequest,
  type RebookResult,
  RetryableFareSourceError,
} from './types.ts';

const ITINERARY: Itinerary = {
  airline: 'United Airlines',
  flightNumber: 'UA338',
  departureAirport: 'EWR',
  arrivalAirport: 'BOS',
  departureDate: '2027-02-24',
  returnFlightNumber: null,
  returnDate: null,
  cabinClass: 'Economy',
  fareType: 'Flexible Economy',
  currency: 'USD',
};
const REBOOK: RebookRequest = {
  booking: {
    ...ITINERARY,
    bookingCode: 'ABC123',
    passengerLastName: 'Smith',
    seatNumber: '14C',
    sourceReference: 'ord_0000ABC123',
  },
  pricePaid: 40000,
  maxPrice: 35000,
};
const QUOTE: FareQuote = { price: 35000, currency: 'USD', quotedAt: '2026-11-22T12:00:00.000Z', offerId: null };

/**
 * A source whose every call runs `behave(attempt, signal)`; it records when (on the fake clock)
 * each attempt started.
 */
function scriptedSource(clock: FakeClock, behave: (attempt: number, signal?: AbortSignal) => Promise<unknown>) {
  const startedAt: number[] = [];
  const run = <T>(options?: FareSourceCallOptions): Promise<T> => {
    startedAt.push(clock.now());
    return behave(startedAt.length, options?.signal) as Promise<T>;
  };
  const source: FareSource = {
    name: 'simulated',
    retrieveBooking: (_request, options) => run(options),
    quote: (_itinerary, options) => run<FareQuote>(options),
    rebook: (_request, options) => run<RebookResult>(options),
    rebookingOutcome: (_request, options) => run<RebookResult | null>(options),
  };
  return { source, startedAt };
}

/** Never answers, but gives up when its signal aborts, as fetch does. */
function hang(signal?: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

function wrap(clock: FakeClock, source: FareSource, overrides: Partial<Parameters<typeof withResilience>[1]> = {}) {
  return withResilience(source, {
    timeoutMs: 1000,
    maxRetries: 3,
    clock,
    random: () => 1, // the full backoff, so delays are exact
    limiter: new RateLimiter(1000, 1000, clock),
    ...overrides,
  });
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('resilience: retries', () => {
  it('retries 429/5xx with doubling backoff and stops after maxRetries', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async () => {
      throw new RetryableFareSourceError('Duffel answered 503', 503);
    });
    const error = await clock.run(caught(wrap(clock, source).quote(ITINERARY)));
    expect(error).toBeInstanceOf(FareSourceUnavailableError);
    expect((error as Error).cause).toBeInstanceOf(RetryableFareSourceError);
    // 1 attempt + 3 retries, waiting 250, 500 and 1000 ms between them.
    expect(startedAt).toEqual([0, 250, 750, 1750]);
  });

  it('jitters each wait between half and all of the backoff', () => {
    expect(backoffDelay(0, 250, 8000, () => 0)).toBe(125);
    expect(backoffDelay(2, 250, 8000, () => 0.5)).toBe(750);
    expect(backoffDelay(10, 250, 8000, () => 1)).toBe(8000);
  });

  it('waits as long as the source asked (Retry-After) before trying again', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async (attempt) => {
      if (attempt === 1) throw new RetryableFareSourceError('rate limited', 429, 5000);
      return QUOTE;
    });
    expect(await clock.run(wrap(clock, source).quote(ITINERARY))).toEqual(QUOTE);
    expect(startedAt).toEqual([0, 5000]);
  });

  it('gives up at once when the source asks for a longer wait than allowed', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async () => {
      throw new RetryableFareSourceError('rate limited', 429, 120_000);
    });
    const error = await clock.run(caught(wrap(clock, source, { maxRetryAfterMs: 30_000 }).quote(ITINERARY)));
    expect(error).toBeInstanceOf(FareSourceUnavailableError);
    expect(startedAt).toEqual([0]);
  });

  it('never retries a refusal: not found, validation errors, fare gone', async () => {
    for (const refusal of [
      new BookingNotFoundError(),
      new FareSourceError('Duffel answered 422: validation_required'),
      new FareNoLongerAvailableError(),
    ]) {
      const clock = new FakeClock();
      const { source, startedAt } = scriptedSource(clock, async () => {
        throw refusal;
      });
      expect(await clock.run(caught(wrap(clock, source).quote(ITINERARY)))).toBe(refusal);
      expect(startedAt).toHaveLength(1);
    }
  });

  it('turns an unexpected error into the source being unavailable, without retrying', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async () => {
      throw new TypeError('Cannot read properties of undefined');
    });
    const error = await clock.run(
      caught(wrap(clock, source).retrieveBooking({ airline: 'UA', bookingCode: 'A', passengerLastName: 'B' })),
    );
    expect(error).toBeInstanceOf(FareSourceUnavailableError);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(startedAt).toHaveLength(1);
  });
});

describe('resilience: timeouts', () => {
  it('aborts an attempt after timeoutMs and retries it', async () => {
    const clock = new FakeClock();
    const signals: AbortSignal[] = [];
    const { source, startedAt } = scriptedSource(clock, (attempt, signal) => {
      signals.push(signal!);
      return attempt < 3 ? hang(signal) : Promise.resolve(QUOTE);
    });
    expect(await clock.run(wrap(clock, source).quote(ITINERARY))).toEqual(QUOTE);
    // Two attempts time out at 1000 ms each, with 250 and 500 ms of backoff after them.
    expect(startedAt).toEqual([0, 1250, 2750]);
    expect(signals.map((s) => s.aborted)).toEqual([true, true, false]);
    expect(signals[0]!.reason).toBeInstanceOf(FareSourceTimeoutError);
  });

  it('reports the source unavailable when every attempt times out', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, (_attempt, signal) => hang(signal));
    const error = await clock.run(caught(wrap(clock, source, { maxRetries: 1 }).quote(ITINERARY)));
    expect(error).toBeInstanceOf(FareSourceUnavailableError);
    expect((error as Error).cause).toBeInstanceOf(FareSourceTimeoutError);
    expect(startedAt).toHaveLength(2);
  });

  it('does not retry a rebook that timed out (it may have gone through), but does retry one refused with 429', async () => {
    const clock = new FakeClock();
    const slow = scriptedSource(clock, (_attempt, signal) => hang(signal));
    const timedOut = await clock.run(caught(wrap(clock, slow.source).rebook(REBOOK)));
    // The outcome is unknown: a 503 to callers (a FareSourceUnavailableError), and they must ask.
    expect(timedOut).toBeInstanceOf(RebookOutcomeUnknownError);
    expect(timedOut).toBeInstanceOf(FareSourceUnavailableError);
    expect((timedOut as Error).cause).toBeInstanceOf(FareSourceTimeoutError);
    expect(slow.startedAt).toHaveLength(1);

    const limited = scriptedSource(clock, async (attempt) => {
      if (attempt === 1) throw new RetryableFareSourceError('rate limited', 429, 100);
      return { newPrice: 35000 } as RebookResult;
    });
    expect(await clock.run(wrap(clock, limited.source).rebook(REBOOK))).toEqual({ newPrice: 35000 });
    expect(limited.startedAt).toHaveLength(2);
  });
});

describe('resilience: rebookings whose outcome is unknown', () => {
  it('a rebook refused with 5xx until the retries run out is plainly unavailable: nothing changed', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async () => {
      throw new RetryableFareSourceError('Duffel answered 503', 503);
    });
    const error = await clock.run(caught(wrap(clock, source).rebook(REBOOK)));
    expect(error).toBeInstanceOf(FareSourceUnavailableError);
    expect(error).not.toBeInstanceOf(RebookOutcomeUnknownError);
    expect(startedAt).toHaveLength(4);
  });

  it('passes an unknown outcome from the source through, never retried', async () => {
    const clock = new FakeClock();
    const unknown = new RebookOutcomeUnknownError();
    const { source, startedAt } = scriptedSource(clock, async () => {
      throw unknown;
    });
    expect(await clock.run(caught(wrap(clock, source).rebook(REBOOK)))).toBe(unknown);
    expect(startedAt).toHaveLength(1);
  });

  it('treats an unexpected error inside a rebook as an unknown outcome (it may have struck after the change)', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async () => {
      throw new TypeError('Cannot read properties of undefined');
    });
    const error = await clock.run(caught(wrap(clock, source).rebook(REBOOK)));
    expect(error).toBeInstanceOf(RebookOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(startedAt).toHaveLength(1);
  });

  it('retries rebookingOutcome (a read) after 5xx and timeouts, as retrieval', async () => {
    const clock = new FakeClock();
    const found = { newPrice: 35000 } as RebookResult;
    const { source, startedAt } = scriptedSource(clock, (attempt, signal) => {
      if (attempt === 1) return Promise.reject(new RetryableFareSourceError('Duffel answered 502', 502));
      if (attempt === 2) return hang(signal);
      return Promise.resolve(found);
    });
    expect(await clock.run(wrap(clock, source).rebookingOutcome(REBOOK))).toBe(found);
    // 250 ms after the 502; the second attempt times out at 1000 ms, then 500 ms more.
    expect(startedAt).toEqual([0, 250, 1750]);
  });

  it('passes a refusal from rebookingOutcome through, and null (nothing happened) as it is', async () => {
    const clock = new FakeClock();
    const refused = scriptedSource(clock, async () => {
      throw new BookingNotFoundError();
    });
    expect(await clock.run(caught(wrap(clock, refused.source).rebookingOutcome(REBOOK)))).toBeInstanceOf(
      BookingNotFoundError,
    );
    expect(refused.startedAt).toHaveLength(1);
    const nothing = scriptedSource(clock, async () => null);
    expect(await clock.run(wrap(clock, nothing.source).rebookingOutcome(REBOOK))).toBeNull();
  });
});

describe('resilience: rate limit', () => {
  it('spaces calls 1/rate apart, in the order they arrived', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async () => QUOTE);
    const wrapped = wrap(clock, source, { limiter: new RateLimiter(10, 1, clock) });
    await clock.run(Promise.all(Array.from({ length: 5 }, () => wrapped.quote(ITINERARY))));
    expect(startedAt).toEqual([0, 100, 200, 300, 400]);
  });

  it('lets a burst through at once, then the steady rate', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async () => QUOTE);
    const wrapped = wrap(clock, source, { limiter: new RateLimiter(4, 3, clock) });
    await clock.run(Promise.all(Array.from({ length: 5 }, () => wrapped.quote(ITINERARY))));
    expect(startedAt).toEqual([0, 0, 0, 250, 500]);
  });

  it('shares one bucket between every wrapper of the same source in the process', async () => {
    expect(sharedRateLimiter('duffel', 7)).toBe(sharedRateLimiter('duffel', 7));
    expect(sharedRateLimiter('duffel', 7)).not.toBe(sharedRateLimiter('simulated', 7));
    const clock = new FakeClock();
    const limiter = new RateLimiter(20, 1, clock);
    const first = scriptedSource(clock, async () => QUOTE);
    const second = scriptedSource(clock, async () => QUOTE);
    const a = wrap(clock, first.source, { limiter });
    const b = wrap(clock, second.source, { limiter });
    await clock.run(Promise.all([a.quote(ITINERARY), b.quote(ITINERARY), a.quote(ITINERARY), b.quote(ITINERARY)]));
    expect([...first.startedAt, ...second.startedAt].sort((x, y) => x - y)).toEqual([0, 50, 100, 150]);
  });

  it('takes a token for every attempt, retries included', async () => {
    const clock = new FakeClock();
    const { source, startedAt } = scriptedSource(clock, async (attempt) => {
      if (attempt === 1) throw new RetryableFareSourceError('busy', 503, 0);
      return QUOTE;
    });
    const wrapped = wrap(clock, source, { limiter: new RateLimiter(1, 1, clock), baseDelayMs: 10, maxDelayMs: 10 });
    await clock.run(wrapped.quote(ITINERARY));
    // The retry's 10 ms backoff is shorter than the 1 s a token takes to come back.
    expect(startedAt).toEqual([0, 1000]);
  });
});
