import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface FlightDialogProps {
  /** Names the close button for screen readers. */
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * The frame of the flight card's dialogs: open while mounted, full screen on phones and a centred
 * panel from md up, the body scrolling inside. The 'full' size's height, margin and square
 * corners would otherwise carry over into the md 'lg' size, hence the explicit overrides.
 */
export function FlightDialog({ closeLabel, onClose, children }: FlightDialogProps) {
  return (
    <Dialog.Root
      open
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      size={{ base: 'full', md: 'lg' }}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content
            minH={{ base: '100dvh', md: 'auto' }}
            my={{ base: '0', md: '12' }}
            borderRadius={{ base: '0', md: 'l3' }}
          >
            {children}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={closeLabel} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
