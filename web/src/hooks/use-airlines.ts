import { useQuery } from '@tanstack/react-query';
import type { AirlinesResponse } from '@shared/types/flights.ts';
import { apiRequest } from '@/lib/api-client';

/**
 * The product's one airline list (`GET /api/airlines`): the picker of the Add form and the
 * dashboard's supported airlines both read it, so it lives with the shared hooks.
 */
export function useAirlines() {
  return useQuery({
    queryKey: ['airlines'],
    queryFn: () => apiRequest<AirlinesResponse>('GET', '/airlines'),
    staleTime: Infinity,
  });
}
