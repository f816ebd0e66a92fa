import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import type { CurrentSubscription } from '@shared/types/billing.ts';
import { notify } from '@/components/ui/toaster';
import { formatDate, formatMoney } from '@/lib/format';
import { useChangeCard } from '../api';

/**
 * 'Update card': Stripe's Billing Portal (the browser goes there), or in test mode a test card saved
 * at once. The new card is used for the next renewal and statements; a failed renewal is charged again.
 */
export function UpdateCardButton({ subscription }: { subscription: CurrentSubscription | undefined }) {
  const change = useChangeCard();
  if (!subscription || subscription.paymentMode === 'unavailable') return null;
  const onClick = () =>
    change.mutate(subscription.paymentMode === 'test' ? { testCard: 'valid' } : {}, {
      onSuccess: (result) => {
        if (result.url) {
          window.location.assign(result.url);
          return;
        }
        notify({
          title: result.renewal === 'renewed' ? 'Card Updated - Premium Renewed' : 'Card Updated',
          description: result.message,
          status: 'success',
        });
      },
    });
  return (
    <Button variant="outline" onClick={onClick} loading={change.isPending} loadingText="Opening...">
      Update card
    </Button>
  );
}

/**
 * The banner of a failed charge still owed: what failed and why, when it is tried again, what
 * happens if it keeps failing, and 'Update card'.
 */
export function PaymentIssueBanner({ subscription }: { subscription: CurrentSubscription | undefined }) {
  const issue = subscription?.paymentIssue;
  if (!issue) return null;
  const what = issue.purpose === 'subscription' ? 'Your Premium renewal' : 'Your commission payment';
  return (
    <Alert.Root status="error" role="alert" aria-label="Payment failed">
      <Alert.Indicator />
      <Stack gap="3" flex="1">
        <Alert.Content>
          <Alert.Title>
            {what} of {formatMoney(issue.amount)} did not go through
          </Alert.Title>
          <Alert.Description>
            <Stack gap="1">
              <Text>{issue.reason}</Text>
              {issue.retry && <Text>Next try: {formatDate(issue.retry)}.</Text>}
              <Text>{issue.outcome}</Text>
            </Stack>
          </Alert.Description>
        </Alert.Content>
        <UpdateCardButton subscription={subscription} />
      </Stack>
    </Alert.Root>
  );
}
