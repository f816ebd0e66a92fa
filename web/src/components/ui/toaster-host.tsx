import { lazy, Suspense, useEffect, useState } from 'react';
import { toaster } from './toaster';

const ToasterView = lazy(() => import('./toaster-view'));

/**
 * Mounts the toast region when the first toast is created, so pages that never toast (the
 * landing page) do not load the toast machinery. The region picks up the waiting toast on mount.
 */
export function ToasterHost() {
  const [needed, setNeeded] = useState(() => toaster.getCount() > 0);
  useEffect(() => {
    if (needed) return;
    if (toaster.getCount() > 0) return setNeeded(true);
    return toaster.subscribe(() => setNeeded(true));
  }, [needed]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}
