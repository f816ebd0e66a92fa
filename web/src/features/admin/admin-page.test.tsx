import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { buildAdminStats } from './test-factories';

const admin = () => buildUser({ isAdmin: true });

/** A response that waits until the test lets it go, to look at the page while a call runs. */
function held(response: { status?: number; body?: unknown }) {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const route: MockRoute = async () => {
    await released;
    return response;
  };
  return { route, release };
}

function openAdmin(routes: Record<string, MockRoute> = {}) {
  const api = mockApi({
    'GET /api/auth/me': meRoute(admin()),
    'GET /api/admin/stats': { body: buildAdminStats() },
    ...routes,
  });
  return { api, ...renderApp('/admin') };
}

describe('admin dashboard', () => {
  it('has the six tabs and the audit log, opens the one the URL names and keeps the selection in the URL', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(admin()) });
    const { router } = renderApp('/admin?tab=billing');
    expect(await screen.findByRole('tab', { name: 'Billing' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Dashboard',
      'Users',
      'Flights',
      'Billing',
      'Plans',
      'Airline Rules',
      'Audit',
    ]);
    fireEvent.click(screen.getByRole('tab', { name: 'Plans' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Plans' })).toHaveAttribute('aria-selected', 'true'));
    expect(router.state.location.search).toBe('?tab=subscription-plans');
  });

  it('sends a traveller who is not an admin to the dashboard', async () => {
    mockApi({
      'GET /api/auth/me': meRoute(buildUser()),
      'GET /api/flights': { body: { flights: [] } },
      'GET /api/dashboard/stats': {
        body: { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 },
      },
    });
    const { router } = renderApp('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});

describe('the header runs', () => {
  it('Run Price Check shows its progress while the other stays usable, then the counts, and refreshes the stats', async () => {
    const run = held({
      body: { checkedCount: 12, priceDropsFound: 3, message: 'Checked 12 flights and found 3 price drops.' },
    });
    const { api } = openAdmin({ 'POST /api/admin/run-price-check': run.route });
    await screen.findByText('1,234');
    const statsCalls = api.calls('GET /api/admin/stats').length;

    fireEvent.click(screen.getByRole('button', { name: 'Run Price Check' }));
    const busy = await screen.findByRole('button', { name: /Checking prices/ });
    expect(busy).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Run Auto-Rebooking' })).toBeEnabled();

    run.release();
    expect(await screen.findByText('Price Check Completed')).toBeInTheDocument();
    expect(screen.getByText('Checked 12 flights and found 3 price drops.')).toBeInTheDocument();
    await waitFor(() => expect(api.calls('GET /api/admin/stats').length).toBeGreaterThan(statsCalls));
    expect(screen.getByRole('button', { name: 'Run Price Check' })).toBeEnabled();
  });

  it('Run Price Check that fails says so', async () => {
    openAdmin({ 'POST /api/admin/run-price-check': { status: 500, body: {} } });
    fireEvent.click(await screen.findByRole('button', { name: 'Run Price Check' }));
    expect(await screen.findByText('Price Check Failed')).toBeInTheDocument();
    expect(screen.getByText('An error occurred while running the price check')).toBeInTheDocument();
  });

  it('Run Auto-Rebooking shows the rebooked count and the savings, and refreshes the stats', async () => {
    const run = held({ body: { rebookedCount: 2, savingsAmount: 15_000 } });
    const { api } = openAdmin({ 'POST /api/admin/run-auto-rebooking': run.route });
    await screen.findByText('1,234');
    const statsCalls = api.calls('GET /api/admin/stats').length;

    fireEvent.click(screen.getByRole('button', { name: 'Run Auto-Rebooking' }));
    expect(await screen.findByRole('button', { name: /Rebooking\.\.\./ })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Run Price Check' })).toBeEnabled();

    run.release();
    expect(await screen.findByText('Auto-Rebooking Completed')).toBeInTheDocument();
    expect(screen.getByText('Rebooked 2 flights, saving $150.00 in airline credit')).toBeInTheDocument();
    await waitFor(() => expect(api.calls('GET /api/admin/stats').length).toBeGreaterThan(statsCalls));
  });

  it('Run Auto-Rebooking that fails says so', async () => {
    openAdmin({ 'POST /api/admin/run-auto-rebooking': { status: 502, body: {} } });
    fireEvent.click(await screen.findByRole('button', { name: 'Run Auto-Rebooking' }));
    expect(await screen.findByText('Auto-Rebooking Failed')).toBeInTheDocument();
    expect(screen.getByText('An error occurred while running auto-rebooking')).toBeInTheDocument();
  });
});
