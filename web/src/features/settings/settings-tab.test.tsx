import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '@/lib/auth';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const stats = { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 };
const ok = { body: { message: 'Saved' } };

function openSettings(user: CurrentUser, routes: Record<string, MockRoute> = {}) {
  const api = mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/flights': { body: { flights: [] } },
    'GET /api/dashboard/stats': { body: stats },
    ...routes,
  });
  const app = renderApp('/dashboard?tab=settings');
  return { api, ...app };
}

const premium = (overrides: Partial<CurrentUser> = {}) => buildUser({ subscriptionTier: 'premium', ...overrides });

async function card(name: string) {
  const heading = await screen.findByRole('heading', { name });
  const root = heading.closest<HTMLElement>('.chakra-card__root');
  if (!root) throw new Error(`no card for ${name}`);
  return root;
}

/**
 * Types into a number field as a person would, then leaves it. The widget (zag's number-input)
 * takes typing only once its machine has seen the focus (it marks its root data-focus); an input
 * event before that is dropped, which a busy machine made happen now and then. So the test waits
 * for the widget to be focused, and for the typed text to stand, before going on.
 */
async function typeAndLeave(input: HTMLElement, value: string) {
  act(() => input.focus());
  const widget = input.closest('[data-scope="number-input"][data-part="root"]');
  await waitFor(() => expect(widget).toHaveAttribute('data-focus'));
  fireEvent.input(input, { target: { value } });
  await waitFor(() => expect(input).toHaveValue(value));
  fireEvent.focusOut(input);
}

async function bodyOf(api: ReturnType<typeof mockApi>, route: string, index = 0): Promise<unknown> {
  await waitFor(() => expect(api.calls(route).length).toBeGreaterThan(index));
  return api.calls(route)[index]?.json();
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Settings tab', () => {
  it('shows the email panel and the four cards in order', async () => {
    openSettings(buildUser());
    await card('Rebooking Thresholds');
    const headings = within(screen.getByRole('tabpanel'))
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(headings).toEqual([
      'Email Connection',
      'Auto-Rebooking Settings',
      'Notification Preferences',
      'Price Alert Thresholds',
      'Rebooking Thresholds',
    ]);
  });

  it('says alerts wait for a confirmed address, only while it is unconfirmed', async () => {
    openSettings(buildUser({ email: 'ada@example.com', emailConfirmed: false }));
    expect(await screen.findByText('Alerts wait for your confirmed address')).toBeInTheDocument();
    expect(
      screen.getByText(/sends price-drop, rebooking and cancellation emails to ada@example.com only once/),
    ).toBeInTheDocument();
  });

  it('says nothing about confirmation for a confirmed address', async () => {
    openSettings(buildUser());
    await card('Rebooking Thresholds');
    expect(screen.queryByText('Alerts wait for your confirmed address')).not.toBeInTheDocument();
  });

  it('disables the premium controls for a free traveller, and Upgrade opens Subscription', async () => {
    const { api, router } = openSettings(buildUser());
    const auto = await card('Auto-Rebooking Settings');
    expect(within(auto).getByRole('checkbox', { name: 'Automatic rebooking' })).toBeDisabled();
    expect(within(auto).queryByRole('button', { name: 'Run Auto-Rebooking Check' })).not.toBeInTheDocument();
    const thresholds = await card('Rebooking Thresholds');
    for (const slider of within(thresholds).getAllByRole('slider')) {
      expect(slider).toHaveAttribute('aria-disabled', 'true');
    }
    expect(within(thresholds).getByLabelText('Rebook when')).toBeDisabled();
    expect(within(thresholds).getByRole('checkbox', { name: /international flights/ })).toBeDisabled();
    expect(within(thresholds).getByRole('button', { name: 'Save Thresholds' })).toBeDisabled();
    // every plan's settings stay open
    expect(screen.getByRole('checkbox', { name: 'Price drop alerts' })).toBeEnabled();
    expect(screen.getByLabelText('Minimum price drop ($)')).toBeEnabled();

    fireEvent.click(within(auto).getByRole('checkbox', { name: 'Automatic rebooking' }));
    fireEvent.click(within(auto).getByRole('button', { name: 'Upgrade to Premium' }));
    expect(await screen.findByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
    expect(router.state.location.search).toBe('?tab=plan');
    expect(api.calls('POST /api/auto-rebooking/toggle')).toHaveLength(0);
  });
});

