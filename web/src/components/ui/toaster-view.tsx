import { Toaster, Portal, Spinner, Stack, Toast } from '@chakra-ui/react';
import { TOAST_MAX_WIDTH_PX } from '@shared/constants.ts';
import { toaster } from './toaster-store';

/** The toast region; width capped at 420 px from md up (spec section 9). */
export default function ToasterView() {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} maxWidth={{ md: `${TOAST_MAX_WIDTH_PX}px` }}>
            {toast.type === 'loading' ? <Spinner size="sm" color="brand.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable && <Toast.CloseTrigger aria-label="Dismiss notification" />}
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
