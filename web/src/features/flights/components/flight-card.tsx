import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Flex,
  HStack,
  Heading,
  Icon,
  Link,
  Separator,
  Stack,
  Text,
} from '@chakra-ui/react';
import {
  airlineLinks,
  eligibilityBadge,
  eligibilityExplanation,
  isMissedOpportunity,
  netSavingsView,
  lastCheckedLabel,
  rebookAction,
  rebookingPathLabel,
  savingsSummary,
} from '../display';
import { CARD_BORDER_COLOURS, cardState, type CardStateInput } from '../card-state';
import { lazy, Suspense, useState } from 'react';
import { LuArrowRight, LuCircleAlert, LuExternalLink, LuHandshake, LuTrash2, LuZap } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { formatDate, formatMoney, formatPercent } from '@/lib/format';
import { useCheckPrice, useRebookFlight } from '../api';
import { AssistedRebookingDialog } from './assisted-rebooking-dialog';
import { Detail, DetailList } from './flight-details';
import { PartyPrice } from './party-price';
import { RebookingDetailsDialog } from './rebooking-details-dialog';
import { StopMonitoringDialog } from './stop-monitoring-dialog';
import { useNow } from './use-now';

// recharts is the dashboard's heaviest dependency; it loads with the first card that has a history.
const PriceHistoryChart = lazy(() => import('./price-history-chart'));

// The dashboard's Subscription tab (features/dashboard/tabs.ts), where the upgrade is.
const UPGRADE_URL = '/dashboard?tab=plan';

interface FlightCardProps {
  flight: CardStateInput;
  /** Whether the Missed Opportunity notice offers the upgrade (not to premium members). */
  offerUpgrade?: boolean;
  /** The traveller is premium with automatic rebooking on: FareBack rebooks without a click. */
  autoRebooking?: boolean;
}

