import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { buildAdminStats } from './test-factories';

function openDashboard(path = '/admin', stats: MockRoute = { body: buildAdminStats() }) {
  const api = mockApi({ 'GET /api/auth/me': meRoute(buildUser({ isAdmin: true })), 'GET /api/admin/stats': stats });
  return { api, ...renderApp(path) };
}

/** The value shown on the tile labelled `label`. */
function tile(label: string) {
  const item = screen.getByText(label).closest('li');
  if (!item) throw new Error(`no tile ${label}`);
  return item;
}

describe('admin dashboard tab', () => {
  it('shows every admin stat as a tile in five groups, money in whole dollars', async () => {
    openDashboard();
    await screen.findByRole('heading', { name: 'Users' });
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Users',
      'Flights',
      'Rebookings & savings',
      'Commission',
      'Alerts',
      'Activity per day',
    ]);
    const expected: Record<string, string> = {
      'Total users': '1,234',
      'Premium users': '234',
      'Free users': '1,000',
      'New in the last 30 days': '56',
      'Total flights': '5,678',
      'Monitored now': '4,321',
      Upcoming: '3,999',
      'Rebookable now': '12',
      'Price drops found': '789',
      'Flights rebooked': '321',
      'Rebooked in the last 30 days': '21',
      'Total savings': '$12,346',
      'Average savings per rebooking': '$38',
      'Commission owed': '$988',
      'Commission paid': '$432',
      'Alerts sent': '40',
      'Alert precision': '94%',
    };
    for (const [label, value] of Object.entries(expected)) expect(tile(label)).toHaveTextContent(`${label}${value}`);
  });

  it('says the alert precision is not yet known before any alerted fare was tried again', async () => {
    openDashboard('/admin', { body: buildAdminStats({ alertedDrops: 3, alertsJudged: 0, alertPrecision: null }) });
    expect(await screen.findByText('Not yet known')).toBeInTheDocument();
    expect(tile('Alert precision')).toHaveTextContent('Alert precisionNot yet known');
  });

  it('draws the chart with a text alternative and keeps the span in the URL', async () => {
    const { api, router } = openDashboard();
    const chart = await screen.findByRole('img', { name: 'Chart of price drops, rebookings and savings per day' });
    expect(chart).toHaveAccessibleDescription(
      'Nov 22, 2026 to Nov 24, 2026: 8 price drops, 3 rebookings, $175 in savings. Most price drops on Nov 23, 2026 (5).',
    );
    expect(api.calls('GET /api/admin/stats').map((r) => new URL(r.url).search)).toEqual(['?days=30']);
    const spans = screen.getByRole('group', { name: 'Chart span' });
    expect(within(spans).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(within(spans).getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(router.state.location.search).toBe('?days=7'));
    await waitFor(() =>
      expect(api.calls('GET /api/admin/stats').map((r) => new URL(r.url).search)).toContain('?days=7'),
    );
    expect(within(spans).getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('opens at the span the URL names', async () => {
    const { api } = openDashboard('/admin?days=90');
    await screen.findByRole('heading', { name: 'Users' });
    expect(api.calls('GET /api/admin/stats').map((r) => new URL(r.url).search)).toEqual(['?days=90']);
  });

  it("says 'Error loading dashboard data' when the stats fail, and retries", async () => {
    const { api } = openDashboard('/admin', { status: 500, body: { message: 'Database unavailable' } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error loading dashboard data');
    expect(alert).toHaveTextContent('Database unavailable');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.calls('GET /api/admin/stats')).toHaveLength(2));
  });
});
