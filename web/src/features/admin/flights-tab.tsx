import { Badge, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { adminFlightsQuerySchema } from '@shared/schemas/admin.ts';
import type { AdminFlight } from '@shared/types/admin.ts';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useTableUrlState } from '@/hooks/use-table-url-state';
import { formatDate, formatMoney } from '@/lib/format';
import { paginatedQueryOptions, type ListQuery } from '@/lib/pagination';
import { adminKeys } from './api';
import { tableOptionsOf } from './list-table-options';

/** The table's URL state (`flights.page`, `flights.q`...) over the endpoint's sort keys and defaults. */
const FLIGHT_TABLE = tableOptionsOf(adminFlightsQuerySchema, 'flights');
type FlightSortKey = (typeof FLIGHT_TABLE.sortKeys)[number];

export const adminFlightsQueryOptions = (query: ListQuery<FlightSortKey>) =>
  paginatedQueryOptions<AdminFlight, FlightSortKey>(adminKeys.flights(), '/admin/flights', query);

/** Spec: 'Rebooked' for a rebooked flight, 'Price Drop' for a drop, otherwise the raw status. */
export function flightStatusLabel(flight: Pick<AdminFlight, 'status' | 'hasBeenRebooked'>): string {
  if (flight.hasBeenRebooked || flight.status === 'rebooked') return 'Rebooked';
  if (flight.status === 'price_drop') return 'Price Drop';
  return flight.status;
}

const STATUS_PALETTE: Record<string, string> = { Rebooked: 'green', 'Price Drop': 'blue', cancelled: 'red' };

function FlightStatus({ flight }: { flight: AdminFlight }) {
  const label = flightStatusLabel(flight);
  return (
    <Badge colorPalette={STATUS_PALETTE[label] ?? 'gray'} variant="subtle">
      {label}
    </Badge>
  );
}

function Traveller({ flight }: { flight: AdminFlight }) {
  return (
    <Stack gap="0">
      <Text fontWeight="medium">{flight.username}</Text>
      <Text fontSize="xs" color="fg.muted">
        {flight.email}
      </Text>
    </Stack>
  );
}

/**
 * The commission on the flight's credit, at the rate recorded with the rebooking (the rate on hover
 * and to screen readers); a guided rebooking's declared credit that needs a look says so below.
 */
function Commission({ flight }: { flight: AdminFlight }) {
  const rate = `${flight.commissionRate}% of the airline credit`;
  const amount = (
    // relative: the hidden text is positioned absolutely, and must stay inside the table's scroll box
    <Text as="span" title={rate} position="relative">
      {formatMoney(flight.commission)}
      <VisuallyHidden> ({rate})</VisuallyHidden>
    </Text>
  );
  if (!flight.creditReview) return amount;
  return (
    <Stack gap="0" align="flex-end">
      {amount}
      <Text as="span" fontSize="xs" color="fg.warning" title={flight.creditReview} position="relative">
        Credit to review
        <VisuallyHidden>: {flight.creditReview}</VisuallyHidden>
      </Text>
    </Stack>
  );
}

const moneyOrNone = (cents: number | null) => (cents === null ? '—' : formatMoney(cents));

const route = (flight: AdminFlight) =>
  flight.departureAirport || flight.arrivalAirport
    ? `${flight.departureAirport ?? '?'} → ${flight.arrivalAirport ?? '?'}`
    : 'N/A';

const columns: DataTableColumn<AdminFlight, FlightSortKey>[] = [
  { id: 'traveller', header: 'Traveller', cell: (flight) => <Traveller flight={flight} />, sortKey: 'user' },
  {
    id: 'flight',
    header: 'Flight',
    // the route under the flight keeps the table narrow enough for the commission at 1280 px
    cell: (flight) => (
      <>
        <Text whiteSpace="nowrap">
          {flight.airline}
          {flight.flightNumber ? ` ${flight.flightNumber}` : ''}
        </Text>
        <Text textStyle="xs" color="fg.muted" whiteSpace="nowrap">
          {route(flight)}
        </Text>
      </>
    ),
    sortKey: 'airline',
  },
  {
    id: 'bookingCode',
    header: 'Booking Code',
    cell: (flight) => <Text fontFamily="mono">{flight.bookingCode}</Text>,
    sortKey: 'bookingCode',
  },
  {
    id: 'departureDate',
    header: 'Departure',
    cell: (flight) => <Text whiteSpace="nowrap">{formatDate(flight.departureDate)}</Text>,
    sortKey: 'departureDate',
  },
  { id: 'status', header: 'Status', cell: (flight) => <FlightStatus flight={flight} />, sortKey: 'status' },
  {
    id: 'originalPrice',
    header: 'Price Paid',
    cell: (flight) => formatMoney(flight.originalPrice),
    sortKey: 'originalPrice',
    numeric: true,
  },
  { id: 'currentPrice', header: 'Current', cell: (flight) => moneyOrNone(flight.currentPrice), numeric: true },
  {
    id: 'airlineCredit',
    header: 'Airline Credit',
    cell: (flight) => moneyOrNone(flight.airlineCredit),
    sortKey: 'airlineCredit',
    numeric: true,
  },
  { id: 'commission', header: 'Commission', cell: (flight) => <Commission flight={flight} />, numeric: true },
];

/** Every traveller's flights, paged, sorted and searched on the server. */
export function AdminFlightsTab() {
  const table = useTableUrlState(FLIGHT_TABLE);
  const flights = useQuery(adminFlightsQueryOptions(table.params));
  return (
    <DataTable
      caption="Flights"
      columns={columns}
      state={table}
      query={flights}
      rowKey={(flight) => flight.id}
      searchLabel="Search flights"
      errorTitle="Error loading flights"
      empty={{ title: 'No flights yet', description: 'Flights appear here once travellers add them.' }}
    />
  );
}
