import { Alert, Stack } from '@chakra-ui/react';
import type { UpdateSubscriptionResponse } from '@shared/types/billing.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { notify } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api-client';
import { isPremium, useCurrentUser } from '@/lib/auth';
import { freePlan, plansQueryOptions, premiumPlan } from '@/lib/plans';
import { useCurrentSubscription, useKeepPremium } from './api';
import { BillingSummary } from './components/billing-summary';
import { DowngradeDialog } from './components/downgrade-dialog';
import { PaymentDialog } from './components/payment-dialog';
import { PaymentIssueBanner, UpdateCardButton } from './components/payment-issue';
import { PlansGrid } from './components/plans-grid';
import { PremiumUpsell } from './components/premium-upsell';
import { SubscriptionCard } from './components/subscription-card';

/**
 * Dashboard tab 5, Subscription: a failed payment's banner ('Update card'), the traveller's plan
 * ('Your Subscription': when it renews and for how much, or the downgrade scheduled), the way up
 * (the premium payment dialog) or down (now or at the end of the paid year), the card, the billing
 * summary for anyone with money owed or a history on any plan, the upsell for free, and the plans.
 */
export function SubscriptionTab() {
  const { data: user } = useCurrentUser();
  const subscription = useCurrentSubscription();
  const plans = useQuery(plansQueryOptions());
  const [dialog, setDialog] = useState<'pay' | 'downgrade' | null>(null);
  const [downgraded, setDowngraded] = useState<UpdateSubscriptionResponse | null>(null);
  const keepPremium = useKeepPremium();
  if (!user) return null;

  // The tier is the current user's (refreshed after every change); the subscription adds the
  // plan and its dates.
  const premium = isPremium(user);
  const current = subscription.data;
  const premiumOffer = premiumPlan(plans.data ?? []);
  const plan = current?.plan ?? (premium ? premiumOffer : freePlan(plans.data));

  return (
    <Stack gap="6" maxW="4xl">
      <PaymentIssueBanner subscription={current} />
      {downgraded && downgraded.flightsOverLimit > 0 && (
        <Alert.Root status="warning" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              Remove {downgraded.flightsOverLimit} {downgraded.flightsOverLimit === 1 ? 'flight' : 'flights'} to add new
              ones
            </Alert.Title>
            <Alert.Description>{downgraded.message}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <SubscriptionCard
        user={user}
        premium={premium}
        plan={plan}
        subscription={current}
        onUpgrade={() => {
          // While the plans load the dialog waits for them; without a premium plan it cannot open.
          if (plans.isPending || premiumOffer) setDialog('pay');
          else
            notify({
              title: 'Upgrade Failed',
              description: plans.isError
                ? errorMessage(plans.error, 'The plans could not be loaded. Please try again.')
                : 'Premium subscription is currently unavailable. Please try again later.',
              status: 'error',
            });
        }}
        onDowngrade={() => setDialog('downgrade')}
        onKeepPremium={() =>
          keepPremium.mutate(undefined, {
            onSuccess: (result) =>
              notify({ title: 'Subscription Updated', description: result.message, status: 'success' }),
          })
        }
        keepingPremium={keepPremium.isPending}
        cardAction={
          (premium || current?.hasSavedCard) && !current?.paymentIssue ? (
            <UpdateCardButton subscription={current} />
          ) : null
        }
      />
      {!premium && <PremiumUpsell />}
      <BillingSummary onlyWhenUsed={!premium} />
      <PlansGrid query={plans} currentPlanId={plan?.id} />
      {dialog === 'pay' && premiumOffer && <PaymentDialog plan={premiumOffer} onClose={() => setDialog(null)} />}
      {dialog === 'downgrade' && (
        <DowngradeDialog
          subscription={current}
          freeFlightLimit={freePlan(plans.data)?.flightLimit}
          onDowngraded={setDowngraded}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
