import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ConfirmRebookingInput, ManualFlightInput } from '@shared/schemas/flights.ts';
import type {
  AddFlightResponse,
  AirportsResponse,
  CheckPriceResponse,
  DashboardStats,
  Flight,
  FlightsResponse,
  RebookResponse,
} from '@shared/types/flights.ts';
import { notify } from '@/components/ui/toaster';
import { ApiError, apiRequest } from '@/lib/api-client';
import { formatMoney, formatPercent } from '@/lib/format';
import { flightKeys } from './keys';

/*
 * Flight calls. The dashboard stats are derived from the flights, so they share
 * the 'flights' key prefix: every mutation here invalidates the list and the stats through the
 * MutationCache (`meta.invalidates`), never in its own callbacks. Error toasts come from
 * `meta.errorTitle` with the server's message. Success toasts are in the hooks' own `onSuccess`,
 * not in `mutate` callbacks: a rebooked flight moves from the Flights tab to History when the
 * list refetches, which unmounts its card, and TanStack Query skips the `mutate` callbacks of an
 * unmounted component.
 */

const refreshFlightsAndStats = [flightKeys.list(), flightKeys.stats()] as const;

export async function getFlights(): Promise<FlightsResponse['flights']> {
  const { flights } = await apiRequest<FlightsResponse>('GET', '/flights');
  return flights;
}

export function getDashboardStats(): Promise<DashboardStats> {
  return apiRequest<DashboardStats>('GET', '/dashboard/stats');
}

export const flightsQueryOptions = () => queryOptions({ queryKey: flightKeys.list(), queryFn: getFlights });

export const dashboardStatsQueryOptions = () =>
  queryOptions({ queryKey: flightKeys.stats(), queryFn: getDashboardStats });

export function useFlights() {
  return useQuery(flightsQueryOptions());
}

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions());
}

export function addFlight(input: ManualFlightInput): Promise<AddFlightResponse> {
  return apiRequest<AddFlightResponse>('POST', '/flights/manual', input);
}

export function checkPrice(flightId: number): Promise<CheckPriceResponse> {
  return apiRequest<CheckPriceResponse>('POST', `/flights/${flightId}/check-price`, {});
}

/** `{}` from the card's button; an approval email's link adds its signed single-use token. */
export function rebookFlight(flightId: number, approvalToken?: string): Promise<RebookResponse> {
  return apiRequest<RebookResponse>('POST', `/flights/${flightId}/rebook`, approvalToken ? { approvalToken } : {});
}

export function confirmRebooking(flightId: number, input: ConfirmRebookingInput): Promise<RebookResponse> {
  return apiRequest<RebookResponse>('POST', `/flights/${flightId}/confirm-rebooking`, input);
}

export function removeFlight(flightId: number): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('DELETE', `/flights/${flightId}`);
}

/** The rebooking toast shows the savings and the percent saved. */
function notifyRebooked(result: RebookResponse): void {
  notify({
    title: 'Flight rebooked successfully',
    description: `You saved ${formatMoney(result.savings)} (${formatPercent(result.percentSaved)}) as airline credit.`,
    status: 'success',
  });
}

/** The 422 of `POST /api/flights/manual` that asks for the itinerary: the booking could not be retrieved. */
export function needsItinerary(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status === 422 &&
    (error.body as { needsItinerary?: unknown } | undefined)?.needsItinerary === true
  );
}

export function useAddFlight() {
  return useMutation({
    mutationFn: addFlight,
    meta: {
      invalidates: refreshFlightsAndStats,
      quietWhen: needsItinerary,
      errorTitle: 'Error Adding Flight',
      errorFallback: 'There was an error adding your flight. Please try again.',
    },
    onSuccess: () =>
      notify({
        title: 'Flight Added',
        description: 'Your flight has been added successfully and will now be monitored.',
        status: 'success',
      }),
  });
}

export function useCheckPrice() {
  return useMutation({
    mutationFn: checkPrice,
    meta: {
      invalidates: refreshFlightsAndStats,
      errorTitle: 'Failed to check price',
      errorFallback: 'The price could not be checked. Please try again.',
    },
    onSuccess: () =>
      notify({ title: 'Price check complete', description: 'Flight price has been updated.', status: 'success' }),
  });
}

export function useRebookFlight() {
  return useMutation({
    mutationFn: (flightId: number) => rebookFlight(flightId),
    meta: {
      invalidates: refreshFlightsAndStats,
      errorTitle: 'Rebooking failed',
      errorFallback: 'The flight could not be rebooked. Please try again.',
    },
    onSuccess: notifyRebooked,
  });
}

/** The approval email's link: its token approves one rebooking, once (POST /api/flights/{id}/rebook). */
export function useApproveRebooking() {
  return useMutation({
    mutationFn: ({ flightId, approvalToken }: { flightId: number; approvalToken: string }) =>
      rebookFlight(flightId, approvalToken),
    meta: {
      invalidates: refreshFlightsAndStats,
      errorTitle: 'Rebooking failed',
      errorFallback: 'The approval link could not be used. Open the flight below to rebook it.',
    },
    onSuccess: notifyRebooked,
  });
}

export function useConfirmRebooking() {
  return useMutation({
    mutationFn: ({ flightId, input }: { flightId: number; input: ConfirmRebookingInput }) =>
      confirmRebooking(flightId, input),
    meta: {
      invalidates: refreshFlightsAndStats,
      errorTitle: 'Rebooking failed',
      errorFallback: 'The rebooking could not be recorded. Please try again.',
    },
    onSuccess: notifyRebooked,
  });
}

/**
 * 'Stop monitoring': removes the flight (the api keeps its rebooking, credit and billing records).
 * Takes the flight so the toast can name it; while a rebooking is under way the api answers 409
 * and the error toast shows its reason.
 */
export function useRemoveFlight() {
  return useMutation({
    mutationFn: (flight: Pick<Flight, 'id' | 'airline' | 'flightNumber'>) => removeFlight(flight.id),
    meta: {
      invalidates: refreshFlightsAndStats,
      errorTitle: 'Could not stop monitoring',
      errorFallback: 'The flight could not be removed. Please try again.',
    },
    onSuccess: (_result, flight) =>
      notify({
        title: 'Monitoring stopped',
        description: `${flight.airline} ${flight.flightNumber} is no longer monitored.`,
        status: 'success',
      }),
  });
}

/** The product's one airline list (`GET /api/airlines`); it changes only with a deploy. */
export { useAirlines } from '@/hooks/use-airlines';

/** Airports for what was typed (code, city or name), once two letters are there. */
export function useAirportSearch(text: string) {
  const q = text.trim();
  return useQuery({
    queryKey: ['airports', q.toLowerCase()],
    queryFn: () => apiRequest<AirportsResponse>('GET', `/airports?q=${encodeURIComponent(q)}`),
    enabled: q.length >= 2,
    staleTime: Infinity,
    // the suggestions stay while the next ones load: an option chosen stays in the list
    placeholderData: keepPreviousData,
  });
}
