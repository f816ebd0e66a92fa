import { Alert, Button, Container } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import type { MessageResponse } from '@shared/types/auth.ts';
import { notify } from '@/components/ui/toaster';
import { apiRequest } from '@/lib/api-client';

export function resendConfirmation(): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('POST', '/auth/resend-confirmation');
}

/**
 * Shown on every signed-in page until the account's address is confirmed (`emailConfirmed` in
 * `GET /api/auth/me`): FareBack mails an unconfirmed address nothing but the confirmation, so
 * alerts wait for it. The layout loads this lazily, so public pages never carry the query library.
 */
export default function UnconfirmedAddressNotice({ email }: { email: string }) {
  const resend = useMutation({
    mutationFn: resendConfirmation,
    meta: { errorTitle: 'Could not resend the confirmation', errorFallback: 'Please try again later.' },
    onSuccess: ({ message }) => notify({ title: 'Confirmation email sent', description: message, status: 'success' }),
  });
  return (
    <Container maxW="6xl" pt="4">
      <Alert.Root status="warning" variant="subtle" borderRadius="md" flexWrap="wrap">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Confirm your email address</Alert.Title>
          <Alert.Description>
            We sent a confirmation link to {email}. Until you open it, FareBack sends no price-drop alerts or other
            emails there.
          </Alert.Description>
        </Alert.Content>
        <Button
          size="sm"
          variant="outline"
          alignSelf="center"
          flexShrink="0"
          loading={resend.isPending}
          loadingText="Sending..."
          disabled={resend.isSuccess}
          onClick={() => resend.mutate()}
        >
          {resend.isSuccess ? 'Sent' : 'Resend confirmation'}
        </Button>
      </Alert.Root>
    </Container>
  );
}
