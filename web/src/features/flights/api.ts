import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ConfirmRebookingInput, ManualFlight } from '@shared/schemas/flights.ts';
import type {
  AddFlightResponse,
  CheckPriceResponse,
  DashboardStats,
  FlightsResponse,
  RebookResponse,
} from '@shared/types/flights.ts';
import { apiRequest } from '@/lib/api-client';

/*
 * Flight calls (spec section 7). The dashboard stats are derived from the flights, so they share
 * the 'flights' key prefix: every mutation here invalidates the list and the stats through the
 * MutationCache (`meta.invalidates`), never in its own callbacks. Error toasts come from
 * `meta.errorTitle` with the server's message; success toasts stay with the components, which
 * know the wording and the flight.
 */
export const flightKeys = {
  all: ['flights'] as const,
  list: () => [...flightKeys.all, 'list'] as const,
  stats: () => [...flightKeys.all, 'stats'] as const,
};

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

export function addFlight(input: ManualFlight): Promise<AddFlightResponse> {
  return apiRequest<AddFlightResponse>('POST', '/flights/manual', input);
}

export function checkPrice(flightId: number): Promise<CheckPriceResponse> {
  return apiRequest<CheckPriceResponse>('POST', `/flights/${flightId}/check-price`, {});
}

export function rebookFlight(flightId: number): Promise<RebookResponse> {
  return apiRequest<RebookResponse>('POST', `/flights/${flightId}/rebook`, {});
}

export function confirmRebooking(flightId: number, input: ConfirmRebookingInput): Promise<RebookResponse> {
  return apiRequest<RebookResponse>('POST', `/flights/${flightId}/confirm-rebooking`, input);
}

export function useAddFlight() {
  return useMutation({
    mutationFn: addFlight,
    meta: {
      invalidates: refreshFlightsAndStats,
      errorTitle: 'Error Adding Flight',
      errorFallback: 'There was an error adding your flight. Please try again.',
    },
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
  });
}

export function useRebookFlight() {
  return useMutation({
    mutationFn: rebookFlight,
    meta: {
      invalidates: refreshFlightsAndStats,
      errorTitle: 'Rebooking failed',
      errorFallback: 'The flight could not be rebooked. Please try again.',
    },
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
  });
}