describe('Auto-Rebooking Settings', () => {
  it('switches at once, posts the change and refreshes the current user', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { api } = openSettings(premium(), {
      'POST /api/auto-rebooking/toggle': async () => {
        await held;
        return { body: { message: 'Auto-rebooking enabled' } };
      },
    });
    const toggle = within(await card('Auto-Rebooking Settings')).getByRole('checkbox', {
      name: 'Automatic rebooking',
    });
    expect(toggle).not.toBeChecked();
    const meCalls = api.calls('GET /api/auth/me').length;
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(await bodyOf(api, 'POST /api/auto-rebooking/toggle')).toEqual({ enabled: true });
    release();
    await waitFor(() => expect(api.calls('GET /api/auth/me').length).toBeGreaterThan(meCalls));
  });

  it('puts the switch back and toasts when the change fails', async () => {
    openSettings(premium({ autoRebooking: true }), {
      'POST /api/auto-rebooking/toggle': { status: 500, body: { message: 'Internal server error' } },
    });
    const toggle = within(await card('Auto-Rebooking Settings')).getByRole('checkbox', {
      name: 'Automatic rebooking',
    });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    expect(await screen.findByText('Failed to update auto-rebooking settings')).toBeInTheDocument();
    // the switch shows on again (its root's state; jsdom keeps the hidden input's clicked property)
    await waitFor(() => expect(toggle.closest('label')).toHaveAttribute('data-state', 'checked'));
  });

  it('runs a check, shows its message and count, and refreshes flights and stats', async () => {
    const { api, queryClient } = openSettings(premium({ autoRebooking: true }), {
      'POST /api/auto-rebooking/execute': { body: { message: 'Auto-rebooking check complete', count: 2 } },
    });
    const auto = await card('Auto-Rebooking Settings');
    // the stat tiles are on screen; the flight list is cached for the Flights tab
    await waitFor(() => expect(api.calls('GET /api/dashboard/stats').length).toBeGreaterThan(0));
    queryClient.setQueryData(['flights', 'list'], []);
    const statsCalls = api.calls('GET /api/dashboard/stats').length;
    fireEvent.click(within(auto).getByRole('button', { name: 'Run Auto-Rebooking Check' }));
    const status = await within(auto).findByRole('status');
    expect(status).toHaveTextContent('Auto-rebooking check complete');
    expect(status).toHaveTextContent('Flights rebooked: 2');
    await waitFor(() => expect(api.calls('GET /api/dashboard/stats').length).toBeGreaterThan(statsCalls));
    expect(queryClient.getQueryState(['flights', 'list'])?.isInvalidated).toBe(true);
  });

  it('toasts a refused check with the reason', async () => {
    openSettings(premium({ autoRebooking: true }), {
      'POST /api/auto-rebooking/execute': {
        status: 403,
        body: {
          message: 'Premium subscription required',
          details: 'Upgrade to a premium plan to use automatic rebooking.',
        },
      },
    });
    fireEvent.click(
      within(await card('Auto-Rebooking Settings')).getByRole('button', { name: 'Run Auto-Rebooking Check' }),
    );
    expect(await screen.findByText('Auto-rebooking failed')).toBeInTheDocument();
    expect(
      screen.getByText('Premium subscription required: Upgrade to a premium plan to use automatic rebooking.'),
    ).toBeInTheDocument();
  });

  it('offers the check only once automatic rebooking is on', async () => {
    openSettings(premium({ autoRebooking: false }));
    const auto = await card('Auto-Rebooking Settings');
    expect(within(auto).getByRole('button', { name: 'Run Auto-Rebooking Check' })).toBeDisabled();
    expect(within(auto).getByText('Turn on automatic rebooking to run a check.')).toBeInTheDocument();
  });
});

