import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@/lib/auth';
import { buildFreePlan, buildPlan, buildSubscription, buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const freePlan = buildFreePlan();
const premium = buildPlan({ id: 2, commissionRate: 20, description: 'Unlimited monitoring and automatic rebooking' });

function openCheckout(
  path = '/premium-checkout',
  routes: Record<string, MockRoute> = {},
  user: CurrentUser = buildUser(),
) {
  const api = mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/flights': { body: { flights: [] } },
    'GET /api/dashboard/stats': {
      body: { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 },
    },
    'GET /api/subscription/plans': { body: { plans: [freePlan, premium] } },
    'GET /api/subscription/current': { body: { subscription: buildSubscription(user) } },
    ...routes,
  });
  return { ...api, ...renderApp(path) };
}

// The test mode's session answers an address of this app (SITE_URL).
const checkoutSession = () => ({
  body: {
    url: `${window.location.origin}/premium-checkout?test_payment=pi_test_9`,
    paymentMode: 'test',
    paymentIntentId: 'pi_test_9',
  },
});

describe('/premium-checkout', () => {
  it('shows the premium plan, its yearly price, what it includes, the terms and How It Works', async () => {
    openCheckout();
    expect(await screen.findByRole('heading', { level: 1, name: 'Upgrade to Premium' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Premium' })).toBeInTheDocument();
    expect(screen.getAllByText('Unlimited monitoring and automatic rebooking').length).toBeGreaterThan(0);
    expect(screen.getAllByText('$24.99')).toHaveLength(2);
    expect(screen.getByText('per year')).toBeInTheDocument();
    const included = screen.getByRole('list', { name: 'What Premium includes' });
    expect(
      within(included)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Unlimited flight monitoring',
      'Automatic price drop detection',
      'Auto-rebooking when savings exceed your threshold',
      'Customizable rebooking thresholds',
      'Priority email notifications',
      'Only pay 20% commission on actual savings',
    ]);
    expect(screen.getByText('Billed annually')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Secure Checkout' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
    const terms = screen.getByText(/You can cancel any time/);
    expect(within(terms).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(within(terms).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('heading', { name: 'How It Works' })).toBeInTheDocument();
    for (const step of ['Subscribe', 'Set Your Thresholds', 'Enjoy Savings']) {
      expect(screen.getByRole('heading', { name: step })).toBeInTheDocument();
    }
    expect(await screen.findByText('Test mode: no real card is charged')).toBeInTheDocument();
  });

  it('checks out in test mode: the session, the confirmation, the toast, then the dashboard', async () => {
    const user = buildUser();
    let paid = false;
    const { router, ...api } = openCheckout(
      '/premium-checkout',
      {
        'GET /api/auth/me': () => meRoute(paid ? { ...user, subscriptionTier: 'premium' } : user),
        'POST /api/stripe/create-checkout-session': checkoutSession,
        'POST /api/stripe/test-mode/confirm': () => {
          paid = true;
          return { body: { success: true, message: 'Paid', paymentIntentId: 'pi_test_9', status: 'succeeded' } };
        },
      },
      user,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Secure Checkout' }));
    await waitFor(() => expect(router.state.location.search).toBe('?test_payment=pi_test_9'));
    expect(await api.calls('POST /api/stripe/create-checkout-session')[0]!.json()).toEqual({ planId: 2 });
    expect(await screen.findByRole('heading', { name: 'Confirm your payment' })).toBeInTheDocument();
    expect(screen.getByText('Test mode: no real card is charged')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Subscription Successful')).toBeInTheDocument();
    expect(screen.getByText('Your premium subscription has been activated.')).toBeInTheDocument();
    expect(await api.calls('POST /api/stripe/test-mode/confirm')[0]!.json()).toEqual({
      paymentIntentId: 'pi_test_9',
      outcome: 'succeeded',
    });
    // Premium now, but no 'Already Subscribed': the dashboard follows the success.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 5000 });
    expect(screen.queryByText('Already Subscribed')).not.toBeInTheDocument();
  });

  it("shows 'Processing...' while the session is created and 'Checkout Error' when it fails", async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    openCheckout('/premium-checkout', {
      'POST /api/stripe/create-checkout-session': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Secure Checkout' }));
    expect(await screen.findByText('Processing...')).toBeInTheDocument();
    answer({ status: 500, body: {} });
    expect(await screen.findByText('Checkout Error')).toBeInTheDocument();
    expect(screen.getByText('There was a problem starting checkout')).toBeInTheDocument();
  });

  it("says 'Subscription Failed' with the provider's message for a declined payment", async () => {
    openCheckout('/premium-checkout?test_payment=pi_test_9', {
      'POST /api/stripe/test-mode/confirm': {
        body: {
          success: false,
          message: 'Your card has insufficient funds.',
          paymentIntentId: 'pi_test_9',
          status: 'requires_payment_method',
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Simulate a declined card' }));
    expect(await screen.findByText('Subscription Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card has insufficient funds.')).toBeInTheDocument();
  });

  it("says 'Error' with the message when the confirmation call fails, or the fallback", async () => {
    openCheckout('/premium-checkout?test_payment=pi_test_9', {
      'POST /api/stripe/test-mode/confirm': { status: 500, body: {} },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to process your subscription.')).toBeInTheDocument();
  });

  it('sells the premium plan by tier when the admin renamed it (and gave its old name to the free plan)', async () => {
    const renamed = buildPlan({ id: 7, name: 'FareBack Plus', price: 3499 });
    const api = openCheckout('/premium-checkout', {
      'GET /api/subscription/plans': { body: { plans: [buildFreePlan({ name: 'Premium' }), renamed] } },
      'POST /api/stripe/create-checkout-session': checkoutSession,
    });
    expect(await screen.findByRole('heading', { name: 'FareBack Plus' })).toBeInTheDocument();
    expect(screen.getAllByText('$34.99')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Secure Checkout' }));
    await waitFor(() => expect(api.calls('POST /api/stripe/create-checkout-session')).toHaveLength(1));
    expect(await api.calls('POST /api/stripe/create-checkout-session')[0]!.json()).toEqual({ planId: 7 });
  });

  it("reads 'Subscription Unavailable' without a premium plan", async () => {
    openCheckout('/premium-checkout', { 'GET /api/subscription/plans': { body: { plans: [freePlan] } } });
    expect(await screen.findByText('Subscription Unavailable')).toBeInTheDocument();
    expect(
      screen.getByText('Premium subscription is currently unavailable. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Secure Checkout' })).not.toBeInTheDocument();
  });

  it("reads 'No Plan Selected' for a link to a plan no longer offered", async () => {
    openCheckout('/premium-checkout?plan=99');
    expect(await screen.findByText('No Plan Selected')).toBeInTheDocument();
    expect(screen.getByText('Please select a subscription plan.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose Premium' })).toHaveAttribute('href', '/premium-checkout');
  });

  it("tells a premium traveller 'Already Subscribed' and sends them to the dashboard", async () => {
    const { router } = openCheckout('/premium-checkout', {}, buildUser({ subscriptionTier: 'premium' }));
    expect(await screen.findByText('Already Subscribed')).toBeInTheDocument();
    expect(screen.getByText('You are already a premium subscriber.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('says nothing was charged when the traveller comes back from a cancelled Stripe Checkout', async () => {
    openCheckout('/premium-checkout?checkout=cancelled');
    expect(await screen.findByText('Checkout was cancelled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Secure Checkout' })).toBeInTheDocument();
  });
});
