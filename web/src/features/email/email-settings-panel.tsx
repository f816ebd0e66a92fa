import { Card, Heading, HStack, Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '@/lib/auth';

/** The Settings tab's email connection panel (the email issue gives it the connect actions). */
export function EmailSettingsPanel() {
  const { data: user } = useCurrentUser();
  const connected = user?.emailConnected === true;
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h3" size="md">
          Email Connection
        </Heading>
      </Card.Header>
      <Card.Body>
        <HStack gap="3" wrap="wrap">
          <Text>
            Email connection:{' '}
            <Text as="span" fontWeight="semibold">
              {connected ? 'Connected' : 'Not Connected'}
            </Text>
          </Text>
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/connect-email">Manage email connection</RouterLink>
          </Link>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
