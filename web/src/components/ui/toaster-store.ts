import { createToaster } from '@chakra-ui/react';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '@shared/constants.ts';
import type { NotifyOptions } from './toaster';

/*
 * One toast at a time, 5000 ms by default, F8 moves focus to the toasts (the 420 px width cap
 * and the swipe to dismiss are in ./toaster-view.tsx). Chakra queues toasts beyond `max` until
 * the current one has gone (its exit transition included); to show the newest at once, as a
 * one-toast limit means, `notify` removes the current toast first. Dismissed toasts are removed
 * after Chakra's exit transition: a removal delay of 1,000,000 ms would keep dismissed toasts in
 * memory and only hold the queue here.
 */
export const toaster = createToaster({
  placement: 'bottom-end',
  max: TOAST_LIMIT,
  duration: TOAST_DURATION_MS,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

/** Shows a toast now; `notify` in ./toaster.ts is the entry point the app uses. */
export function showToast({ title, description, status = 'info', duration }: NotifyOptions): void {
  toaster.remove();
  toaster.create({ title, description, type: status, duration, closable: true });
}
