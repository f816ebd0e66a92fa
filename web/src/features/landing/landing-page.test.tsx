import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { buildPlan } from '@/testing/factories';
import { premiumPriceFrom } from './api';

describe('premiumPriceFrom', () => {
  it("reads the price of the active plan named 'premium'", () => {
    expect(premiumPriceFrom([buildPlan({ name: 'Free', price: 0 }), buildPlan({ name: 'PREMIUM', price: 2999 })])).toBe(
      2999,
    );
  });

  it('answers null without such a plan or with a price that is not whole cents', () => {
    expect(premiumPriceFrom([buildPlan({ name: 'Free', price: 0 })])).toBeNull();
    expect(premiumPriceFrom([buildPlan({ price: 29.99 })])).toBeNull();
    expect(premiumPriceFrom([buildPlan({ price: -1 })])).toBeNull();
    expect(premiumPriceFrom([])).toBeNull();
  });
});

describe('landing page', () => {
  async function pricing() {
    const heading = await screen.findByRole('heading', { name: 'Simple pricing that pays for itself' });
    return heading.closest('section') as HTMLElement;
  }

  it('shows the Premium price of the active plan when the plans call answers', async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'GET /api/subscription/plans': { body: { plans: [buildPlan({ name: 'premium', price: 1999 })] } },
    });
    renderApp('/');
    expect(await within(await pricing()).findByText('$19.99')).toBeInTheDocument();
  });

  it("reads Premium's commission rate and the free plan's flight limit from the plans", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'GET /api/subscription/plans': {
        body: {
          plans: [
            buildPlan({ id: 1, name: 'Free', price: 0, flightLimit: 3, commissionRate: 0 }),
            buildPlan({ name: 'Premium', price: 2499, commissionRate: 20 }),
          ],
        },
      },
    });
    renderApp('/');
    const section = await pricing();
    expect(await within(section).findByText('20% commission on refunds or trip credits')).toBeInTheDocument();
    expect(within(section).getByText('Up to 3 flights')).toBeInTheDocument();
  });

  it('keeps the prices when the admin renames the plans: it finds them by tier, never by name', async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'GET /api/subscription/plans': {
        body: {
          plans: [
            buildPlan({ id: 1, name: 'Premium', price: 0, flightLimit: 4, commissionRate: 0 }),
            buildPlan({ id: 2, name: 'FareBack Plus', price: 3499, commissionRate: 15 }),
          ],
        },
      },
    });
    renderApp('/');
    const section = await pricing();
    expect(await within(section).findByText('$34.99')).toBeInTheDocument();
    expect(within(section).getByText('15% commission on refunds or trip credits')).toBeInTheDocument();
    expect(within(section).getByText('Up to 4 flights')).toBeInTheDocument();
  });

  it('falls back to $24.99/year without an error when the plans call fails', async () => {
    const api = mockApi({
      'GET /api/auth/me': meRoute(null),
      'GET /api/subscription/plans': { status: 401, body: { message: 'Not authenticated' } },
    });
    renderApp('/');
    const section = await pricing();
    expect(within(section).getByText('$24.99')).toBeInTheDocument();
    expect(within(section).getByText('$0')).toBeInTheDocument();
    await screen.findByText('$24.99');
    expect(api.calls('GET /api/subscription/plans')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('has the spec content: hero, ten airlines, three testimonials rated 5.0, seven FAQs', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Airlines Owe You Money' })).toBeInTheDocument();
    const airlines = screen
      .getByRole('heading', { name: 'Works with the airlines you already fly' })
      .closest('section');
    expect(within(airlines as HTMLElement).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getAllByRole('img', { name: 'Rated 5.0 out of 5' })).toHaveLength(3);
    const faq = screen.getByRole('heading', { name: 'Questions travellers ask us' }).closest('section') as HTMLElement;
    expect(faq.querySelectorAll('details')).toHaveLength(7);
    for (const feature of ['Up to 5 flights', 'Email price-drop alerts', 'Manual rebooking']) {
      expect(screen.getByText(feature)).toBeInTheDocument();
    }
    for (const feature of [
      'Unlimited monitoring',
      'Automatic rebooking at lower prices',
      'Priority alerts',
      '25% commission on refunds or trip credits',
    ]) {
      expect(screen.getByText(feature)).toBeInTheDocument();
    }
  });
});
