import { Alert, Button, Stack } from '@chakra-ui/react';
import { OAUTH_RETURN_ERRORS, type OAuthReturnError } from '@shared/types/email.ts';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ContentLayout } from '@/components/layout/content-layout';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { authKeys, useCurrentUser } from '@/lib/auth';
import { emailKeys, useOAuthExchange } from './api';
import { ConnectEmailCard, OAuthConfigBox } from './components/connect-email';
import { EmailConnectionPanel } from './components/connection-panel';

/**
 * What `/oauth2callback` sends back in `?error=`, and `POST /api/email/oauth-exchange` answers in `error`. All four are titled 'Connection Error': the
 * spec's second handler calls three of them 'Authentication Error', but one screen should not
 * name one failure two ways (web/README.md).
 */
export const OAUTH_RETURN_MESSAGES: Record<OAuthReturnError, string> = {
  oauth_failed: 'Google authorization failed. Please try again.',
  oauth_token_failed: 'Failed to retrieve access tokens. Please try again.',
  oauth_invalid: 'Invalid OAuth response. Please try again.',
  user_not_found: 'User account not found. Please try logging in again.',
};
export const OAUTH_RETURN_TITLE = 'Connection Error';

function isReturnError(value: string): value is OAuthReturnError {
  return (OAUTH_RETURN_ERRORS as readonly string[]).includes(value);
}

function oauthErrorCode(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const code = (error.body as { error?: unknown } | undefined)?.error;
  return typeof code === 'string' ? code : null;
}

/**
 * The return from Google: `?code=&state=` (finished here, under this browser's session, with
 * `POST /api/email/oauth-exchange`), or `?error=<code>`. One toast, the query string removed (so
 * a reload does not repeat it), the user and connection refreshed.
 */
function useOAuthReturn() {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const exchange = useOAuthExchange();
  const handled = useRef(false);
  const connected = searchParams.get('email_connected');
  const error = searchParams.get('error');
  const code = searchParams.get('code');
  const state = searchParams.get('state');

  useEffect(() => {
    if (handled.current || (connected === null && error === null && code === null)) return;
    handled.current = true;
    const failed = (reason: string | null) =>
      notify({
        title: OAUTH_RETURN_TITLE,
        description:
          reason !== null && isReturnError(reason)
            ? OAUTH_RETURN_MESSAGES[reason]
            : 'Connecting your email failed. Please try again.',
        status: 'error',
      });
    const succeeded = () =>
      notify({
        title: 'Email connected successfully',
        description: 'FareBack will now look for flight confirmations in your inbox.',
        status: 'success',
      });
    if (error !== null) failed(error);
    else if (code !== null) {
      exchange.mutate(
        { code, state: state ?? '' },
        { onSuccess: succeeded, onError: (cause) => failed(oauthErrorCode(cause) ?? 'oauth_failed') },
      );
    } else if (connected === 'true') succeeded();
    void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    void queryClient.invalidateQueries({ queryKey: emailKeys.all });
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of ['email_connected', 'error', 'code', 'state']) next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [connected, error, code, state, exchange, queryClient, setSearchParams]);
}

/**
 * /connect-email: where Google sends the browser back, and the page to connect from
 * (`refreshAfterConfirm`: see EmailConnectionPanel).
 */
export function ConnectEmailPage({ refreshAfterConfirm }: { refreshAfterConfirm: readonly QueryKey[] }) {
  useOAuthReturn();
  const { data: user } = useCurrentUser();
  const connected = user?.emailConnected === true;
  return (
    <ContentLayout
      title="Email Connection"
      description="Connect your inbox so FareBack can find your flight confirmations."
      actions={
        <Button asChild variant="outline">
          <RouterLink to="/dashboard">Back to Dashboard</RouterLink>
        </Button>
      }
    >
      <Stack gap="6" maxW="3xl">
        {connected ? (
          <Alert.Root status="success" borderRadius="md">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Email Connected</Alert.Title>
              <Alert.Description>FareBack is watching your inbox for flight confirmations.</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : (
          <>
            {/* setup information for whoever registers the app with Google, not for travellers
                (docs/architecture.md, "Gmail connection": the admin-only decision) */}
            {user?.isAdmin && <OAuthConfigBox />}
            <ConnectEmailCard />
          </>
        )}
        {connected && <EmailConnectionPanel showDisconnect refreshAfterConfirm={refreshAfterConfirm} />}
      </Stack>
    </ContentLayout>
  );
}
