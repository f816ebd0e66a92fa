import { Alert, Button, Flex, Stack } from '@chakra-ui/react';
import { UNLIMITED_FLIGHTS } from '@shared/constants.ts';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '@/lib/auth';
import { useFlights } from '../api';

/**
 * Whether the plan's limit is reached: counted as the api counts it (watched flights against the
 * plan's flightLimit, -1 unlimited), so the form says so before the api would refuse the add.
 */
export function useFlightLimitReached(): { reached: boolean; limit: number } {
  const { data: user } = useCurrentUser();
  const flights = useFlights();
  const limit = user?.flightLimit ?? UNLIMITED_FLIGHTS;
  const watched = flights.data?.filter((f) => f.isWatched).length ?? 0;
  return { reached: limit !== UNLIMITED_FLIGHTS && flights.isSuccess && watched >= limit, limit };
}

/**
 * Shown above the Add form at the plan's limit: why a flight cannot be added now, and the two
 * ways out: remove a flight on the Flights tab, or upgrade on the Subscription tab.
 */
export function FlightLimitNotice({ limit }: { limit: number }) {
  return (
    <Alert.Root status="warning" variant="subtle" borderRadius="md">
      <Alert.Indicator />
      <Stack gap="3" align="flex-start" flex="1">
        <Alert.Title>
          You&apos;re monitoring {limit} of {limit} flights, your plan&apos;s limit.
        </Alert.Title>
        <Alert.Description>
          Remove a flight you no longer need watched to make room, or upgrade to Premium to monitor unlimited flights.
        </Alert.Description>
        <Flex gap="2" wrap="wrap">
          <Button asChild size="sm" variant="outline">
            <RouterLink to="/dashboard">Remove a flight</RouterLink>
          </Button>
          <Button asChild size="sm" colorPalette="brand">
            <RouterLink to="/dashboard?tab=plan">Upgrade to Premium</RouterLink>
          </Button>
        </Flex>
      </Stack>
    </Alert.Root>
  );
}
