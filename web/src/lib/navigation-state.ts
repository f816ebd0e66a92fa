/*
 * Navigation state a change of view within a page carries (another tab, another page of a table,
 * a new search): the app's scroll restoration leaves the scroll where it is for such a location
 * instead of starting it at the top, as the data router's `preventScrollReset` did.
 */
export const KEEP_SCROLL = { preventScrollReset: true } as const;

export function keepsScroll(state: unknown): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as { preventScrollReset?: unknown }).preventScrollReset === true
  );
}
