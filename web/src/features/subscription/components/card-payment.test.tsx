import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { PaymentIntentResponse } from '@shared/types/billing.ts';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/testing/mock-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { CardPayment } from './card-payment';

// Stripe.js is Stripe's code from its servers: the tests stand in for it at the module boundary
// and check what the form asks of it and what it makes of each answer.
const stripe = vi.hoisted(() => ({
  confirmPayment: vi.fn(),
  loadStripe: vi.fn(),
}));

vi.mock('@stripe/stripe-js', () => ({ loadStripe: stripe.loadStripe }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children, options }: { children: ReactNode; options: { clientSecret?: string } }) => (
    <div data-client-secret={options.clientSecret}>{children}</div>
  ),
  PaymentElement: () => <div>Card details</div>,
  useStripe: () => ({ confirmPayment: stripe.confirmPayment }),
  useElements: () => ({ kind: 'elements' }),
}));

const intent: PaymentIntentResponse = {
  success: true,
  message: 'Payment created',
  paymentIntentId: 'pi_live_1',
  clientSecret: 'pi_live_1_secret_x',
  status: 'requires_payment_method',
  amount: 2499,
  paymentMode: 'stripe',
};

function renderForm(onPaid = vi.fn()) {
  mockApi({});
  renderWithProviders(<CardPayment intent={intent} amount={2499} onPaid={onPaid} />);
  return onPaid;
}

afterEach(() => {
  vi.unstubAllEnvs();
  stripe.confirmPayment.mockReset();
  stripe.loadStripe.mockReset();
});

describe('CardPayment with Stripe', () => {
  it('confirms with Stripe Elements, back to the dashboard, without a forced redirect', async () => {
    vi.stubEnv('VITE_STRIPE_PUBLISHABLE_KEY', 'pk_test_123');
    stripe.confirmPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    const onPaid = renderForm();
    expect(await screen.findByText('Card details')).toBeInTheDocument();
    expect(screen.getByText('Card details').parentElement?.parentElement?.parentElement).toHaveAttribute(
      'data-client-secret',
      'pi_live_1_secret_x',
    );
    expect(stripe.loadStripe).toHaveBeenCalledWith('pk_test_123');
    expect(screen.queryByText('Test mode: no real card is charged')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Pay $24.99' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    expect(stripe.confirmPayment).toHaveBeenCalledWith({
      elements: { kind: 'elements' },
      confirmParams: { return_url: `${window.location.origin}/dashboard` },
      redirect: 'if_required',
    });
  });

  it("toasts 'Payment Failed' with Stripe's message for a declined card", async () => {
    vi.stubEnv('VITE_STRIPE_PUBLISHABLE_KEY', 'pk_test_123');
    stripe.confirmPayment.mockResolvedValue({ error: { message: 'Your card has insufficient funds.' } });
    const onPaid = renderForm();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('Your card has insufficient funds.')).toBeInTheDocument();
    expect(onPaid).not.toHaveBeenCalled();
  });

  it("is not a success until the intent's status is 'succeeded'", async () => {
    vi.stubEnv('VITE_STRIPE_PUBLISHABLE_KEY', 'pk_test_123');
    stripe.confirmPayment.mockResolvedValue({ paymentIntent: { status: 'processing' } });
    const onPaid = renderForm();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    expect(screen.getByText('The payment did not complete (processing).')).toBeInTheDocument();
    expect(onPaid).not.toHaveBeenCalled();
  });

  it("toasts 'Payment Error' when Stripe.js throws", async () => {
    vi.stubEnv('VITE_STRIPE_PUBLISHABLE_KEY', 'pk_test_123');
    stripe.confirmPayment.mockRejectedValue(new Error('Network down'));
    renderForm();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay $24.99' }));
    expect(await screen.findByText('Payment Error')).toBeInTheDocument();
    expect(screen.getByText('Network down')).toBeInTheDocument();
  });

  it('says card payments are unavailable when the api takes real payments but the app has no key', async () => {
    vi.stubEnv('VITE_STRIPE_PUBLISHABLE_KEY', '');
    renderForm();
    expect(await screen.findByText('Card payments are not available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay $24.99' })).not.toBeInTheDocument();
  });
});
