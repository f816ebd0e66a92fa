import { Alert, Button, Stack } from '@chakra-ui/react';
import type { ConfirmEmailInput } from '@shared/schemas/auth.ts';
import type { MessageResponse } from '@shared/types/auth.ts';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner';
import { apiRequest, errorMessage } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/auth';
import { AuthLayout } from '../components/auth-layout';

const LINK_INVALID = 'This confirmation link is invalid or has expired.';

function confirmEmail(input: ConfirmEmailInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('POST', '/auth/confirm-email', input);
}

function Outcome({ status, title, text }: { status: 'success' | 'error'; title: string; text: string }) {
  const { data: user } = useCurrentUser();
  return (
    <AuthLayout title={title}>
      <Stack gap="6">
        <Alert.Root status={status} borderRadius="md">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>{text}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Button asChild size="lg" width="full">
          <RouterLink to={user ? '/dashboard' : '/login'}>{user ? 'Go to dashboard' : 'Go to login'}</RouterLink>
        </Button>
      </Stack>
    </AuthLayout>
  );
}

/**
 * /confirm-email?token=...: the link in the confirmation email. The page, not the link, makes the
 * (single-use) request, so a mail scanner that follows links does not spend it. Works signed in
 * or not: the token names the account.
 */
export function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const confirm = useMutation({ mutationFn: confirmEmail });
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate({ token });
  }, [token, confirm]);

  if (!token) return <Outcome status="error" title="Confirm your email" text={LINK_INVALID} />;
  if (confirm.isSuccess) return <Outcome status="success" title="Email Confirmed" text={confirm.data.message} />;
  if (confirm.isError) {
    return <Outcome status="error" title="Confirm your email" text={errorMessage(confirm.error, LINK_INVALID)} />;
  }
  return (
    <AuthLayout title="Confirm your email">
      <PageSpinner compact label="Confirming your email address..." />
    </AuthLayout>
  );
}
