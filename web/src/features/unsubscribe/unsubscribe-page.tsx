import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { UNSUBSCRIBE_INVALID_LINK, type UnsubscribeInfo, type UnsubscribeResponse } from '@shared/types/unsubscribe.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner';
import { apiRequest, errorMessage } from '@/lib/api-client';

const PATH = '/notifications/unsubscribe';
const TITLE = 'Unsubscribe';

export interface UnsubscribePageProps {
  /** The centred card the page sits in (app/ passes the auth pages' layout). */
  Layout: ComponentType<{ title: string; children: ReactNode }>;
}

function Message({ status, text }: { status: 'success' | 'error'; text: string }) {
  return (
    <Alert.Root status={status} borderRadius="md">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{text}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/**
 * /unsubscribe?token=...: the link at the foot of every notification email. It says what the link
 * turns off and asks for the click (mail scanners follow links, so opening the page changes
 * nothing); the signed token is the authority, no login needed. Mail clients' own one-click
 * unsubscribe posts to the api directly (List-Unsubscribe-Post).
 */
export function UnsubscribePage({ Layout }: UnsubscribePageProps) {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const info = useQuery({
    queryKey: ['unsubscribe', token],
    queryFn: () => apiRequest<UnsubscribeInfo>('GET', PATH, undefined, { query: { token } }),
    enabled: token !== '',
    retry: false,
  });
  const unsubscribe = useMutation({
    mutationFn: () => apiRequest<UnsubscribeResponse>('POST', PATH, undefined, { query: { token } }),
  });

  let body: ReactNode;
  if (!token) body = <Message status="error" text={UNSUBSCRIBE_INVALID_LINK} />;
  else if (info.isPending) body = <PageSpinner compact label="Checking your link..." />;
  else if (info.isError) body = <Message status="error" text={errorMessage(info.error, UNSUBSCRIBE_INVALID_LINK)} />;
  else if (unsubscribe.isSuccess) body = <Message status="success" text={unsubscribe.data.message} />;
  else {
    body = (
      <>
        <Text>Stop sending me {info.data.description}?</Text>
        {unsubscribe.isError && (
          <Message status="error" text={errorMessage(unsubscribe.error, UNSUBSCRIBE_INVALID_LINK)} />
        )}
        <Button size="lg" width="full" loading={unsubscribe.isPending} onClick={() => unsubscribe.mutate()}>
          Unsubscribe
        </Button>
      </>
    );
  }
  return (
    <Layout title={TITLE}>
      <Stack gap="6">
        {body}
        <Button asChild variant="ghost" width="full">
          <RouterLink to="/dashboard">Change all notification preferences</RouterLink>
        </Button>
      </Stack>
    </Layout>
  );
}
