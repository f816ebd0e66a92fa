import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BillingHistoryItem, PaymentIntentResponse } from '@shared/types/billing.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '@/lib/auth';
import { buildFreePlan, buildPlan, buildSubscription, buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const freePlan = buildFreePlan();
const premium = buildPlan({ id: 2 });
const subscriptionOf = buildSubscription;

function historyRow(overrides: Partial<BillingHistoryItem> = {}): BillingHistoryItem {
  return {
    id: 1,
    date: '2026-11-01T12:00:00.000Z',
    type: 'subscription',
    amount: 2499,
    status: 'completed',
    description: null,
    billingPeriodStart: null,
    billingPeriodEnd: null,
    ...overrides,
  };
}

function intent(overrides: Partial<PaymentIntentResponse> = {}): PaymentIntentResponse {
  return {
    success: true,
    message: 'Payment created',
    paymentIntentId: 'pi_test_1',
    clientSecret: null,
    status: 'requires_confirmation',
    amount: 2499,
    paymentMode: 'test',
    ...overrides,
  };
}

function openTab(user: CurrentUser, routes: Record<string, MockRoute> = {}, path = '/dashboard?tab=plan') {
  const api = mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/flights': { body: { flights: [] } },
    'GET /api/dashboard/stats': {
      body: { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 },
    },
    'GET /api/subscription/plans': { body: { plans: [freePlan, premium] } },
    'GET /api/subscription/current': { body: { subscription: subscriptionOf(user) } },
    'GET /api/billing/commission': { body: { commissionSummary: { commissionOwed: 1250, totalCreditsEarned: 5000 } } },
    'GET /api/billing/history': {
      body: {
        transactions: [
          historyRow(),
          historyRow({ id: 2, type: 'commission', amount: 1250, status: 'failed', date: '' }),
        ],
        total: 2,
        page: 1,
        pageSize: 10,
      },
    },
    ...routes,
  });
  return { ...api, ...renderApp(path) };
}

const yourSubscription = async () =>
  (await screen.findByRole('heading', { name: 'Your Subscription' })).closest('.chakra-card__root') as HTMLElement;

