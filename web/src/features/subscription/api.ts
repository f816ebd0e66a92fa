import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BillingHistoryItem,
  BillingHistoryResponse,
  ChangeCardResponse,
  CheckoutSessionResponse,
  CommissionSummaryResponse,
  CurrentSubscriptionResponse,
  PaymentIntentResponse,
  TestModeConfirmResponse,
  UpdateSubscriptionResponse,
} from '@shared/types/billing.ts';
import type {
  ChangeCardBody,
  CheckoutSessionBody,
  DowngradeTime,
  PaymentIntentBody,
  TestModeOutcome,
} from '@shared/schemas/billing.ts';
import { notify } from '@/components/ui/toaster';
import { ApiError, apiRequest, errorMessage } from '@/lib/api-client';
import { authKeys } from '@/lib/auth';
import type { ListPage, ListQuery } from '@/lib/pagination';
import { keepPreviousData } from '@tanstack/react-query';

/*
 * Subscription and billing calls (docs/architecture.md, "Billing API"). Refreshes go through the
 * MutationCache (`meta.invalidates`): a downgrade and a completed payment refresh the
 * subscription, the current user, the commission and the history; a paid commission the
 * commission, the history and the current user (whose commissionOwed it changes).
 */
export const subscriptionKeys = {
  all: ['subscription'] as const,
  current: () => [...subscriptionKeys.all, 'current'] as const,
};

export const billingKeys = {
  all: ['billing'] as const,
  commission: () => [...billingKeys.all, 'commission'] as const,
  history: () => [...billingKeys.all, 'history'] as const,
};

/** The history's sort keys, as GET /api/billing/history accepts them; newest first by default. */
export const HISTORY_SORT_KEYS = ['date', 'amount', 'type', 'status'] as const;
export type HistorySortKey = (typeof HISTORY_SORT_KEYS)[number];

export const currentSubscriptionQueryOptions = () =>
  queryOptions({
    queryKey: subscriptionKeys.current(),
    queryFn: async () => (await apiRequest<CurrentSubscriptionResponse>('GET', '/subscription/current')).subscription,
  });

export const commissionQueryOptions = () =>
  queryOptions({
    queryKey: billingKeys.commission(),
    queryFn: async () => (await apiRequest<CommissionSummaryResponse>('GET', '/billing/commission')).commissionSummary,
  });

/**
 * One page of the payment history. The api names the page's rows `transactions` (the spec's
 * name) beside the list convention's total/page/pageSize; the table reads `ListPage` `items`.
 */
export const historyQueryOptions = (query: ListQuery<HistorySortKey>) =>
  queryOptions({
    queryKey: [...billingKeys.history(), query] as const,
    queryFn: async (): Promise<ListPage<BillingHistoryItem>> => {
      const { transactions, ...page } = await apiRequest<BillingHistoryResponse>('GET', '/billing/history', undefined, {
        query: { page: query.page, pageSize: query.pageSize, sort: query.sort, order: query.order },
      });
      return { items: transactions, ...page };
    },
    placeholderData: keepPreviousData,
  });

export function useCurrentSubscription() {
  return useQuery(currentSubscriptionQueryOptions());
}

export function useCommission() {
  return useQuery(commissionQueryOptions());
}

/** Everything a change of plan or a payment can change. */
export const AFTER_PLAN_CHANGE = [subscriptionKeys.all, authKeys.me(), billingKeys.all] as const;

/**
 * POST /api/subscription/update: a downgrade (an upgrade is a payment), now or at the end of the
 * paid year (renewal off, Premium kept until then).
 */
export function useDowngrade() {
  return useMutation({
    mutationFn: (at: DowngradeTime = 'now') =>
      apiRequest<UpdateSubscriptionResponse>(
        'POST',
        '/subscription/update',
        at === 'period_end' ? { tier: 'free', at } : { tier: 'free' },
      ),
    meta: {
      invalidates: AFTER_PLAN_CHANGE,
      errorTitle: 'Update Failed',
      errorFallback: 'Your plan could not be changed.',
    },
  });
}

/** `{tier: 'premium'}` while a downgrade is scheduled: renewal back on, the downgrade cancelled. */
export function useKeepPremium() {
  return useMutation({
    mutationFn: () => apiRequest<UpdateSubscriptionResponse>('POST', '/subscription/update', { tier: 'premium' }),
    meta: {
      invalidates: AFTER_PLAN_CHANGE,
      errorTitle: 'Update Failed',
      errorFallback: 'Your plan could not be changed.',
    },
  });
}

/**
 * POST /api/billing/card: Stripe's Billing Portal (the browser goes there and comes back to the
 * Subscription tab), or in test mode a test card saved at once (a failed renewal is charged again).
 */
