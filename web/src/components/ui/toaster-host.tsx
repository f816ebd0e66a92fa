import { lazy, Suspense, useEffect, useState } from 'react';
import { hasToasted, onFirstToast } from './toaster';

/**
 * Mounts the toast region when the first toast is requested, so pages that never toast (the
 * landing page) load neither the toast store nor its view. The region picks up the waiting toast
 * on mount. `prepare` runs before the view renders (the app registers the toast recipe there).
 */
export function ToasterHost({ prepare }: { prepare?: () => Promise<unknown> }) {
  const [needed, setNeeded] = useState(hasToasted);
  const [ToasterView] = useState(() =>
    lazy(async () => {
      const [view] = await Promise.all([import('./toaster-view'), prepare?.()]);
      return view;
    }),
  );
  useEffect(() => {
    if (needed) return;
    if (hasToasted()) return setNeeded(true);
    return onFirstToast(() => setNeeded(true));
  }, [needed]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}
