import { Box, Button, Card, Flex, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { creditFlights, monitoredFlights, rebookedFlights, totalSavings } from '../display';
import type { Flight } from '@shared/types/flights.ts';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmptyState, QueryState } from '@/components/query-state/query-state';
import { isPremium, useCurrentUser } from '@/lib/auth';
import { formatDate, formatMoney, formatPercent } from '@/lib/format';
import { useFlights } from '../api';
import { FlightCard } from './flight-card';
import { useApprovalLink } from './use-approval-link';

/*
 * The dashboard's flight tabs: Flights (not yet rebooked), Rebooking History
 * (rebooked, with the total-savings card) and Airline Credits (rebooked with a credit above 0).
 * All three read the one flights query.
 */

function FlightsQuery({ children }: { children: (flights: Flight[]) => ReactNode }) {
  const flights = useFlights();
  return (
    <QueryState
      query={flights}
      loadingLabel="Loading flights"
      skeleton={
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
          <Skeleton height="md" borderRadius="l3" />
          <Skeleton height="md" borderRadius="l3" />
        </SimpleGrid>
      }
      errorTitle="Your flights could not be loaded"
    >
      {children}
    </QueryState>
  );
}

function FlightGrid({ flights }: { flights: Flight[] }) {
  const { data: user } = useCurrentUser();
  const premium = isPremium(user);
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
      {flights.map((flight) => (
        <FlightCard
          key={flight.id}
          flight={flight}
          offerUpgrade={!premium}
          autoRebooking={premium && user?.autoRebooking === true}
        />
      ))}
    </SimpleGrid>
  );
}

interface FlightsPanelProps {
  /** Opens the Subscription tab. */
  onUpgrade: () => void;
  /** Opens the Manual Entry tab. */
  onAddFlight: () => void;
}

/** Tab 0: flights not yet rebooked, two columns (one on narrow screens). */
export function FlightsPanel({ onUpgrade, onAddFlight }: FlightsPanelProps) {
  useApprovalLink();
  const { data: user } = useCurrentUser();
  const premium = isPremium(user);
  return (
    <FlightsQuery>
      {(flights) => {
        const monitored = monitoredFlights(flights);
        // The counter counts what the plan's limit counts: watched flights, as the server says
        // (a flight whose day has passed, or cancelled, stays listed but no longer counts).
        const watched = flights.filter((f) => f.isWatched).length;
        return (
          <Stack gap="5">
            <Flex justify="space-between" align="center" gap="3" wrap="wrap">
              <Text color="fg.muted" fontSize="sm">
                {premium || !user
                  ? `${watched} monitored ${watched === 1 ? 'flight' : 'flights'}`
                  : `${watched} of ${user.flightLimit} flights on the free plan`}
              </Text>
              <Flex gap="2" wrap="wrap">
                <Button size="sm" variant="outline" onClick={onAddFlight}>
                  Add a flight
                </Button>
                {!premium && (
                  <Button size="sm" colorPalette="brand" onClick={onUpgrade}>
                    Upgrade
                  </Button>
                )}
              </Flex>
            </Flex>
            {monitored.length === 0 ? (
              <EmptyState
                title="No flights yet"
                description="No monitored flights found. Connect your email to start monitoring flight confirmations."
                action={
                  <Button asChild size="sm" variant="outline">
                    <RouterLink to="/connect-email">Connect email</RouterLink>
                  </Button>
                }
              />
            ) : (
              <FlightGrid flights={monitored} />
            )}
          </Stack>
        );
      }}
    </FlightsQuery>
  );
}

/** Tab 1: rebooked flights and what they saved in total. */
export function HistoryPanel() {
  return (
    <FlightsQuery>
      {(flights) => {
        const rebooked = rebookedFlights(flights);
        if (rebooked.length === 0) {
          return (
            <EmptyState
              title="No rebookings yet"
              description="Your rebooking history will appear here once you have rebooked flights."
            />
          );
        }
        const total = totalSavings(rebooked);
        return (
          <Stack gap="6">
            <Card.Root variant="subtle" bg="green.subtle" aria-label="Total savings">
              <Card.Body>
                <Flex
                  justify="space-between"
                  align={{ base: 'flex-start', sm: 'center' }}
                  gap="3"
                  direction={{ base: 'column', sm: 'row' }}
                >
                  <Box>
                    <Heading as="h2" size="md">
                      Total savings
                    </Heading>
                    <Text color="fg.muted" fontSize="sm">
                      Airline credit from {rebooked.length} {rebooked.length === 1 ? 'rebooking' : 'rebookings'}
                    </Text>
                  </Box>
                  <Box textAlign={{ base: 'left', sm: 'right' }}>
                    <Text fontSize="3xl" fontWeight="bold" color="green.fg">
                      {formatMoney(total.credits, 0)}
                    </Text>
                    <Text fontSize="sm" color="fg.muted">
                      {formatPercent(total.percent)} of {formatMoney(total.originalTotal, 0)} in original fares
                    </Text>
                  </Box>
                </Flex>
              </Card.Body>
            </Card.Root>
            <FlightGrid flights={rebooked} />
          </Stack>
        );
      }}
    </FlightsQuery>
  );
}

/** Tab 2: the airline credits rebookings earned. */
export function CreditsPanel() {
  return (
    <FlightsQuery>
      {(flights) => {
        const credits = creditFlights(flights);
        if (credits.length === 0) {
          return (
            <EmptyState
              title="No airline credits yet"
              description="Credits appear here after a flight is rebooked at a lower price."
            />
          );
        }
        return (
          <Stack as="ul" gap="3" listStyleType="none" aria-label="Airline credits">
            {credits.map((flight) => (
              <Card.Root as="li" key={flight.id} variant="outline" size="sm">
                <Card.Body>
                  <Flex justify="space-between" gap="4" wrap="wrap" align="flex-start">
                    <Box minW="0">
                      <Text fontWeight="semibold">{flight.airline}</Text>
                      <Text fontSize="sm" color="fg.muted">
                        {flight.flightNumber} · {flight.departureAirport} → {flight.arrivalAirport} ·{' '}
                        {flight.isRoundTrip ? 'Round Trip' : 'One Way'}
                      </Text>
                    </Box>
                    <Text fontSize="xl" fontWeight="bold" color="green.fg">
                      {formatMoney(flight.airlineCredit)}
                    </Text>
                  </Flex>
                  <SimpleGrid as="dl" columns={{ base: 1, sm: 3 }} gap="2" mt="3" fontSize="sm">
                    <CreditFact label="Reference">{flight.creditReferenceNumber ?? 'Not available'}</CreditFact>
                    <CreditFact label="Expires">{formatDate(flight.creditExpiryDate)}</CreditFact>
                    <CreditFact label="Earned">{formatDate(flight.rebookingDate)}</CreditFact>
                  </SimpleGrid>
                </Card.Body>
              </Card.Root>
            ))}
          </Stack>
        );
      }}
    </FlightsQuery>
  );
}

function CreditFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex gap="1.5" minW="0">
      <Text as="dt" color="fg.muted">
        {label}:
      </Text>
      <Text as="dd" fontWeight="medium" overflowWrap="anywhere">
        {children}
      </Text>
    </Flex>
  );
}
