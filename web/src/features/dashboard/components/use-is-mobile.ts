import { MOBILE_BREAKPOINT_PX } from '@shared/constants.ts';
import { useSyncExternalStore } from 'react';

// Short tab labels under 768 px. Read in JS rather than with responsive CSS so
// each tab has exactly one label, and therefore one accessible name.
const query = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(query);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
