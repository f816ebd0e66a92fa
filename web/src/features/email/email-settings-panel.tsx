import { Card, Heading, HStack, Link, Text } from '@chakra-ui/react';
import type { QueryKey } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '@/lib/auth';
import { EmailConnectionPanel } from './components/connection-panel';

const STATE_LABELS = {
  connected: 'Connected',
  not_connected: 'Not Connected',
  needs_reconnect: 'Needs reconnect',
} as const;

/** The Settings tab's email connection panel (`refreshAfterConfirm`: see EmailConnectionPanel). */
export function EmailSettingsPanel({ refreshAfterConfirm }: { refreshAfterConfirm: readonly QueryKey[] }) {
  const { data: user } = useCurrentUser();
  const state = user?.emailConnectionState ?? (user?.emailConnected ? 'connected' : 'not_connected');
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as="h3" size="md">
            Email Connection
          </Heading>
          <Link asChild color="brand.fg" fontWeight="medium" fontSize="sm">
            <RouterLink to="/connect-email">Manage email connection</RouterLink>
          </Link>
        </HStack>
        <Text fontSize="sm">
          Email connection:{' '}
          <Text as="span" fontWeight="semibold">
            {STATE_LABELS[state]}
          </Text>
        </Text>
      </Card.Header>
      <Card.Body>
        <EmailConnectionPanel refreshAfterConfirm={refreshAfterConfirm} />
      </Card.Body>
    </Card.Root>
  );
}
