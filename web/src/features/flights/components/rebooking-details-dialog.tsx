import { Button, Dialog, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { airlineLinks, savingsSummary } from '../display';
import type { Flight } from '@shared/types/flights.ts';
import type { ReactNode } from 'react';
import { LuExternalLink } from 'react-icons/lu';
import { formatDate, formatDateTime, formatMoney, formatPercent } from '@/lib/format';
import { Detail, DetailList } from './flight-details';
import { FlightDialog } from './flight-dialog';

interface RebookingDetailsDialogProps {
  flight: Flight;
  onClose: () => void;
}

/** 'View Rebooking Details': its five sections, for a rebooked flight. */
export function RebookingDetailsDialog({ flight, onClose }: RebookingDetailsDialogProps) {
  const { savings, percent } = savingsSummary(flight);
  const links = airlineLinks(flight);
  // The credit lives with the airline: its own website, or a search for it when we have no link.
  const airlineWebsite =
    links.kind === 'airline'
      ? links.websiteUrl
      : `https://www.google.com/search?q=${encodeURIComponent(`${flight.airline} travel credit`)}`;
  const commission = flight.commissionAmount ?? 0;
  // the rate recorded with the rebooking (a plan's rate, or the traveller's plan, may have changed since)
  const rate = flight.commissionRate;

  return (
    <FlightDialog closeLabel="Close rebooking details" onClose={onClose}>
      <Dialog.Header>
        <Dialog.Title>Rebooking Details</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="6">
          <Section title="Flight Information">
            <DetailList>
              <Detail label="Airline">{flight.airline}</Detail>
              <Detail label="Flight">{flight.flightNumber}</Detail>
              <Detail label="Route">
                {flight.departureAirport} → {flight.arrivalAirport}
              </Detail>
              <Detail label="Departure">{formatDate(flight.departureDate)}</Detail>
              {flight.isRoundTrip && (
                <Detail label="Return">
                  {formatDate(flight.returnDate)}
                  {flight.returnFlightNumber ? ` · ${flight.returnFlightNumber}` : ''}
                </Detail>
              )}
              <Detail label="Booking reference">{flight.bookingCode}</Detail>
              <Detail label="Passenger">{flight.passengerLastName}</Detail>
            </DetailList>
          </Section>
          <Section title="Price & Savings">
            <DetailList>
              <Detail label="Original price">{formatMoney(flight.originalPrice)}</Detail>
              <Detail label="New booking price">{formatMoney(flight.rebookingPrice)}</Detail>
              <Detail label="You saved">
                {formatMoney(savings)} ({formatPercent(percent)})
              </Detail>
              <Detail label="Rebooked on">{formatDate(flight.rebookingDate)}</Detail>
            </DetailList>
            <DropProof flight={flight} />
          </Section>
          <Section title="Airline Credit Information">
            <DetailList>
              <Detail label="Credit amount">{formatMoney(flight.airlineCredit)}</Detail>
              <Detail label="Reference number">{flight.creditReferenceNumber ?? 'Not available'}</Detail>
              <Detail label="Expires">{formatDate(flight.creditExpiryDate)}</Detail>
            </DetailList>
            <Text fontSize="sm" color="fg.muted">
              Airline credit is typically valid for one year. Use the reference number when you book your next trip with{' '}
              {flight.airline}.
            </Text>
            <Button asChild variant="outline" alignSelf="flex-start">
              <a href={airlineWebsite} target="_blank" rel="noopener noreferrer">
                Check Credit on the airline
                <Icon as={LuExternalLink} aria-hidden />
              </a>
            </Button>
          </Section>
          <Section title="Seat Information">
            <DetailList>
              <Detail label="Seat">{flight.seatNumber ?? 'Not assigned'}</Detail>
              <Detail label="Cabin class">{flight.cabinClass ?? 'Not stated'}</Detail>
            </DetailList>
            <Text fontSize="sm" color="fg.muted">
              Your seat was kept when the booking was changed to the lower fare.
            </Text>
          </Section>
          <Section title="Commission Information">
            {commission > 0 ? (
              <Text>
                A commission of {formatMoney(commission)}
                {rate !== null ? ` (${rate}% of the airline credit)` : ''} will appear on your next billing statement.
                It is charged only because this rebooking succeeded.
              </Text>
            ) : (
              <Text>No commission is charged on this rebooking.</Text>
            )}
          </Section>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Dialog.ActionTrigger asChild>
          <Button variant="outline">Close</Button>
        </Dialog.ActionTrigger>
      </Dialog.Footer>
    </FlightDialog>
  );
}

const QUOTE_LABELS = ['First quote (drop seen)', 'Second quote (drop confirmed)'];

/**
 * The quotes that proved the drop before anything was done about it (issue 24, "proof of a
 * drop"): the first showed it, the second, taken apart from it, confirmed it.
 */
function DropProof({ flight }: { flight: Flight }) {
  const quotes = flight.dropQuotes ?? [];
  if (quotes.length === 0) return null;
  return (
    <Stack as="section" gap="2" aria-label="How the drop was confirmed">
      <Text fontSize="sm" color="fg.muted">
        FareBack acted only after a second, separate quote confirmed the lower fare; the airline checked it again when
        the booking was changed.
      </Text>
      <DetailList>
        {quotes.map((quote, index) => (
          <Detail key={`${quote.quotedAt}-${index}`} label={QUOTE_LABELS[index] ?? `Quote ${index + 1}`}>
            {formatMoney(quote.price)}
            <Text as="span" display="block" fontSize="sm" fontWeight="normal" color="fg.muted">
              {formatDateTime(quote.quotedAt)} · {quote.source}
              {quote.offerId ? ` · offer ${quote.offerId}` : ''}
            </Text>
          </Detail>
        ))}
      </DetailList>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack as="section" gap="3" aria-label={title}>
      <Heading as="h3" size="sm">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}
