// Upgrading to Premium: a payment of the plan row's price for one year, by a payment intent the
// browser confirms or by a Stripe Checkout session. Its outcome is applied by settlement.ts when
// the provider reports it.
import type { Metadata } from '../../../_shared/payments/types.ts';
import type { CheckoutSessionBody, PaymentIntentBody } from '../../../_shared/schemas/billing.ts';
import type { CheckoutSessionResponse, PaymentIntentResponse } from '../../../_shared/types/billing.ts';
import type { SubscriptionPlan } from '../../../_shared/types/plans.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import { activePlan, type BillingProfile, insertPayment, premiumPlan } from '../../queries/billing.ts';
import { customerOf, intentResponse, loadProfile, provider, requirePayments } from './provider.ts';

export const ALREADY_SUBSCRIBED = 'Already Subscribed - You are already a premium subscriber.';
export const SUBSCRIPTION_UNAVAILABLE =
  'Subscription Unavailable - Premium subscription is currently unavailable. Please try again later.';
export const PLAN_NOT_FOUND = 'Plan not found';
export const RENEWAL_PAID_BY_CARD_CHANGE =
  'Your renewal payment failed: update your card on the Subscription tab and Stripe charges it again.';
export const PLAN_HAS_NO_PRICE = 'This plan has no price to pay.';
export const AMOUNT_MISMATCH = 'Amount does not match the plan price';

async function planToBuy(
  deps: AppDeps,
  profile: BillingProfile,
  planId: number | undefined,
): Promise<SubscriptionPlan> {
  if (profile.tier === 'premium') {
    // a renewal that failed is money owed, never 'Already Subscribed': FareBack's own renewal is
    // paid here again (the year continues); Stripe's is paid by a card change (its retries)
    if (profile.status !== 'past_due') throw new HttpError(409, ALREADY_SUBSCRIBED);
    if (profile.subscriptionId) throw new HttpError(409, RENEWAL_PAID_BY_CARD_CHANGE);
  }
  const plan = await deps.db.asService(async (tx) => {
    if (planId === undefined) return await premiumPlan(tx);
    const found = await activePlan(tx, planId);
    if (!found) throw new HttpError(404, PLAN_NOT_FOUND);
    if (found.tier !== 'premium' || found.price <= 0) throw new HttpError(400, PLAN_HAS_NO_PRICE);
    return found;
  });
  if (!plan) throw new HttpError(404, SUBSCRIPTION_UNAVAILABLE);
  if (plan.price <= 0) throw new HttpError(400, PLAN_HAS_NO_PRICE);
  return plan;
}

async function startPlanPayment(deps: AppDeps, profile: BillingProfile, plan: SubscriptionPlan) {
  const customerId = await customerOf(deps, profile);
  const metadata: Metadata = { userId: profile.userId, purpose: 'subscription', planId: String(plan.id) };
  const intent = await provider(() =>
    deps.payments.createPaymentIntent({
      customerId,
      amount: plan.price,
      description: `${plan.name} plan, one year`,
      metadata,
      saveCard: true,
    }),
  );
  await deps.db.asService((tx) =>
    insertPayment(tx, {
      id: intent.id,
      userId: profile.userId,
      purpose: 'subscription',
      planId: plan.id,
      amount: plan.price,
      description: `${plan.name} subscription (one year)`,
    }),
  );
  return intent;
}

export async function createPlanPaymentIntent(
  deps: AppDeps,
  userId: string,
  body: PaymentIntentBody,
): Promise<PaymentIntentResponse> {
  requirePayments(deps);
  const profile = await loadProfile(deps, userId);
  const plan = await planToBuy(deps, profile, body.planId);
  // the price is the plan row's: a client's amount is only compared with it
  if (body.amount !== plan.price) throw new HttpError(400, AMOUNT_MISMATCH);
  const intent = await startPlanPayment(deps, profile, plan);
  return intentResponse(deps, intent, `Complete your payment to upgrade to the ${plan.name} plan.`);
}

export async function createCheckoutSession(
  deps: AppDeps,
  userId: string,
  body: CheckoutSessionBody,
): Promise<CheckoutSessionResponse> {
  requirePayments(deps);
  const profile = await loadProfile(deps, userId);
  const plan = await planToBuy(deps, profile, body.planId);
  const site = deps.config.siteUrl;
  if (deps.payments.mode === 'test') {
    const intent = await startPlanPayment(deps, profile, plan);
    return {
      url: `${site}/premium-checkout?test_payment=${encodeURIComponent(intent.id)}`,
      paymentMode: 'test',
      paymentIntentId: intent.id,
    };
  }
  const customerId = await customerOf(deps, profile);
  const session = await provider(() =>
    deps.payments.createCheckoutSession({
      customerId,
      amount: plan.price,
      planName: plan.name,
      planDescription: plan.description,
      metadata: { userId, purpose: 'subscription', planId: String(plan.id) },
      successUrl: `${site}/dashboard?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${site}/premium-checkout?checkout=cancelled`,
    }),
  );
  return { url: session.url, paymentMode: 'stripe', paymentIntentId: null };
}
