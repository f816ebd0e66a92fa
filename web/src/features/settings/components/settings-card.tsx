import { Card, Heading, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface SettingsCardProps {
  title: string;
  description: string;
  children: ReactNode;
}

/** One card of the Settings tab: its title (a level-3 heading under the tab), what it is for, its controls. */
export function SettingsCard({ title, description, children }: SettingsCardProps) {
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h3" size="md">
          {title}
        </Heading>
        <Text color="fg.muted">{description}</Text>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
