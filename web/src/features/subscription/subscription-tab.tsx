import { Button, Card, Heading, Text } from '@chakra-ui/react';
import { FREE_FLIGHT_LIMIT } from '@shared/constants.ts';
import { Link as RouterLink } from 'react-router';
import { isPremium, useCurrentUser } from '@/lib/auth';

/** Dashboard tab 5, Subscription (the billing issue gives it plans, payments and the billing summary). */
export function SubscriptionTab() {
  const { data: user } = useCurrentUser();
  const premium = isPremium(user);
  return (
    <Card.Root variant="outline" maxW="3xl">
      <Card.Header>
        <Heading as="h3" size="md">
          Subscription
        </Heading>
      </Card.Header>
      <Card.Body gap="4">
        <Text>
          You are on the{' '}
          <Text as="span" fontWeight="semibold">
            {premium ? 'Premium' : 'Free'}
          </Text>{' '}
          plan.{' '}
          {premium
            ? 'Unlimited monitoring and automatic rebooking are on.'
            : `It monitors up to ${FREE_FLIGHT_LIMIT} flights with email price-drop alerts and manual rebooking.`}
        </Text>
        <Text color="fg.muted">Plan management and billing will appear here in an upcoming release.</Text>
        {!premium && (
          <Button asChild alignSelf="flex-start">
            <RouterLink to="/premium-checkout">See Premium</RouterLink>
          </Button>
        )}
      </Card.Body>
    </Card.Root>
  );
}
