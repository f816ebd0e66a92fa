// A clock for tests: time stands still until run() moves it from one pending sleep to the next,
// so rate-limit spacing, backoff and timeouts are measured in exact virtual milliseconds.
import type { Clock } from '../resilient.ts';

interface Timer {
  at: number;
  resolve: () => void;
}

/** Lets pending promise callbacks (and the microtasks they queue) run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class FakeClock implements Clock {
  private time = 0;
  private timers: Timer[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer: Timer = { at: this.time + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Runs until `done` settles, jumping from timer to timer; returns its result or rethrows its error. */
  async run<T>(done: Promise<T>): Promise<T> {
    let finished = false;
    const watched = done.finally(() => {
      finished = true;
    });
    watched.catch(() => {}); // observed below
    for (let guard = 0; guard < 10_000; guard++) {
      await settle();
      if (finished) return watched;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) throw new Error('Nothing is pending and the work has not finished');
      this.time = Math.max(this.time, next.at);
      next.resolve();
    }
    throw new Error('The work did not finish after 10,000 timers');
  }
}
