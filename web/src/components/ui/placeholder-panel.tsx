import { Card, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A quiet card for a section whose content arrives in a later release. */
export function PlaceholderPanel({ children }: { children: ReactNode }) {
  return (
    <Card.Root variant="outline" borderStyle="dashed">
      <Card.Body>
        <Text color="fg.muted">{children}</Text>
      </Card.Body>
    </Card.Root>
  );
}
