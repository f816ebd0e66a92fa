import { type QueryKey, useMutation } from '@tanstack/react-query';
import type {
  AutoRebookingToggleInput,
  NotificationPreferencesInput,
  PriceAlertThresholdsInput,
  RebookingThresholdsInput,
  SettingsResponse,
} from '@shared/schemas/settings.ts';
import type { ExecuteAutoRebookingResponse } from '@shared/types/auto-rebooking.ts';
import { notify } from '@/components/ui/toaster';
import { ApiError, apiRequest, errorMessage } from '@/lib/api-client';
import { authKeys } from '@/lib/auth';

/*
 * The settings calls. Every save refreshes the current user (its query key is lib/auth.ts's), by
 * the MutationCache's `meta.invalidates`; toasts are the cards' texts, in the hooks' own
 * callbacks or in `meta.errorTitle`.
 */

const refreshUser = [authKeys.me()] as const;

export function toggleAutoRebooking(input: AutoRebookingToggleInput): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('POST', '/auto-rebooking/toggle', input);
}

export function executeAutoRebooking(): Promise<ExecuteAutoRebookingResponse> {
  return apiRequest<ExecuteAutoRebookingResponse>('POST', '/auto-rebooking/execute');
}

export function saveRebookingThresholds(input: RebookingThresholdsInput): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('POST', '/auto-rebooking/thresholds', input);
}

export function saveNotificationPreferences(input: NotificationPreferencesInput): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('POST', '/notifications/preferences', input);
}

export function savePriceAlertThresholds(input: PriceAlertThresholdsInput): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('POST', '/price-alerts/thresholds', input);
}

/** The toggle's card reverts the switch itself; the toast is here. */
export function useToggleAutoRebooking() {
  return useMutation({
    mutationFn: toggleAutoRebooking,
    meta: {
      invalidates: refreshUser,
      errorTitle: 'Failed to update auto-rebooking settings',
      errorFallback: 'Your change was not saved. Please try again.',
    },
  });
}

/**
 * A refusal of the run answers `{message, details}` ('Auto-rebooking is disabled' / 'Enable
 * auto-rebooking before running this operation.'): the toast shows both.
 */
function runFailure(error: unknown): string {
  const fallback = 'The auto-rebooking check could not be run. Please try again.';
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null && 'details' in error.body) {
    const { details } = error.body as { details: unknown };
    if (typeof details === 'string' && details) return `${errorMessage(error, fallback)}: ${details}`;
  }
  return errorMessage(error, fallback);
}

/** `refreshAfterRun`: the flights and stats queries, named by the app (features never import each other). */
export function useExecuteAutoRebooking(refreshAfterRun: readonly QueryKey[]) {
  return useMutation({
    mutationFn: executeAutoRebooking,
    meta: { invalidates: [...refreshAfterRun, authKeys.me()] },
    onError: (error) => notify({ title: 'Auto-rebooking failed', description: runFailure(error), status: 'error' }),
  });
}

export function useSaveRebookingThresholds() {
  return useMutation({
    mutationFn: saveRebookingThresholds,
    meta: {
      invalidates: refreshUser,
      errorTitle: 'Failed to update thresholds',
      errorFallback: 'Your thresholds were not saved. Please try again.',
    },
    onSuccess: () =>
      notify({
        title: 'Auto-rebooking thresholds updated',
        description: 'Flights are rebooked automatically when their savings meet these thresholds.',
        status: 'success',
      }),
  });
}

export function useSaveNotificationPreferences() {
  return useMutation({
    mutationFn: saveNotificationPreferences,
    meta: { invalidates: refreshUser },
    onSuccess: () =>
      notify({
        title: 'Preferences Updated',
        description: 'Your notification preferences have been saved.',
        status: 'success',
      }),
    onError: (error) =>
      notify({
        title: 'Error',
        description: `Failed to update preferences: ${errorMessage(error, 'please try again.')}`,
        status: 'error',
      }),
  });
}

export function useSavePriceAlertThresholds() {
  return useMutation({
    mutationFn: savePriceAlertThresholds,
    meta: {
      invalidates: refreshUser,
      errorTitle: 'Failed to update thresholds',
      errorFallback: 'Your price alert thresholds were not saved. Please try again.',
    },
    onSuccess: () =>
      notify({
        title: 'Thresholds updated',
        description: 'Price alerts fire when a drop meets either threshold.',
        status: 'success',
      }),
  });
}
