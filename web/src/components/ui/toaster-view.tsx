import { Toaster, Portal, Spinner, Stack, Toast } from '@chakra-ui/react';
import { TOAST_MAX_WIDTH_PX } from '@shared/constants.ts';
import { toaster } from './toaster-store';
import { useSwipeToDismiss } from './toaster-swipe';

type ToastOptions = Parameters<Parameters<typeof Toaster>[0]['children']>[0];

/** The toast region; width capped at 420 px from md up. */
export default function ToasterView() {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => <ToastCard toast={toast} />}
      </Toaster>
    </Portal>
  );
}

/** One toast; a swipe to the right past 50 px dismisses it. */
function ToastCard({ toast }: { toast: ToastOptions }) {
  const swipe = useSwipeToDismiss({
    onDismiss: () => toaster.dismiss(toast.id),
    onHold: () => toaster.pause(toast.id),
    // A mouse still over the toast keeps it paused until it leaves (the toast region does that).
    onRelease: (pointerType) => {
      if (pointerType !== 'mouse') toaster.resume(toast.id);
    },
  });
  return (
    <Toast.Root
      width={{ md: 'sm' }}
      maxWidth={{ md: `${TOAST_MAX_WIDTH_PX}px` }}
      style={swipe.style}
      {...swipe.handlers}
    >
      {toast.type === 'loading' ? <Spinner size="sm" color="brand.solid" /> : <Toast.Indicator />}
      <Stack gap="1" flex="1" maxWidth="100%">
        {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
        {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
      </Stack>
      {toast.closable && <Toast.CloseTrigger aria-label="Dismiss notification" />}
    </Toast.Root>
  );
}
