/*
 * `notify` is how the app shows a toast (see ./toaster-store.ts for the rules). The toast store
 * (zag-js's toast machine, some 7 KB of gzipped JavaScript) loads on the first call, so pages
 * that never toast, the landing page first, do not download it. A toast therefore appears a
 * moment after the call; calls keep their order.
 */

export type ToastStatus = 'success' | 'error' | 'info' | 'warning' | 'loading';

export interface NotifyOptions {
  title: string;
  description?: string | undefined;
  /** 'error' is the destructive variant. */
  status?: ToastStatus;
  duration?: number;
}

type ToasterStore = typeof import('./toaster-store');

let store: Promise<ToasterStore> | null = null;
const firstToastListeners = new Set<() => void>();
let toasted = false;

export function loadToasterStore(): Promise<ToasterStore> {
  store ??= import('./toaster-store');
  return store;
}

export function notify(options: NotifyOptions): void {
  if (!toasted) {
    toasted = true;
    for (const listener of firstToastListeners) listener();
  }
  void loadToasterStore().then(({ showToast }) => showToast(options));
}

/** Whether a toast was ever requested; the toast region mounts from then on. */
export function hasToasted(): boolean {
  return toasted;
}

export function onFirstToast(listener: () => void): () => void {
  firstToastListeners.add(listener);
  return () => firstToastListeners.delete(listener);
}
