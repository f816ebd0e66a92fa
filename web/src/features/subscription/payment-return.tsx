import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { notify } from '@/components/ui/toaster';
import { currentUserQueryOptions, isPremium } from '@/lib/auth';
import { AFTER_PLAN_CHANGE } from './api';

/** The parameters Stripe adds to the dashboard's address when it sends the traveller back. */
const RETURN_PARAMS = ['checkout', 'session_id', 'payment_intent', 'payment_intent_client_secret', 'redirect_status'];

/**
 * The dashboard after a payment that left the page: Stripe Checkout's success address
 * (`?checkout=success&session_id=...`) or a card that needed its bank's page (Stripe Elements'
 * return address, `?payment_intent=...&redirect_status=...`). It refreshes the plan and the
 * billing reads, says how the payment went, and takes the parameters out of the address.
 *
 * The plan moves when Stripe's webhook arrives, which can be a moment after the traveller: a
 * checkout that is paid but not yet applied says so ('Subscription Updated') rather than claiming
 * Premium; the current user's polling shows Premium once it is.
 */
export function PaymentReturn() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const handled = useRef(false);
  const checkout = params.get('checkout');
  const redirectStatus = params.get('redirect_status');

  useEffect(() => {
    if (handled.current || (checkout !== 'success' && redirectStatus === null)) return;
    handled.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of RETURN_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
    void (async () => {
      await Promise.all(AFTER_PLAN_CHANGE.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (redirectStatus !== null && redirectStatus !== 'succeeded') {
        notify({
          title: 'Payment Failed',
          description: 'Your bank did not confirm the payment. No money was taken; please try again.',
          status: 'error',
        });
        return;
      }
      const user = await queryClient.fetchQuery({ ...currentUserQueryOptions(), staleTime: 0 });
      if (isPremium(user)) {
        notify({
          title: 'Upgraded to Premium Tier',
          description: 'Your subscription has been upgraded. You can now enable auto-rebooking!',
          status: 'success',
        });
      } else {
        notify({
          title: 'Subscription Updated',
          description:
            'Your payment went through. Premium starts as soon as Stripe confirms it, usually within a minute.',
          status: 'success',
        });
      }
    })();
  }, [checkout, redirectStatus, setParams, queryClient]);

  return null;
}
