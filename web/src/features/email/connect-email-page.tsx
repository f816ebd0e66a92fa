import { Alert, Button, Stack } from '@chakra-ui/react';
import { OAUTH_RETURN_ERRORS, type OAuthReturnError } from '@shared/types/email.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ContentLayout } from '@/components/layout/content-layout';
import { notify } from '@/components/ui/toaster';
import { authKeys, useCurrentUser } from '@/lib/auth';
import { emailKeys } from './api';
import { ConnectEmailCard, OAuthConfigBox } from './components/connect-email';
import { EmailConnectionPanel } from './components/connection-panel';

/**
 * What `/oauth2callback` sends back in `?error=`. All four are titled 'Connection Error': the
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

/**
 * The return from Google (`?email_connected=true` or `?error=<code>`): one toast, the query
 * string removed (so a reload does not repeat it), the user and connection refreshed.
 */
function useOAuthReturn() {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const handled = useRef(false);
  const connected = searchParams.get('email_connected');
  const error = searchParams.get('error');

  useEffect(() => {
    if (handled.current || (connected === null && error === null)) return;
    handled.current = true;
    if (error !== null) {
      notify({
        title: OAUTH_RETURN_TITLE,
        description: isReturnError(error)
          ? OAUTH_RETURN_MESSAGES[error]
          : 'Connecting your email failed. Please try again.',
        status: 'error',
      });
    } else if (connected === 'true') {
      notify({
        title: 'Email connected successfully',
        description: 'FareBack will now look for flight confirmations in your inbox.',
        status: 'success',
      });
    }
    void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    void queryClient.invalidateQueries({ queryKey: emailKeys.all });
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('email_connected');
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [connected, error, queryClient, setSearchParams]);
}

/** /connect-email: where Google sends the browser back, and the page to connect from. */
export function ConnectEmailPage() {
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
            <OAuthConfigBox />
            <ConnectEmailCard />
          </>
        )}
        {connected && <EmailConnectionPanel showDisconnect />}
      </Stack>
    </ContentLayout>
  );
}
