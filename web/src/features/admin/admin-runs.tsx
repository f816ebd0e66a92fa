import { Button, Flex } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import type { RunAutoRebookingResponse } from '@shared/types/auto-rebooking.ts';
import type { RunPriceCheckResponse } from '@shared/types/flights.ts';
import { notify } from '@/components/ui/toaster';
import { apiRequest } from '@/lib/api-client';
import { formatCount, formatMoney } from '@/lib/format';
import { adminKeys } from './api';

/*
 * The /admin header's manual runs. Each button has its own mutation, so one shows its progress
 * while the other stays usable. A finished run refreshes every admin query (adminKeys.all: the
 * stats, the lists and the audit log, which records the run); errors are the MutationCache's
 * toast (the server's message, else the spec's text).
 */

export function runPriceCheck(): Promise<RunPriceCheckResponse> {
  return apiRequest<RunPriceCheckResponse>('POST', '/admin/run-price-check');
}

export function runAutoRebooking(): Promise<RunAutoRebookingResponse> {
  return apiRequest<RunAutoRebookingResponse>('POST', '/admin/run-auto-rebooking');
}

/** 'Rebooked 2 flights, saving $150.00 in airline credit' */
export function autoRebookingSummary({ rebookedCount, savingsAmount }: RunAutoRebookingResponse): string {
  return `Rebooked ${formatCount(rebookedCount, 'flight')}, saving ${formatMoney(savingsAmount)} in airline credit`;
}

function useRunPriceCheck() {
  return useMutation({
    mutationFn: runPriceCheck,
    meta: {
      invalidates: [adminKeys.all],
      errorTitle: 'Price Check Failed',
      errorDescription: 'An error occurred while running the price check',
    },
    onSuccess: (result) =>
      notify({
        title: 'Price Check Completed',
        // The api's sentence carries the counts ('Checked 12 flights and found 3 price drops.') and
        // says so when the sweep goes on in the background after the call's time.
        description: result.message,
        status: 'success',
      }),
  });
}

function useRunAutoRebooking() {
  return useMutation({
    mutationFn: runAutoRebooking,
    meta: {
      invalidates: [adminKeys.all],
      errorTitle: 'Auto-Rebooking Failed',
      errorDescription: 'An error occurred while running auto-rebooking',
    },
    onSuccess: (result) =>
      notify({ title: 'Auto-Rebooking Completed', description: autoRebookingSummary(result), status: 'success' }),
  });
}

/** 'Run Price Check' and 'Run Auto-Rebooking'; on a phone they share the row and wrap below the title. */
export function AdminRuns() {
  const priceCheck = useRunPriceCheck();
  const autoRebooking = useRunAutoRebooking();
  return (
    <Flex gap="3" wrap="wrap" width={{ base: 'full', md: 'auto' }}>
      <Button
        colorPalette="brand"
        flex={{ base: '1 1 auto', md: 'none' }}
        loading={priceCheck.isPending}
        loadingText="Checking prices..."
        onClick={() => priceCheck.mutate()}
      >
        Run Price Check
      </Button>
      <Button
        variant="outline"
        flex={{ base: '1 1 auto', md: 'none' }}
        loading={autoRebooking.isPending}
        loadingText="Rebooking..."
        onClick={() => autoRebooking.mutate()}
      >
        Run Auto-Rebooking
      </Button>
    </Flex>
  );
}
