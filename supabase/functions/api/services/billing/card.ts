// Changing the card used for the next renewal and for commission statements: Stripe's Billing
// Portal (the traveller changes it there; `customer.updated` brings the new default card back,
// webhook.ts), or in the local test mode a test card saved at once. A renewal that failed is
// charged again with the new card at once (FareBack's renewal; Stripe retries its own).
import { DECLINING_TEST_CARD, TEST_CARD } from '../../../_shared/payments/local.ts';
import type { ChangeCardBody } from '../../../_shared/schemas/billing.ts';
import { type ChangeCardResponse, TEST_MODE_NOTICE } from '../../../_shared/types/billing.ts';
import type { AppDeps } from '../../context.ts';
import { saveCard } from '../../queries/billing.ts';
import { customerOf, loadProfile, provider, requirePayments } from './provider.ts';
import { renewOne } from './renewals.ts';

export const CARD_SAVED = 'Your card was updated. It is used for your next renewal and commission statements.';

export async function changeCard(deps: AppDeps, userId: string, body: ChangeCardBody): Promise<ChangeCardResponse> {
  requirePayments(deps);
  const profile = await loadProfile(deps, userId);
  const customerId = await customerOf(deps, profile);
  if (deps.payments.mode === 'stripe') {
    const returnUrl = `${deps.config.siteUrl}/dashboard?tab=plan`;
    const session = await provider(() => deps.payments.createBillingPortalSession({ customerId, returnUrl }));
    return { url: session.url, message: 'Opening Stripe to update your card.', paymentMode: 'stripe', renewal: null };
  }
  const card = body.testCard === 'declining' ? DECLINING_TEST_CARD : TEST_CARD;
  await deps.db.asService((tx) => saveCard(tx, userId, card));
  let renewal: ChangeCardResponse['renewal'] = null;
  if (profile.tier === 'premium' && profile.status === 'past_due' && !profile.subscriptionId && profile.renews) {
    const periodEnd = profile.endDate ? new Date(profile.endDate) : new Date();
    renewal = await renewOne(
      deps,
      {
        userId,
        planId: profile.plan.id,
        amount: profile.plan.price,
        periodEnd,
        attempt: profile.renewalAttempts + 1,
        customerId,
        paymentMethodId: card,
      },
      new Date(),
    );
  }
  return { url: null, message: `${CARD_SAVED} ${TEST_MODE_NOTICE}.`, paymentMode: 'test', renewal };
}
