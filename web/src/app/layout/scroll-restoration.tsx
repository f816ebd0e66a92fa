import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { keepsScroll } from '@/lib/navigation-state';

/** Scroll positions by history entry, for Back and Forward. */
const savedPositions = new Map<string, number>();

function elementOf(hash: string): HTMLElement | null {
  try {
    return hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  } catch {
    return null; // a malformed escape in the hash
  }
}

/**
 * What the data router's <ScrollRestoration> did for the app: a new location starts at the top,
 * or at the element its hash names (/#pricing); Back and Forward return to where the visitor was.
 * A change of view within the page (another tab or page of a table, navigation state KEEP_SCROLL
 * from lib/navigation-state) stays where it is. Runs once the new page has rendered (navigations
 * wait for a lazy page's code).
 */
export function ScrollRestoration() {
  const { key, hash, state } = useLocation();
  const keepScroll = keepsScroll(state);
  const navigationType = useNavigationType();

  // Layout effects: the listener is gone before the next page's content can move the scroll.
  useLayoutEffect(() => {
    const save = () => savedPositions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [key]);

  useLayoutEffect(() => {
    const saved = navigationType === 'POP' ? savedPositions.get(key) : undefined;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    if (keepScroll) return;
    const element = elementOf(hash);
    if (element) element.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [key, hash, navigationType, keepScroll]);

  return null;
}