export function useChangeCard() {
  return useMutation({
    mutationFn: (body: ChangeCardBody = {}) => apiRequest<ChangeCardResponse>('POST', '/billing/card', body),
    meta: {
      invalidates: AFTER_PLAN_CHANGE,
      errorTitle: 'Card Not Updated',
      errorFallback: 'Your card could not be updated. Please try again.',
    },
  });
}

/** POST /api/stripe/payment-intent: the server checks the amount against the plan row. */
export function createPaymentIntent(input: PaymentIntentBody): Promise<PaymentIntentResponse> {
  return apiRequest<PaymentIntentResponse>('POST', '/stripe/payment-intent', input);
}

/**
 * POST /api/stripe/create-checkout-session; the caller sends the browser to its `url`: Stripe
 * Checkout, or in the local test mode this app's /premium-checkout?test_payment=<id>.
 */
export function useCheckoutSession() {
  return useMutation({
    mutationFn: (body: CheckoutSessionBody) =>
      apiRequest<CheckoutSessionResponse>('POST', '/stripe/create-checkout-session', body),
    meta: { errorTitle: 'Checkout Error', errorFallback: 'There was a problem starting checkout' },
  });
}

/** The local test mode's confirmation step: completes (or declines) the intent as Stripe would. */
export function confirmTestPayment(
  paymentIntentId: string,
  outcome: TestModeOutcome,
): Promise<TestModeConfirmResponse> {
  return apiRequest<TestModeConfirmResponse>('POST', '/stripe/test-mode/confirm', { paymentIntentId, outcome });
}

/** POST /api/stripe/pay-commission: the caller pays what they owe (a saved card, else a card form). */
export function usePayCommission() {
  return useMutation({
    mutationFn: () => apiRequest<PaymentIntentResponse>('POST', '/stripe/pay-commission'),
    meta: {
      invalidates: [billingKeys.all, authKeys.me()],
      errorTitle: 'Payment Failed',
      errorFallback: 'Unable to process payment. Please try again.',
    },
  });
}

/** Stripe's publishable key (build time); without one only the local test mode can take a payment. */
export function stripePublishableKey(): string | undefined {
  return import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY || undefined;
}

/** What confirming a card payment came to: the intent's status, and the provider's words. */
export interface PaymentOutcome {
  status: string;
  message: string;
}

/** The payment did not succeed (a declined card): `message` is the provider's reason. */
export class PaymentDeclinedError extends Error {}

export interface ConfirmPaymentToasts {
  /** The toast for a declined payment; the description is the provider's message. */
  declinedTitle: string;
  declinedFallback: string;
  /** The toast for anything thrown (the network, the server). */
  errorTitle: string;
  errorFallback: string;
}

/** The card form's toasts (the dashboard's dialog and the commission). */
export const CARD_PAYMENT_TOASTS: ConfirmPaymentToasts = {
  declinedTitle: 'Payment Failed',
  declinedFallback: 'Your card was declined.',
  errorTitle: 'Payment Error',
  errorFallback: 'An unexpected error occurred',
};

/**
 * Confirms a payment (Stripe Elements, or the local test mode's step). Success only when the
 * intent's status is 'succeeded': then the subscription, the current user and the billing reads
 * refresh and `onPaid` runs. Otherwise the toast says why; a declined attempt is a row in the
 * history, so billing refreshes then too.
 */
export function useConfirmPayment(onPaid: () => void, toasts: ConfirmPaymentToasts = CARD_PAYMENT_TOASTS) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ confirm }: { outcome: TestModeOutcome; confirm: () => Promise<PaymentOutcome> }) => {
      let outcome: PaymentOutcome;
      try {
        outcome = await confirm();
      } catch (error) {
        // A declined card answers 402 with the provider's message.
        if (error instanceof ApiError && error.status === 402) {
          throw new PaymentDeclinedError(errorMessage(error, toasts.declinedFallback));
        }
        throw error;
      }
      if (outcome.status !== 'succeeded') {
        const reason =
          outcome.status === 'requires_payment_method' || outcome.status === 'failed'
            ? toasts.declinedFallback
            : `The payment did not complete (${outcome.status}).`;
        throw new PaymentDeclinedError(outcome.message || reason);
      }
      return outcome;
    },
    meta: { invalidates: AFTER_PLAN_CHANGE },
    onSuccess: () => onPaid(),
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
      if (error instanceof PaymentDeclinedError) {
        notify({ title: toasts.declinedTitle, description: error.message, status: 'error' });
      } else {
        notify({ title: toasts.errorTitle, description: errorMessage(error, toasts.errorFallback), status: 'error' });
      }
    },
  });
}