function feature(card: HTMLElement, name: string) {
  return within(card).getByText(name).closest('li') as HTMLElement;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('Subscription tab, free traveller', () => {
  it('shows the Free tier, what it includes, the upsell and the plans with both price readings', async () => {
    openTab(buildUser());
    const card = await yourSubscription();
    expect(within(card).getByText('Free')).toBeInTheDocument();
    expect(feature(card, 'Auto Rebooking')).toHaveTextContent('Premium Only');
    expect(within(card).queryByText(/Currently (enabled|disabled)/)).not.toBeInTheDocument();
    expect(feature(card, 'Commission Fee')).toHaveTextContent('N/A');
    expect(feature(card, 'Flight Monitoring')).toHaveTextContent('Included');
    expect(feature(card, 'Email Notifications')).toHaveTextContent('Included');
    expect(within(card).getByRole('button', { name: 'Upgrade to Premium' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Downgrade to Free' })).not.toBeInTheDocument();

    for (const item of ['Unlimited flight monitoring', 'Automatic rebooking', 'Advanced price alerts']) {
      expect(screen.getAllByText(item).length).toBeGreaterThan(0);
    }
    expect(screen.getByRole('link', { name: 'See Premium checkout' })).toHaveAttribute('href', '/premium-checkout');

    const plans = screen.getByRole('region', { name: 'Available Plans' });
    const free = await within(plans).findByRole('article', { name: /Free/ });
    expect(within(free).getByText('Monitor up to 5 flights')).toBeInTheDocument();
    expect(within(free).getByText('Current plan')).toBeInTheDocument();
    expect(within(free).queryByText(/commission on airline credits/)).not.toBeInTheDocument();
    const paid = within(plans).getByRole('article', { name: 'Premium' });
    expect(paid).toHaveTextContent('$2.08/month');
    expect(within(paid).getByText('$24.99 billed per year')).toBeInTheDocument();
    expect(within(paid).getByText('Monitor unlimited flights')).toBeInTheDocument();
    expect(within(paid).getByText('25% commission on airline credits')).toBeInTheDocument();
    // The billing summary shows on any plan to someone with money owed or a history (issue 25).
    expect(await screen.findByText('Commission Owed')).toBeInTheDocument();
  });

  it("reads a zero-priced plan with a commission as 'Commission-based'", async () => {
    openTab(buildUser(), {
      'GET /api/subscription/plans': {
        body: { plans: [freePlan, buildPlan({ id: 3, name: 'Pay as you save', price: 0, commissionRate: 30 })] },
      },
    });
    const plan = await screen.findByRole('article', { name: 'Pay as you save' });
    expect(within(plan).getByText('Commission-based')).toBeInTheDocument();
    expect(within(plan).getByText('30% commission on airline credits')).toBeInTheDocument();
  });

  it('upgrades through the payment dialog in test mode, then refreshes the subscription and the user', async () => {
    const user = buildUser();
    const upgraded = { ...user, subscriptionTier: 'premium' as const };
    let paid = false;
    const api = openTab(user, {
      'GET /api/auth/me': () => meRoute(paid ? upgraded : user),
      'GET /api/subscription/current': () => ({
        body: { subscription: subscriptionOf(paid ? upgraded : user) },
      }),
      'POST /api/stripe/payment-intent': { body: intent() },
      'POST /api/stripe/test-mode/confirm': () => {
        paid = true;
        return {
          body: { success: true, message: 'Payment succeeded', paymentIntentId: 'pi_test_1', status: 'succeeded' },
        };
      },
    });
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Upgrade to Premium' }));

    const dialog = await screen.findByRole('dialog', { name: 'Premium Subscription' });
    expect(within(dialog).getByText('Complete your payment to upgrade to the Premium plan')).toBeInTheDocument();
    expect(await within(dialog).findByText('Test mode: no real card is charged')).toBeInTheDocument();
    expect(await api.calls('POST /api/stripe/payment-intent')[0]!.json()).toEqual({ amount: 2499, planId: 2 });

    const meCalls = api.calls('GET /api/auth/me').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Payment Successful')).toBeInTheDocument();
    expect(screen.getByText('Your subscription has been updated!')).toBeInTheDocument();
    expect(await api.calls('POST /api/stripe/test-mode/confirm')[0]!.json()).toEqual({
      paymentIntentId: 'pi_test_1',
      outcome: 'succeeded',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Premium Subscription' })).not.toBeInTheDocument());
    await waitFor(() => expect(api.calls('GET /api/auth/me').length).toBeGreaterThan(meCalls));
    expect(await screen.findByText('Currently disabled - Enable in settings')).toBeInTheDocument();
    expect(api.calls('GET /api/subscription/current').length).toBeGreaterThan(1);
  });

  it("says 'Payment Failed' with the provider's reason when the card is declined, and stays free", async () => {
    const api = openTab(buildUser(), {
      'POST /api/stripe/payment-intent': { body: intent() },
      'POST /api/stripe/test-mode/confirm': {
        body: {
          success: false,
          message: 'Your card was declined.',
          paymentIntentId: 'pi_test_1',
          status: 'requires_payment_method',
        },
      },
    });
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Upgrade to Premium' }));
    const dialog = await screen.findByRole('dialog', { name: 'Premium Subscription' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Simulate a declined card' }));
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card was declined.')).toBeInTheDocument();
    expect(await api.calls('POST /api/stripe/test-mode/confirm')[0]!.json()).toEqual({
      paymentIntentId: 'pi_test_1',
      outcome: 'failed',
    });
    // The dialog stays, to try again.
    expect(screen.getByRole('dialog', { name: 'Premium Subscription' })).toBeInTheDocument();
  });

  it("says 'Payment Error' when the confirmation itself fails", async () => {
    openTab(buildUser(), {
      'POST /api/stripe/payment-intent': { body: intent() },
      'POST /api/stripe/test-mode/confirm': { status: 500, body: {} },
    });
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Upgrade to Premium' }));
    const dialog = await screen.findByRole('dialog', { name: 'Premium Subscription' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Payment Error')).toBeInTheDocument();
    expect(screen.getByText('An unexpected error occurred')).toBeInTheDocument();
  });

  it("says 'Upgrade Failed' with the server's message when the payment cannot be started", async () => {
    openTab(buildUser(), {
      'POST /api/stripe/payment-intent': {
        status: 502,
        body: { message: 'The payment provider is unavailable. Please try again later.' },
      },
    });
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Upgrade to Premium' }));
    expect(await screen.findAllByText('Upgrade Failed')).not.toHaveLength(0);
    expect(screen.getAllByText('The payment provider is unavailable. Please try again later.')).not.toHaveLength(0);
  });

  it('shows a notice instead of the upgrade button when the server has no payments configured', async () => {
    const user = buildUser();
    openTab(user, {
      'GET /api/subscription/current': { body: { subscription: subscriptionOf(user, { paymentMode: 'unavailable' }) } },
    });
    const card = await yourSubscription();
    expect(await within(card).findByText('Payments are not configured on this server.')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Upgrade to Premium' })).not.toBeInTheDocument();
  });
});

describe('Subscription tab, premium traveller', () => {
  const premiumUser = (overrides: Partial<CurrentUser> = {}) =>
    buildUser({ subscriptionTier: 'premium', autoRebooking: true, flightLimit: -1, ...overrides });

  it('shows Premium with the commission fee of its plan, auto-rebooking on, and the renewal date', async () => {
    openTab(premiumUser());
    const card = await yourSubscription();
    expect(within(card).getByText('Premium')).toBeInTheDocument();
    expect(feature(card, 'Auto Rebooking')).toHaveTextContent('Included');
    expect(feature(card, 'Auto Rebooking')).toHaveTextContent('Currently enabled - Auto-rebooking active');
    expect(await within(card).findByText('25%')).toBeInTheDocument();
    expect(await within(card).findByText('Renews on Jan 10, 2027 for $24.99 a year.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Downgrade to Free' })).toBeInTheDocument();
    expect(screen.queryByText('Advanced price alerts')).not.toBeInTheDocument();
  });

  it('says auto-rebooking is off and how to turn it on', async () => {
    openTab(premiumUser({ autoRebooking: false }));
    expect(await screen.findByText('Currently disabled - Enable in settings')).toBeInTheDocument();
  });

  it('shows the commission, the credits and the payment history with dates and badges', async () => {
    openTab(premiumUser());
    expect(await screen.findByText('Commission Owed')).toBeInTheDocument();
    expect(screen.getByText('Commission Owed').parentElement).toHaveTextContent('$12.50');
    expect(screen.getByText('Total Credits Earned').parentElement).toHaveTextContent('$50.00');
    const table = await screen.findByRole('table', { name: 'Payment History' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Date', 'Type', 'Amount', 'Status']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('Nov 1, 2026');
    expect(first).toHaveTextContent('Subscription');
    expect(first).toHaveTextContent('$24.99');
    expect(within(first!).getByText('completed')).toHaveAttribute('data-tone', 'success');
    expect(second).toHaveTextContent('N/A');
    expect(within(second!).getByText('failed')).toHaveAttribute('data-tone', 'danger');
    expect(screen.getByRole('button', { name: 'Pay Commission ($12.50)' })).toBeInTheDocument();
  });

  it('asks the server for the history page by page, newest first', async () => {
    const api = openTab(premiumUser(), {
      'GET /api/billing/history': (request) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return {
          body: {
            transactions: [historyRow({ id: page, amount: page * 100 })],
            total: 11,
            page,
            pageSize: 10,
          },
        };
      },
    });
    await screen.findByRole('table', { name: 'Payment History' });
    const first = new URL(api.calls('GET /api/billing/history')[0]!.url).searchParams;
    expect(Object.fromEntries(first)).toEqual({ page: '1', pageSize: '10', sort: 'date', order: 'desc' });
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(await screen.findByText('$2.00')).toBeInTheDocument();
  });

  it("reads 'No payment history found' for an empty history", async () => {
    openTab(premiumUser(), {
      'GET /api/billing/history': { body: { transactions: [], total: 0, page: 1, pageSize: 10 } },
    });
    expect(await screen.findByText('No payment history found')).toBeInTheDocument();
  });

  it("pays the commission through the card form, toasts 'Payment Processed' and refreshes billing", async () => {
    let owed = 1250;
    const api = openTab(premiumUser(), {
      'GET /api/billing/commission': () => ({
        body: { commissionSummary: { commissionOwed: owed, totalCreditsEarned: 5000 } },
      }),
      'POST /api/stripe/pay-commission': { body: intent({ paymentIntentId: 'pi_test_c', amount: 1250 }) },
      'POST /api/stripe/test-mode/confirm': () => {
        owed = 0;
        return { body: { success: true, message: 'Paid', paymentIntentId: 'pi_test_c', status: 'succeeded' } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Commission ($12.50)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay Commission' });
    expect(within(dialog).getByText('Test mode: no real card is charged')).toBeInTheDocument();
    const history = api.calls('GET /api/billing/history').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay $12.50' }));
    expect(await screen.findByText('Payment Processed')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'No commission due' })).toBeInTheDocument();
    expect(api.calls('GET /api/billing/history').length).toBeGreaterThan(history);
    expect(api.calls('POST /api/stripe/pay-commission')).toHaveLength(1);
  });

  it('toasts Payment Processed at once when the saved card was charged', async () => {
    openTab(premiumUser(), {
      'POST /api/stripe/pay-commission': { body: intent({ status: 'succeeded', amount: 1250 }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Commission ($12.50)' }));
    expect(await screen.findByText('Payment Processed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Pay Commission' })).not.toBeInTheDocument();
  });

  it("says 'Payment Failed' with the server's message, or the fallback", async () => {
    openTab(premiumUser(), {
      'POST /api/stripe/pay-commission': { status: 500, body: {} },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Commission ($12.50)' }));
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Unable to process payment. Please try again.')).toBeInTheDocument();
  });

  it('shows a notice instead of Pay Commission when the server has no payments configured', async () => {
    const user = premiumUser();
    const api = openTab(user, {
      'GET /api/subscription/current': { body: { subscription: subscriptionOf(user, { paymentMode: 'unavailable' }) } },
    });
    expect(await screen.findByText('Payments are not configured on this server.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay Commission/ })).not.toBeInTheDocument();
    expect(api.calls('POST /api/stripe/pay-commission')).toHaveLength(0);
  });

  it("says 'No commission due' without a call when nothing is owed", async () => {
    const api = openTab(premiumUser(), {
      'GET /api/billing/commission': { body: { commissionSummary: { commissionOwed: 0, totalCreditsEarned: 0 } } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'No commission due' }));
    expect(await screen.findByText("You don't have any commission payments due at this time.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay Commission/ })).not.toBeInTheDocument();
    expect(api.calls('POST /api/stripe/pay-commission')).toHaveLength(0);
  });

  it('confirms a downgrade in a dialog that Cancel closes without a call', async () => {
    const api = openTab(premiumUser());
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Downgrade to Free' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Downgrade to Free?' });
    // the default: at the end of the paid year, nothing lost
    expect(within(dialog).getByRole('radio', { name: /At the end of the paid year \(Jan 10, 2027\)/ })).toBeChecked();
    expect(dialog).toHaveTextContent('Premium stays until Jan 10, 2027, then it does not renew.');
    expect(dialog).toHaveTextContent('Premium will not renew: nothing more is charged, and nothing is refunded.');
    expect(dialog).toHaveTextContent('monitors up to 5 flights');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.calls('POST /api/subscription/update')).toHaveLength(0);
  });

  it('downgrades, toasts, refreshes, and says how many flights to remove', async () => {
    const user = premiumUser();
    let downgraded = false;
    const message =
      'Your subscription has been downgraded. Auto-rebooking has been disabled. You are watching 7 flights and the Free plan monitors up to 5: remove 2 to add new flights. No flight has been deleted.';
    const api = openTab(user, {
      // no paid year ahead (granted Premium): the dialog offers only 'now' (the choice: the test below)
      'GET /api/subscription/current': () => ({
        body: { subscription: subscriptionOf(downgraded ? buildUser() : user, { endDate: null, renewal: null }) },
      }),
      'GET /api/auth/me': () =>
        meRoute(downgraded ? { ...user, subscriptionTier: 'free', autoRebooking: false } : user),
      'POST /api/subscription/update': () => {
        downgraded = true;
        return {
          body: {
            success: true,
            message,
            subscription: subscriptionOf(buildUser()),
            flightsOverLimit: 2,
            flightLimit: 5,
            paidThrough: '2027-01-10T00:00:00.000Z',
          },
        };
      },
    });
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Downgrade to Free' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Downgrade to Free?' });
    const commissionCalls = api.calls('GET /api/billing/commission').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Downgrade now' }));
    expect(await screen.findByText('Downgraded to Free Tier')).toBeInTheDocument();
    expect(
      screen.getByText('Your subscription has been downgraded. Auto-rebooking has been disabled.'),
    ).toBeInTheDocument();
    expect(await api.calls('POST /api/subscription/update')[0]!.json()).toEqual({ tier: 'free' });
    expect(await screen.findByText('Remove 2 flights to add new ones')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(await screen.findByText('Premium Only')).toBeInTheDocument();
    expect(api.calls('GET /api/billing/commission').length).toBeGreaterThanOrEqual(commissionCalls);
    expect(api.calls('GET /api/subscription/current').length).toBeGreaterThan(1);
  });

  it('downgrades at the end of the paid year by default: the call says period_end, the toast the date', async () => {
    const message =
      'Your Premium subscription will not renew. You keep Premium until Jan 10, 2027; then you move to the Free plan. Nothing is refunded and nothing is deleted.';
    const api = openTab(premiumUser(), {
      'POST /api/subscription/update': {
        body: {
          success: true,
          message,
          subscription: subscriptionOf(premiumUser()),
          flightsOverLimit: 0,
          flightLimit: 5,
          paidThrough: '2027-01-10T00:00:00.000Z',
        },
      },
    });
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Downgrade to Free' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Downgrade to Free?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Downgrade at year end' }));
    expect(await screen.findByText('Subscription Updated')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(await api.calls('POST /api/subscription/update')[0]!.json()).toEqual({ tier: 'free', at: 'period_end' });
  });

  it("says 'Update Failed' with the server's message when the downgrade is refused", async () => {
    openTab(premiumUser(), {
      'POST /api/subscription/update': { status: 409, body: { message: 'You are already on the Free plan.' } },
    });
    fireEvent.click(within(await yourSubscription()).getByRole('button', { name: 'Downgrade to Free' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Downgrade to Free?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Downgrade at year end' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('You are already on the Free plan.')).toBeInTheDocument();
  });
});

describe('a failed renewal and the card (issue 25)', () => {
  const premiumUser = () => buildUser({ subscriptionTier: 'premium', autoRebooking: true, flightLimit: -1 });

  it("shows the banner with the reason, the next try and the outcome, and 'Update card' saves a card", async () => {
    const user = premiumUser();
    const api = openTab(user, {
      'GET /api/subscription/current': {
        body: {
          subscription: subscriptionOf(user, {
            status: 'past_due',
            renews: true,
            renewal: null,
            hasSavedCard: true,
            paymentIssue: {
              purpose: 'subscription',
              amount: 2499,
              reason: 'Your card was declined.',
              retry: '2027-01-11T00:00:00.000Z',
              outcome: 'If the last try fails, your Premium year ends and you move to the Free plan.',
            },
          }),
        },
      },
      'POST /api/billing/card': {
        body: {
          url: null,
          message: 'Your card was updated. It is used for your next renewal and commission statements.',
          paymentMode: 'test',
          renewal: 'renewed',
        },
      },
    });
    const banner = await screen.findByRole('alert', { name: 'Payment failed' });
    expect(banner).toHaveTextContent('Your Premium renewal of $24.99 did not go through');
    expect(banner).toHaveTextContent('Your card was declined.');
    expect(banner).toHaveTextContent('Next try: Jan 11, 2027.');
    expect(banner).toHaveTextContent('you move to the Free plan');
    fireEvent.click(within(banner).getByRole('button', { name: 'Update card' }));
    expect(await screen.findByText('Card Updated - Premium Renewed')).toBeInTheDocument();
    expect(await api.calls('POST /api/billing/card')[0]!.json()).toEqual({ testCard: 'valid' });
    // the card, not 'Already Subscribed': the Subscription card says the renewal failed
    expect(await yourSubscription()).toHaveTextContent('Your renewal payment failed: update your card');
  });

  it('shows no billing summary to a Free traveller with nothing owed and no history', async () => {
    openTab(buildUser(), {
      'GET /api/billing/commission': { body: { commissionSummary: { commissionOwed: 0, totalCreditsEarned: 0 } } },
      'GET /api/billing/history': { body: { transactions: [], total: 0, page: 1, pageSize: 10 } },
    });
    await yourSubscription();
    expect(await screen.findByRole('link', { name: 'See Premium checkout' })).toBeInTheDocument();
    expect(screen.queryByText('Commission Owed')).not.toBeInTheDocument();
  });
});

describe('back on the dashboard from a Stripe payment page', () => {
  it("says 'Upgraded to Premium Tier' when the checkout's payment has made the traveller premium", async () => {
    const { router } = openTab(
      buildUser({ subscriptionTier: 'premium' }),
      {},
      '/dashboard?checkout=success&session_id=cs_1',
    );
    expect(await screen.findByText('Upgraded to Premium Tier')).toBeInTheDocument();
    expect(
      screen.getByText('Your subscription has been upgraded. You can now enable auto-rebooking!'),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("says 'Subscription Updated' while Stripe has not yet confirmed the plan", async () => {
    openTab(buildUser(), {}, '/dashboard?tab=plan&checkout=success&session_id=cs_1');
    expect(await screen.findByText('Subscription Updated')).toBeInTheDocument();
  });

  it("says 'Payment Failed' when the bank's page did not confirm the card", async () => {
    const { router } = openTab(
      buildUser(),
      {},
      '/dashboard?tab=plan&payment_intent=pi_1&payment_intent_client_secret=s&redirect_status=failed',
    );
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=plan'));
  });
});
