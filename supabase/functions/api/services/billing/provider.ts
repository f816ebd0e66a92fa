// What every billing call shares with the payment provider (deps.payments: Stripe, or the local
// test mode): the payment-mode gate, provider refusals as HTTP answers, the traveller's billing
// profile and provider customer, and the answer that hands a payment intent to the browser.
import {
  CardDeclinedError,
  type PaymentIntentInfo,
  PaymentProviderError,
  PaymentsUnavailableError,
} from '../../../_shared/payments/types.ts';
import { PAYMENTS_UNAVAILABLE, type PaymentIntentResponse, TEST_MODE_NOTICE } from '../../../_shared/types/billing.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import { type BillingProfile, billingProfile, saveCustomerId } from '../../queries/billing.ts';

/** Provider refusals as answers: a decline is the traveller's (402), an outage ours (502). */
export async function provider<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof CardDeclinedError) throw new HttpError(402, error.message);
    if (error instanceof PaymentProviderError) throw new HttpError(502, new PaymentProviderError().message);
    if (error instanceof PaymentsUnavailableError) throw new HttpError(503, PAYMENTS_UNAVAILABLE);
    throw error;
  }
}

/**
 * Every payment call starts here: on a server with neither a Stripe key nor the opted-in test
 * mode it answers 503 before anything is read or written (issue 21, finding 1).
 */
export function requirePayments(deps: AppDeps): void {
  if (deps.payments.mode === 'unavailable') throw new HttpError(503, PAYMENTS_UNAVAILABLE);
}

export async function loadProfile(deps: AppDeps, userId: string): Promise<BillingProfile> {
  const profile = await deps.db.asService((tx) => billingProfile(tx, userId));
  if (!profile) throw new HttpError(404, 'Account not found');
  return profile;
}

export async function customerOf(deps: AppDeps, profile: BillingProfile): Promise<string> {
  if (profile.customerId) return profile.customerId;
  const customerId = await provider(() =>
    deps.payments.createCustomer({ email: profile.email, userId: profile.userId }),
  );
  await deps.db.asService((tx) => saveCustomerId(tx, profile.userId, customerId));
  return customerId;
}

export function intentResponse(deps: AppDeps, intent: PaymentIntentInfo, message: string): PaymentIntentResponse {
  const test = deps.payments.mode === 'test';
  return {
    success: true,
    message: test ? `${message} ${TEST_MODE_NOTICE}.` : message,
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    status: intent.status,
    amount: intent.amount,
    paymentMode: deps.payments.mode,
  };
}
