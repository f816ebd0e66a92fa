import { Alert, Button, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { formatMoney } from '@/lib/format';
import type { TestModeOutcome } from '@shared/schemas/billing.ts';
import { PAYMENTS_UNAVAILABLE, TEST_MODE_NOTICE, type PaymentIntentResponse } from '@shared/types/billing.ts';
import { confirmTestPayment, stripePublishableKey, useConfirmPayment, type ConfirmPaymentToasts } from '../api';

// Stripe's libraries load only when a real card form is shown.
const StripeCardForm = lazy(() => import('./stripe-card-form'));

export interface CardPaymentProps {
  /** The intent the server created for the plan's price. */
  intent: PaymentIntentResponse;
  /** What is being paid, in cents. */
  amount: number;
  /** Called once the intent's status is 'succeeded', after the refreshes have been started. */
  onPaid: () => void;
  /** The toasts of a declined or failed payment (the card form's by default). */
  toasts?: ConfirmPaymentToasts;
}

/**
 * The card form: in the local test mode (the api has no Stripe key and says so in every answer)
 * no card is charged and the intent is confirmed (or declined) through the api's local
 * confirmation step, which writes the rows a real payment writes; otherwise Stripe Elements with
 * the publishable key.
 */
export function CardPayment(props: CardPaymentProps) {
  if (props.intent.paymentMode === 'test') return <TestModePayment {...props} />;
  const publishableKey = stripePublishableKey();
  if (!publishableKey) {
    return (
      <Alert.Root status="error" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Card payments are not available</Alert.Title>
          <Alert.Description>
            This app was built without a Stripe publishable key (VITE_STRIPE_PUBLISHABLE_KEY). Please try again later.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  return (
    <Suspense fallback={<Skeleton height="40" borderRadius="md" aria-label="Loading the card form" />}>
      <StripeCardForm {...props} publishableKey={publishableKey} />
    </Suspense>
  );
}

export function TestModeNotice() {
  return (
    <Alert.Root status="info" borderRadius="md">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{TEST_MODE_NOTICE}</Alert.Title>
      </Alert.Content>
    </Alert.Root>
  );
}

/** In place of a payment button on a server with no payments configured (paymentMode 'unavailable'). */
export function PaymentsUnavailableNotice() {
  return (
    <Alert.Root status="warning" borderRadius="md">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{PAYMENTS_UNAVAILABLE}</Alert.Title>
        <Alert.Description>Payments cannot be made here for now. Nothing has been charged.</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

export function TestModePayment({
  intent,
  amount,
  onPaid,
  toasts,
}: Omit<CardPaymentProps, 'intent'> & { intent: Pick<PaymentIntentResponse, 'paymentIntentId'> }) {
  const confirm = useConfirmPayment(onPaid, toasts);
  const pending = confirm.isPending ? confirm.variables.outcome : null;
  const run = (outcome: TestModeOutcome) =>
    confirm.mutate({ outcome, confirm: () => confirmTestPayment(intent.paymentIntentId, outcome) });
  return (
    <Stack gap="4">
      <TestModeNotice />
      <Text color="fg.muted" fontSize="sm">
        Confirm the payment of {formatMoney(amount)} as if a card had paid it, or see what a declined card does.
      </Text>
      <HStack gap="3" wrap="wrap">
        <Button
          onClick={() => run('succeeded')}
          loading={pending === 'succeeded'}
          loadingText="Processing..."
          disabled={confirm.isPending}
        >
          Pay {formatMoney(amount)}
        </Button>
        <Button
          variant="outline"
          onClick={() => run('failed')}
          loading={pending === 'failed'}
          loadingText="Processing..."
          disabled={confirm.isPending}
        >
          Simulate a declined card
        </Button>
      </HStack>
    </Stack>
  );
}
