import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { KEEP_SCROLL } from '@/lib/navigation-state';

/**
 * The selected tab of a page, kept in the URL (`?tab=history`) so that a reload, a shared link
 * or a link from elsewhere opens it. A value that names no tab, or none at all, selects the
 * default, which is left out of the URL. Other parameters are kept. `selectTab` takes any string
 * (a Tabs component's `onValueChange` hands one over) and treats an unknown one as the default.
 *
 * Switching tabs replaces the history entry rather than pushing one: tabs are views of one page,
 * so Back leaves the page instead of stepping through every tab clicked. The scroll stays where
 * it is.
 */
export function useUrlTab<T extends string>(
  tabs: readonly T[],
  { defaultTab, param = 'tab' }: { defaultTab?: T; param?: string } = {},
): [T, (tab: string) => void] {
  const fallback = defaultTab ?? tabs[0];
  if (fallback === undefined) throw new Error('useUrlTab needs at least one tab');
  const [searchParams, setSearchParams] = useSearchParams();
  const value = searchParams.get(param);
  const selected = tabs.find((tab) => tab === value) ?? fallback;

  const selectTab = useCallback(
    (value: string) => {
      const tab = tabs.find((known) => known === value) ?? fallback;
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (tab === fallback) next.delete(param);
          else next.set(param, tab);
          return next;
        },
        { replace: true, state: KEEP_SCROLL },
      );
    },
    [setSearchParams, tabs, fallback, param],
  );

  return [selected, selectTab];
}