describe('Notification Preferences', () => {
  it('saves the switches, frequency, time and the browser time zone', async () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      ...new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).resolvedOptions(),
      timeZone: 'Europe/Paris',
    });
    const { api } = openSettings(buildUser(), { 'POST /api/notifications/preferences': ok });
    const prefs = await card('Notification Preferences');
    const rebookings = within(prefs).getByRole('checkbox', { name: 'Rebooking confirmations' });
    fireEvent.click(rebookings);
    await waitFor(() => expect(rebookings.closest('label')).toHaveAttribute('data-state', 'unchecked'));
    fireEvent.change(within(prefs).getByLabelText('Frequency'), { target: { value: 'daily' } });
    fireEvent.change(within(prefs).getByLabelText('Time of day'), { target: { value: '18:30' } });
    expect(within(prefs).getByText('Digests arrive at this time (Europe/Paris).')).toBeInTheDocument();
    fireEvent.click(within(prefs).getByRole('button', { name: 'Save Preferences' }));
    expect(await bodyOf(api, 'POST /api/notifications/preferences')).toEqual({
      notifyPriceDrops: true,
      notifyRebookings: false,
      notifyCancellations: true,
      notificationFrequency: 'daily',
      notificationTime: '18:30',
      timeZone: 'Europe/Paris',
    });
    expect(await screen.findByText('Preferences Updated')).toBeInTheDocument();
  });

  it("toasts 'Error' with the reason when saving fails", async () => {
    openSettings(buildUser(), {
      'POST /api/notifications/preferences': { status: 503, body: { message: 'Service unavailable' } },
    });
    fireEvent.click(within(await card('Notification Preferences')).getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to update preferences: Service unavailable')).toBeInTheDocument();
  });
});

describe('Price Alert Thresholds', () => {
  it('shows dollars and percent, and saves on blur in cents', async () => {
    const { api } = openSettings(buildUser({ minPriceDrop: 2500, minPriceDropPercent: 10 }), {
      'POST /api/price-alerts/thresholds': ok,
    });
    const alerts = await card('Price Alert Thresholds');
    const dollarsInput = within(alerts).getByLabelText('Minimum price drop ($)');
    const percentInput = within(alerts).getByLabelText('Minimum price drop (%)');
    expect(dollarsInput).toHaveValue('25');
    expect(percentInput).toHaveValue('10');
    expect(dollarsInput).toHaveAttribute('aria-valuemin', '0');
    expect(percentInput).toHaveAttribute('aria-valuemax', '100');

    // leaving a field unchanged saves nothing
    act(() => percentInput.focus());
    fireEvent.focusOut(percentInput);
    expect(api.calls('POST /api/price-alerts/thresholds')).toHaveLength(0);

    await typeAndLeave(dollarsInput, '45');
    expect(await bodyOf(api, 'POST /api/price-alerts/thresholds')).toEqual({
      minPriceDrop: 4500,
      minPriceDropPercent: 10,
    });
    expect(await screen.findByText('Thresholds updated')).toBeInTheDocument();
  });

  it.each([
    ['Minimum price drop ($)', ''],
    ['Minimum price drop (%)', '101'],
    ['Minimum price drop (%)', '-1'],
    ['Minimum price drop (%)', '12.5'],
  ])('ignores %s = %j', async (label, value) => {
    const { api } = openSettings(buildUser(), { 'POST /api/price-alerts/thresholds': ok });
    const alerts = await card('Price Alert Thresholds');
    await typeAndLeave(within(alerts).getByLabelText(label), value);
    // the next valid change is the first request: nothing went before it
    const other = label.includes('$') ? 'Minimum price drop (%)' : 'Minimum price drop ($)';
    await typeAndLeave(within(alerts).getByLabelText(other), label.includes('$') ? '12' : '30');
    await waitFor(() => expect(api.calls('POST /api/price-alerts/thresholds')).toHaveLength(1));
    const body = (await bodyOf(api, 'POST /api/price-alerts/thresholds')) as Record<string, number>;
    expect(label.includes('$') ? body.minPriceDropPercent : body.minPriceDrop).toBe(label.includes('$') ? 12 : 3000);
  });

  it("toasts 'Failed to update thresholds' when saving fails", async () => {
    openSettings(buildUser(), {
      'POST /api/price-alerts/thresholds': { status: 500, body: { message: 'Internal server error' } },
    });
    await typeAndLeave(within(await card('Price Alert Thresholds')).getByLabelText('Minimum price drop (%)'), '20');
    expect(await screen.findByText('Failed to update thresholds')).toBeInTheDocument();
  });
});

