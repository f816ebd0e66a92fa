import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ConfirmHeldBookingResponse,
  DismissHeldBookingResponse,
  EmailConfigErrorResponse,
  EmailConnectDevResponse,
  EmailConnectionResponse,
  EmailConnectResponse,
  EmailDisconnectResponse,
  EmailScanResponse,
  HeldBookingsResponse,
  ImportedEmailsResponse,
  ManualTokenExchangeResponse,
  OAuthConfigResponse,
  OAuthExchangeResponse,
} from '@shared/types/email.ts';
import { notify } from '@/components/ui/toaster';
import { ApiError, apiRequest, errorMessage } from '@/lib/api-client';
import { authKeys } from '@/lib/auth';

/*
 * The email import calls (docs/architecture.md, "Email import API"). Every change to the
 * connection refreshes the current user (its emailConnected drives the dashboard's badge) and
 * the connection itself.
 */

export const emailKeys = {
  all: ['email'] as const,
  config: () => [...emailKeys.all, 'oauth-config'] as const,
  connection: () => [...emailKeys.all, 'connection'] as const,
  messages: (page: number) => [...emailKeys.all, 'messages', page] as const,
  held: () => [...emailKeys.all, 'held'] as const,
};

/** The queries a connection change makes stale: the user (badge, panels) and everything email. */
const CONNECTION_CHANGED = [authKeys.me(), emailKeys.all] as const;

/** How often the connection is re-read while a scan is queued, running or waiting out a 429. */
export const SCAN_POLL_MS = 2000;

export function useOAuthConfig() {
  return useQuery({
    queryKey: emailKeys.config(),
    queryFn: () => apiRequest<OAuthConfigResponse>('GET', '/oauth/config'),
  });
}

export function useEmailConnection() {
  return useQuery({
    queryKey: emailKeys.connection(),
    queryFn: async () => (await apiRequest<EmailConnectionResponse>('GET', '/email/connection')).connection,
    refetchInterval: (query) => {
      const status = query.state.data?.scan?.status;
      return status === 'queued' || status === 'scanning' || status === 'waiting' ? SCAN_POLL_MS : false;
    },
  });
}

export const IMPORTED_EMAILS_PAGE_SIZE = 10;

export function useImportedEmails(page = 1) {
  return useQuery({
    queryKey: emailKeys.messages(page),
    queryFn: () =>
      apiRequest<ImportedEmailsResponse>('GET', '/email/messages', undefined, {
        query: { page, pageSize: IMPORTED_EMAILS_PAGE_SIZE, sort: 'readAt', order: 'desc' },
      }),
  });
}

/** Bookings from unknown senders held for the traveller to confirm (GET /api/email/held). */
export function useHeldBookings() {
  return useQuery({
    queryKey: emailKeys.held(),
    queryFn: async () => (await apiRequest<HeldBookingsResponse>('GET', '/email/held')).held,
  });
}

/**
 * Confirm: the held booking becomes a flight (watched unless the plan is full).
 * `refreshAfterConfirm`: the flights and stats queries, named by the app (features never import
 * each other).
 */
export function useConfirmHeldBooking(refreshAfterConfirm: readonly QueryKey[]) {
  return useMutation({
    mutationFn: (id: number) => apiRequest<ConfirmHeldBookingResponse>('POST', `/email/held/${id}/confirm`),
    meta: {
      invalidates: [emailKeys.all, ...refreshAfterConfirm, authKeys.me()],
      errorTitle: 'Could not confirm the booking',
      errorFallback: 'Please try again.',
    },
    onSuccess: (answer) =>
      notify({
        title: answer.watched ? 'Booking confirmed' : 'Booking added, not watched',
        description: answer.message,
        status: answer.watched ? 'success' : 'warning',
      }),
  });
}

/** Dismiss: the held booking is deleted; no flight is made. */
export function useDismissHeldBooking() {
  return useMutation({
    mutationFn: (id: number) => apiRequest<DismissHeldBookingResponse>('POST', `/email/held/${id}/dismiss`),
    meta: {
      invalidates: [emailKeys.all],
      errorTitle: 'Could not dismiss the booking',
      errorFallback: 'Please try again.',
    },
    onSuccess: (answer) => notify({ title: 'Booking dismissed', description: answer.message, status: 'info' }),
  });
}

/** The 503 of `GET /api/email/connect` when Google credentials are not configured. */
function configurationError(error: unknown): EmailConfigErrorResponse | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as Partial<EmailConfigErrorResponse> | undefined;
  if (typeof body?.message !== 'string' || !/configuration error/i.test(body.message)) return null;
  return { message: body.message, details: typeof body.details === 'string' ? body.details : '' };
}

