// A pool of slots for calls to a fare source, shared by the sweep and the drop confirmations.

/** A fixed number of slots; callers beyond it wait in order. */
export function createPool(size: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      // hand the slot straight to the next waiter, so `active` never dips while work is queued
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