describe('Rebooking Thresholds', () => {
  it('shows the four sliders with their ranges, defaults and dollar labels', async () => {
    openSettings(premium({ useSeparateInternationalThresholds: true }));
    const thresholds = await card('Rebooking Thresholds');
    const sliders = within(thresholds).getAllByRole('slider');
    expect(
      sliders.map((s) => [
        s.getAttribute('aria-valuemin'),
        s.getAttribute('aria-valuemax'),
        s.getAttribute('aria-valuenow'),
        s.getAttribute('aria-valuetext'),
      ]),
    ).toEqual([
      ['5', '50', '15', '15%'],
      ['500', '25000', '5000', '$50'],
      ['10', '60', '20', '20%'],
      ['2000', '50000', '10000', '$100'],
    ]);
    expect(within(thresholds).getByText('$5 to $250')).toBeInTheDocument();
    expect(within(thresholds).getByText('$20 to $500')).toBeInTheDocument();
  });

  it('shows the international sliders only while the separate switch is on', async () => {
    openSettings(premium());
    const thresholds = await card('Rebooking Thresholds');
    expect(within(thresholds).getAllByRole('slider')).toHaveLength(2);
    fireEvent.click(within(thresholds).getByRole('checkbox', { name: /international flights/ }));
    await waitFor(() => expect(within(thresholds).getAllByRole('slider')).toHaveLength(4));
    expect(
      within(thresholds).getByRole('slider', { name: 'International minimum savings amount' }),
    ).toBeInTheDocument();
  });

  it('saves what the sliders, condition and switch say', async () => {
    const { api } = openSettings(premium(), { 'POST /api/auto-rebooking/thresholds': ok });
    const thresholds = await card('Rebooking Thresholds');
    const amount = within(thresholds).getByRole('slider', { name: 'Minimum savings amount' });
    act(() => amount.focus());
    fireEvent.keyDown(amount, { key: 'ArrowRight' });
    await waitFor(() => expect(amount).toHaveAttribute('aria-valuetext', '$55'));
    fireEvent.change(within(thresholds).getByLabelText('Rebook when'), { target: { value: 'both' } });
    fireEvent.click(within(thresholds).getByRole('button', { name: 'Save Thresholds' }));
    expect(await bodyOf(api, 'POST /api/auto-rebooking/thresholds')).toEqual({
      minSavingsPercent: 15,
      minSavingsAmount: 5500,
      thresholdCondition: 'both',
      useSeparateInternationalThresholds: false,
      internationalMinSavingsPercent: 20,
      internationalMinSavingsAmount: 10000,
    });
    expect(await screen.findByText('Auto-rebooking thresholds updated')).toBeInTheDocument();
  });

  it("toasts 'Failed to update thresholds' when saving fails", async () => {
    openSettings(premium(), {
      'POST /api/auto-rebooking/thresholds': {
        status: 403,
        body: { message: 'Premium subscription required to customize rebooking thresholds.' },
      },
    });
    fireEvent.click(within(await card('Rebooking Thresholds')).getByRole('button', { name: 'Save Thresholds' }));
    expect(await screen.findByText('Failed to update thresholds')).toBeInTheDocument();
    expect(screen.getByText('Premium subscription required to customize rebooking thresholds.')).toBeInTheDocument();
  });
});
