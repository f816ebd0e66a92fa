import { Alert, Button, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { notify } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
import type { SubscriptionPlan } from '@/lib/plans';
import { createPaymentIntent, currentSubscriptionQueryOptions } from '../api';
import { CardPayment } from './card-payment';
import { PaymentFrame } from './payment-frame';

interface PaymentDialogProps {
  /** The premium plan being bought; its row sets the price (the server checks the amount). */
  plan: SubscriptionPlan;
  onClose: () => void;
}

const UPGRADE_FALLBACK = 'The payment could not be started. Please try again.';

/**
 * The premium payment dialog of the dashboard: a payment intent for the plan's yearly price,
 * then the card form. After the payment succeeds the subscription and the current user are
 * refreshed (useConfirmPayment) and the dialog closes.
 */
export function PaymentDialog({ plan, onClose }: PaymentDialogProps) {
  const intent = useMutation({
    mutationFn: createPaymentIntent,
    onSuccess: (result) => {
      if (!result.success)
        notify({ title: 'Upgrade Failed', description: result.message || UPGRADE_FALLBACK, status: 'error' });
    },
    onError: (error) =>
      notify({ title: 'Upgrade Failed', description: errorMessage(error, UPGRADE_FALLBACK), status: 'error' }),
  });
  const { mutate } = intent;

  // One intent per opening (a ref, so React's development double effects do not make two).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate({ amount: plan.price, planId: plan.id });
  }, [mutate, plan.price, plan.id]);

  // 'Payment Successful' only once the subscription reads Premium (Stripe's webhook may come later):
  // until then the dialog says 'Activating Premium...' and reads the subscription again each second
  const [activating, setActivating] = useState(false);
  const subscription = useQuery({ ...currentSubscriptionQueryOptions(), refetchInterval: activating ? 1000 : false });
  const active = activating && subscription.data?.tier === 'premium';
  useEffect(() => {
    if (!active) return;
    notify({ title: 'Payment Successful', description: 'Your subscription has been updated!', status: 'success' });
    onClose();
  }, [active, onClose]);
  const onPaid = () => setActivating(true);

  const failure = intent.isError
    ? errorMessage(intent.error, UPGRADE_FALLBACK)
    : intent.data && !intent.data.success
      ? intent.data.message || UPGRADE_FALLBACK
      : null;

  return (
    <PaymentFrame
      title="Premium Subscription"
      description="Complete your payment to upgrade to the Premium plan"
      onClose={onClose}
    >
      <Stack gap="4">
        <Text>
          {plan.name}: <strong>{formatMoney(plan.price)}</strong> per year, billed annually and renewed each year until
          you downgrade. Downgrading at the end of the paid year keeps Premium until then; downgrading now ends it at
          once, with no refund.
        </Text>
        {activating ? (
          <Text role="status" aria-live="polite">
            Activating Premium...
          </Text>
        ) : failure ? (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Upgrade Failed</Alert.Title>
              <Alert.Description>{failure}</Alert.Description>
            </Alert.Content>
            <Button size="sm" variant="outline" onClick={() => mutate({ amount: plan.price, planId: plan.id })}>
              Retry
            </Button>
          </Alert.Root>
        ) : intent.data?.success ? (
          <CardPayment intent={intent.data} amount={plan.price} onPaid={onPaid} />
        ) : (
          <Skeleton height="32" borderRadius="md" aria-label="Preparing your payment" />
        )}
      </Stack>
    </PaymentFrame>
  );
}
