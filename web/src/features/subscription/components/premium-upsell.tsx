import { Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { CheckList } from '@/components/ui/check-list';

const UPSELL_FEATURES = ['Unlimited flight monitoring', 'Automatic rebooking', 'Advanced price alerts'];

/** For a free traveller: what Premium adds, and the way to it. */
export function PremiumUpsell() {
  return (
    <Card.Root variant="subtle" bg="brand.subtle">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading as="h3" size="md">
            Get more with Premium
          </Heading>
          <Text color="fg.muted">Let FareBack watch every trip and rebook for you when the price drops.</Text>
        </Stack>
        <CheckList items={UPSELL_FEATURES} gap="2" />
        <Button asChild alignSelf="flex-start" variant="outline">
          <RouterLink to="/premium-checkout">See Premium checkout</RouterLink>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
