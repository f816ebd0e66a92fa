import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { premiumPriceFrom } from './api';

describe('premiumPriceFrom', () => {
  it("reads the active plan named 'premium' in any case, from a list or { plans }", () => {
    const plans = [
      { name: 'Free', price: 0, isActive: true },
      { name: 'PREMIUM', price: 2999, isActive: true },
    ];
    expect(premiumPriceFrom(plans)).toBe(2999);
    expect(premiumPriceFrom({ plans })).toBe(2999);
  });

  it('ignores inactive plans and answers null for anything else', () => {
    expect(premiumPriceFrom([{ name: 'premium', price: 2999, isActive: false }])).toBeNull();
    expect(premiumPriceFrom([{ name: 'premium', price: '29.99' }])).toBeNull();
    expect(premiumPriceFrom({ message: 'Not authenticated' })).toBeNull();
    expect(premiumPriceFrom(null)).toBeNull();
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
      'GET /api/subscription/plans': { body: [{ name: 'premium', price: 1999, isActive: true }] },
    });
    renderApp('/');
    expect(await within(await pricing()).findByText('$19.99')).toBeInTheDocument();
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
