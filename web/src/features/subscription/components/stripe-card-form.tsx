import { Button, Stack } from '@chakra-ui/react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import type { FormEvent } from 'react';
import { formatMoney } from '@/lib/format';
import { useConfirmPayment } from '../api';
import type { CardPaymentProps } from './card-payment';

// One Stripe.js per key for the life of the page (Stripe's advice: load it once).
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(key: string): Promise<Stripe | null> {
  const loaded = stripes.get(key) ?? loadStripe(key);
  stripes.set(key, loaded);
  return loaded;
}

function PaymentForm({ amount, onPaid, toasts }: Omit<CardPaymentProps, 'intent'>) {
  const stripe = useStripe();
  const elements = useElements();
  const confirm = useConfirmPayment(onPaid, toasts);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    confirm.mutate({
      outcome: 'succeeded',
      confirm: async () => {
        // Cards that need a redirect (3-D Secure on some banks) come back to the dashboard;
        // every other card is confirmed here, without leaving the page.
        const { error, paymentIntent } = await stripe.confirmPayment({
          elements,
          confirmParams: { return_url: `${window.location.origin}/dashboard` },
          redirect: 'if_required',
        });
        if (error) return { status: 'failed', message: error.message ?? 'Your card was declined.' };
        return { status: paymentIntent.status, message: '' };
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="4">
        <PaymentElement />
        <Button type="submit" disabled={!stripe || !elements} loading={confirm.isPending} loadingText="Processing...">
          Pay {formatMoney(amount)}
        </Button>
      </Stack>
    </form>
  );
}

export default function StripeCardForm({
  intent,
  publishableKey,
  ...rest
}: CardPaymentProps & { publishableKey: string }) {
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret: intent.clientSecret ?? undefined }}>
      <PaymentForm {...rest} />
    </Elements>
  );
}