/** One monitored or rebooked flight; money with 2 decimals. */
export function FlightCard({ flight, offerUpgrade = true, autoRebooking = false }: FlightCardProps) {
  const now = useNow();
  const checkPrice = useCheckPrice();
  const rebook = useRebookFlight();
  const [dialog, setDialog] = useState<'details' | 'assisted' | 'stop' | null>(null);

  const state = cardState(flight, now);
  const offReasonId = `card-actions-off-${flight.id}`;
  const eligibility = eligibilityBadge(flight);
  const { savings, percent } = savingsSummary(flight);
  // Once the fare is past acting on (departed, cancelled, being rebooked), what a drop would save
  // is no longer part of the card's story.
  const actionable = state.actionsOffReason === null;
  const net = actionable ? netSavingsView(flight) : null;
  const links = airlineLinks(flight);
  const action = rebookAction(flight);
  const title = `${flight.airline} ${flight.flightNumber}`;

  const onCheckNow = () => checkPrice.mutate(flight.id);

  const onRebook = () => {
    if (action.kind !== 'rebook') return;
    // Bookings the fare source cannot change go through the assisted flow (the api answers 409).
    if (action.method === 'assisted') {
      setDialog('assisted');
      return;
    }
    rebook.mutate(flight.id);
  };

  return (
    <Card.Root
      as="article"
      aria-label={title}
      variant="outline"
      borderLeftWidth="6px"
      borderLeftColor={CARD_BORDER_COLOURS[state.border]}
      data-border-tone={state.border}
      data-state={state.kind}
      height="full"
      minW="0"
    >
      <Card.Header gap="2">
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Box minW="0">
            <Heading as="h3" size="md">
              {title}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              Booking {flight.bookingCode} · Passenger {flight.passengerLastName}
            </Text>
          </Box>
          <HStack gap="2" wrap="wrap">
            <Badge colorPalette={state.badge.tone} variant="solid" size="md">
              {state.badge.label}
            </Badge>
            <Badge colorPalette={eligibility.tone} variant="subtle" size="md">
              {eligibility.label}
            </Badge>
          </HStack>
        </Flex>
      </Card.Header>

      <Card.Body gap="4" pt="3">
        <Stack gap="1">
          <HStack gap="2" wrap="wrap">
            <Text fontWeight="semibold">{formatDate(flight.departureDate)}</Text>
            {flight.isRoundTrip && flight.returnDate && <Text color="fg.muted">– {formatDate(flight.returnDate)}</Text>}
            <Badge variant="outline" colorPalette="gray">
              {flight.isRoundTrip ? 'Round Trip' : 'One Way'}
            </Badge>
          </HStack>
          <HStack
            gap="2"
            fontSize="lg"
            fontWeight="semibold"
            aria-label={`From ${flight.departureAirport} to ${flight.arrivalAirport}`}
          >
            <Text>{flight.departureAirport}</Text>
            <Icon as={LuArrowRight} color="fg.muted" aria-hidden />
            <Text>{flight.arrivalAirport}</Text>
          </HStack>
          {flight.returnFlightNumber && (
            <Text fontSize="sm" color="fg.muted">
              Return flight {flight.returnFlightNumber}
            </Text>
          )}
        </Stack>

        <DetailList columns={3}>
          <Detail label="Original price">
            <PartyPrice total={flight.originalPrice} passengers={flight.passengerCount} />
          </Detail>
          {flight.hasBeenRebooked ? (
            <Detail label="New booking price">
              {flight.rebookingPrice === null ? (
                formatMoney(null)
              ) : (
                <PartyPrice total={flight.rebookingPrice} passengers={flight.passengerCount} />
              )}
            </Detail>
          ) : (
            <Detail label="Current price">
              {flight.currentPrice === null ? (
                'Not checked'
              ) : (
                <PartyPrice total={flight.currentPrice} passengers={flight.passengerCount} />
              )}
            </Detail>
          )}
          <Detail label="Last checked">{lastCheckedLabel(flight.lastChecked, now)}</Detail>
          <Detail label="Lowest price">{flight.lowestPrice === null ? 'N/A' : formatMoney(flight.lowestPrice)}</Detail>
          <Detail label="Highest price">
            {flight.highestPrice === null ? 'N/A' : formatMoney(flight.highestPrice)}
          </Detail>
          <Detail label={flight.hasBeenRebooked ? 'Total savings' : 'Potential savings'}>
            <Text as="span" color={savings > 0 ? 'green.fg' : undefined}>
              {formatMoney(savings)} ({formatPercent(percent)})
            </Text>
          </Detail>
        </DetailList>

        {net && (
          <Stack gap="1" data-testid="net-savings">
            <HStack gap="2" wrap="wrap">
              <Text fontSize="sm" fontWeight="semibold">
                Net savings after fees: {formatMoney(net.amount)}
                {net.fee > 0 && (
                  <Text as="span" fontWeight="normal" color="fg.muted">
                    {' '}
                    ({formatMoney(net.fee)} change fee)
                  </Text>
                )}
              </Text>
              <Badge colorPalette={net.tone}>{net.badge}</Badge>
            </HStack>
            <Text fontSize="sm" color="fg.muted">
              {net.reason}
            </Text>
            {action.kind === 'rebook' && action.label === 'Approve rebooking' && (
              <Text fontSize="sm" data-testid="approval-needed">
                New fare {formatMoney(flight.currentPrice)}: approve and FareBack rebooks at once if the fare still
                holds. {flight.rebookingRule.explanation}.
              </Text>
            )}
          </Stack>
        )}

        <Stack gap="2">
          <Text fontSize="sm" fontWeight="semibold">
            Price history
          </Text>
          {flight.priceHistory.length > 0 ? (
            <Suspense fallback={<Box height="120px" aria-hidden />}>
              <PriceHistoryChart points={flight.priceHistory} originalPrice={flight.originalPrice} />
            </Suspense>
          ) : (
            <Text fontSize="sm" color="fg.muted">
              No price checks yet. Use Check Now to record the current fare.
            </Text>
          )}
          {actionable && isMissedOpportunity(flight) && (
            <Alert.Root status="warning" variant="subtle" borderRadius="md">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Missed Opportunity</Alert.Title>
                <Alert.Description>
                  This fare dropped by {formatMoney(savings)}, but {flight.fareType ?? 'this'} tickets cannot be
                  changed, so the saving cannot be claimed. Book a refundable or flexible fare next time, and let
                  FareBack rebook it for you.{' '}
                  {offerUpgrade && (
                    <Link asChild fontWeight="semibold" color="orange.fg">
                      <RouterLink to={UPGRADE_URL}>Upgrade to Premium</RouterLink>
                    </Link>
                  )}
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
        </Stack>

        <DetailList>
          <Detail label="Seat">{flight.seatNumber ?? 'Not assigned'}</Detail>
          <Detail label="Cabin class">{flight.cabinClass ?? 'Not stated'}</Detail>
          {flight.passengerCount !== null && <Detail label="Travellers">{flight.passengerCount}</Detail>}
          {flight.hasBeenRebooked ? (
            <>
              <Detail label="Airline credit">{formatMoney(flight.airlineCredit)}</Detail>
              <Detail label="Credit expires">{formatDate(flight.creditExpiryDate)}</Detail>
            </>
          ) : (
            <Detail label="Fare type" fullRow>
              {flight.fareType ?? 'Unknown'}
              <Text fontSize="sm" fontWeight="normal" color="fg.muted" mt="1">
                {eligibilityExplanation(flight)}
              </Text>
            </Detail>
          )}
        </DetailList>

        {flight.isEligibleForRebooking && actionable && (
          <HStack gap="2" fontSize="sm" color="fg.muted">
            <Icon as={flight.rebookingMethod === 'source' ? LuZap : LuHandshake} aria-hidden />
            <Text>{rebookingPathLabel(flight.rebookingMethod, autoRebooking)}</Text>
          </HStack>
        )}

        <HStack gap="4" wrap="wrap" fontSize="sm">
          {links.kind === 'airline' ? (
            <>
              <ExternalLink href={links.flightStatusUrl}>Flight status</ExternalLink>
              <ExternalLink href={links.manageBookingUrl}>Manage booking</ExternalLink>
            </>
          ) : (
            <ExternalLink href={links.searchUrl}>Search flight status</ExternalLink>
          )}
        </HStack>
      </Card.Body>

      <Separator />
      <Card.Footer pt="4" gap="3" flexWrap="wrap" alignItems="center">
        {/* Check Now stays where the spec puts it; when the flight is past checking (rebooked,
            departed, cancelled, being rebooked) it cannot be pressed and the card says why. */}
        <Button
          variant="outline"
          onClick={onCheckNow}
          loading={checkPrice.isPending}
          loadingText="Checking..."
          disabled={!actionable}
          aria-describedby={actionable ? undefined : offReasonId}
        >
          Check Now
        </Button>
        {action.kind === 'details' && (
          <Button variant="subtle" onClick={() => setDialog('details')}>
            {action.label}
          </Button>
        )}
        {actionable && action.kind === 'rebook' && (
          <Button colorPalette="green" onClick={onRebook} loading={rebook.isPending} loadingText="Rebooking...">
            {action.label}
          </Button>
        )}
        {actionable && action.kind === 'explanation' && <CardNote>{action.text}</CardNote>}
        {actionable && action.kind === 'none' && (
          <Button variant="subtle" disabled>
            {action.label}
          </Button>
        )}
        {!actionable && state.actionsOffReason && <CardNote id={offReasonId}>{state.actionsOffReason}</CardNote>}
        {/* A rebooked flight is no longer monitored: it stays in History with its credit. */}
        {state.kind !== 'rebooked' && (
          <Button
            variant="ghost"
            colorPalette="red"
            ms="auto"
            onClick={() => setDialog('stop')}
            disabled={!state.canStopMonitoring}
            aria-describedby={state.canStopMonitoring ? undefined : offReasonId}
          >
            <LuTrash2 aria-hidden />
            Stop monitoring
          </Button>
        )}
      </Card.Footer>

      {dialog === 'details' && <RebookingDetailsDialog flight={flight} onClose={() => setDialog(null)} />}
      {dialog === 'assisted' && <AssistedRebookingDialog flight={flight} onClose={() => setDialog(null)} />}
      {dialog === 'stop' && <StopMonitoringDialog flight={flight} onClose={() => setDialog(null)} />}
    </Card.Root>
  );
}

/** A sentence in the footer saying why an action is not there or cannot be pressed. */
function CardNote({ id, children }: { id?: string; children: string }) {
  return (
    <HStack gap="2" align="flex-start" flex="1" minW="12rem" fontSize="sm" color="fg.muted">
      <Icon as={LuCircleAlert} color="orange.fg" mt="0.5" aria-hidden />
      <Text id={id}>{children}</Text>
    </HStack>
  );
}

function ExternalLink({ href, children }: { href: string; children: string }) {
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" color="brand.fg" fontWeight="medium">
      {children}
      <Icon as={LuExternalLink} boxSize="3.5" aria-hidden />
      <Text as="span" srOnly>
        (opens in a new tab)
      </Text>
    </Link>
  );
}
