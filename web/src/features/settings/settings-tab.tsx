import { Card, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface SettingsTabProps {
  /** The email connection panel, from the email feature (composed by the dashboard route). */
  emailPanel: ReactNode;
}

/**
 * Dashboard tab 3, Settings. The settings cards (auto-rebooking, notification preferences, price
 * alert and rebooking thresholds) come with the settings issue; the email panel is the email
 * feature's, passed in by the route because features never import each other.
 */
export function SettingsTab({ emailPanel }: SettingsTabProps) {
  return (
    <Stack gap="6" maxW="3xl">
      <Card.Root variant="outline">
        <Card.Header>
          <Heading as="h3" size="md">
            Settings
          </Heading>
        </Card.Header>
        <Card.Body>
          <Text color="fg.muted">
            Auto-rebooking, notification preferences, price alert thresholds and rebooking thresholds will be managed
            here in an upcoming release.
          </Text>
        </Card.Body>
      </Card.Root>
      {emailPanel}
    </Stack>
  );
}