export const DEV_TOGGLE_ADVICE =
  "Gmail is not configured on this server. Use 'Toggle Email (Dev)' to connect the sample mailbox instead.";

/** A 200 from `GET /api/email/connect` that carries no authorization URL. */
class NoAuthorizationUrlError extends Error {}

/**
 * 'Connect with Gmail': asks for Google's authorization URL and opens it in a new tab (the tab is
 * opened at the click, before the answer, so that popup blockers allow it); without a tab the
 * browser goes there itself. `onOpened` runs once Google's page is on its way.
 */
export function useConnectGmail({ devConnectAvailable }: { devConnectAvailable: boolean }) {
  return useMutation({
    mutationFn: async ({ tab }: { tab: Window | null }) => {
      try {
        const answer = await apiRequest<Partial<EmailConnectResponse>>('GET', '/email/connect');
        if (!answer.authUrl) throw new NoAuthorizationUrlError();
        return { authUrl: answer.authUrl, tab };
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
    onSuccess: ({ authUrl, tab }) => {
      if (tab) tab.location.href = authUrl;
      else window.location.assign(authUrl);
      notify({
        title: 'Gmail Authorization',
        description:
          'Finish signing in with Google in the new tab; Google brings you back to FareBack when you are done.',
        status: 'info',
      });
    },
    onError: (error) => {
      if (error instanceof NoAuthorizationUrlError) {
        notify({ title: 'OAuth error', description: 'Failed to generate authorization URL', status: 'error' });
        return;
      }
      const config = configurationError(error);
      if (config) {
        notify({
          title: 'OAuth Configuration Error',
          description: config.details || (devConnectAvailable ? DEV_TOGGLE_ADVICE : config.message),
          status: 'error',
        });
        return;
      }
      notify({
        title: 'Failed to connect email',
        description: errorMessage(error, 'Could not start the Gmail connection. Please try again.'),
        status: 'error',
      });
    },
  });
}

/** Opens an empty tab for Google's page, detached from this one; null when the browser refuses. */
export function openAuthorizationTab(): Window | null {
  const tab = window.open('about:blank', '_blank');
  if (tab) tab.opener = null;
  return tab;
}

export function useManualTokenExchange() {
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest<ManualTokenExchangeResponse>('POST', '/email/manual-token-exchange', { code }),
    meta: {
      invalidates: CONNECTION_CHANGED,
      errorTitle: 'Failed to exchange authorization code',
      errorFallback: 'Google did not accept this authorization code. Start the connection again.',
    },
    onSuccess: () =>
      notify({
        title: 'Email connected successfully',
        description: 'FareBack will now look for flight confirmations in your inbox.',
        status: 'success',
      }),
  });
}

/**
 * Finishes a Gmail connection with the code and state Google returned to this browser: the api
 * connects only the attempt this session started (docs/architecture.md, "How email import works").
 * The page shows the outcome itself, so no error toast comes from the cache here.
 */
export function useOAuthExchange() {
  return useMutation({
    mutationFn: (input: { code: string; state: string }) =>
      apiRequest<OAuthExchangeResponse>('POST', '/email/oauth-exchange', input),
    meta: { invalidates: CONNECTION_CHANGED },
  });
}

/** 'Toggle Email (Dev)': connects or disconnects the local sample mailbox. */
export function useToggleDevEmail() {
  return useMutation({
    mutationFn: () => apiRequest<EmailConnectDevResponse>('GET', '/email/connect-dev'),
    meta: {
      invalidates: CONNECTION_CHANGED,
      errorTitle: 'Failed to update email connection status',
      errorFallback: 'Please try again.',
    },
    onSuccess: (answer) =>
      notify({
        title: answer.emailConnected ? 'Email connected successfully' : 'Email disconnected',
        description: answer.message,
        status: 'success',
      }),
  });
}

export function useDisconnectEmail() {
  return useMutation({
    mutationFn: () => apiRequest<EmailDisconnectResponse>('POST', '/email/disconnect'),
    meta: {
      invalidates: CONNECTION_CHANGED,
      errorTitle: 'Failed to update email connection status',
      errorFallback: 'Please try again.',
    },
    onSuccess: (answer) => notify({ title: 'Email disconnected', description: answer.message, status: 'success' }),
  });
}

export function useStartScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<EmailScanResponse>('POST', '/email/scan'),
    meta: { invalidates: [emailKeys.all], errorTitle: 'Scan failed', errorFallback: 'Please try again.' },
    onSuccess: (answer) => {
      queryClient.setQueryData<EmailConnectionResponse['connection']>(emailKeys.connection(), (current) =>
        current ? { ...current, scan: answer.scan } : current,
      );
      notify({ title: 'Scan started', description: answer.message, status: 'info' });
    },
  });
}
