import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildEmailConnection, buildOAuthConfig, buildScan, buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { storeSession } from '@/testing/session';
import { renderApp } from '@/testing/render-app';
import type { CurrentUser } from '@/lib/auth';

const stats = { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 };

function openOnboarding(user: CurrentUser, routes: Record<string, MockRoute> = {}, path = '/onboarding') {
  let me = user;
  storeSession(user.id);
  const api = mockApi({
    'GET /api/auth/me': () => meRoute(me),
    'POST /api/onboarding/complete': () => {
      me = { ...me, onboardingCompleted: true };
      return { body: { message: 'Onboarding complete' } };
    },
    'GET /api/oauth/config': { body: buildOAuthConfig() },
    'GET /api/email/connection': { body: { connection: buildEmailConnection() } },
    'GET /api/email/messages': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
    'GET /api/flights': { body: { flights: [] } },
    'GET /api/dashboard/stats': { body: stats },
    ...routes,
  });
  return { api, ...renderApp(path) };
}

const newUser = () => buildUser({ onboardingCompleted: false });

function progress() {
  return screen.getByRole('progressbar');
}

describe('/onboarding', () => {
  it('walks through the three steps with their skips, then Go to Dashboard remembers it', async () => {
    const { api, router } = openOnboarding(newUser());
    expect(await screen.findByRole('heading', { name: 'Connect Your Email' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
    expect(Number(progress().getAttribute('aria-valuenow'))).toBeCloseTo(100 / 3, 0);
    expect(await screen.findByRole('button', { name: 'Connect Gmail' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect to Continue' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Skip Email Connection' }));
    expect(await screen.findByRole('heading', { name: 'Add Your First Flight' })).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Manual Entry' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Connect Email First' })).toBeDisabled();
    expect(await screen.findByRole('heading', { name: 'Manual Flight Entry' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Skip for Now' }));
    expect(await screen.findByRole('heading', { name: "You're All Set!" })).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 3')).toBeInTheDocument();
    expect(Number(progress().getAttribute('aria-valuenow'))).toBe(100);
    for (const card of ['Price Monitoring', 'Auto-Rebooking', 'Email Scanning']) {
      expect(screen.getByRole('heading', { name: card })).toBeInTheDocument();
    }
    expect(screen.getByText(/premium needed/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Go to Dashboard' }));
    expect(await screen.findByText('Onboarding Complete!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
    expect(api.calls('POST /api/onboarding/complete')).toHaveLength(1);
  });

  it("'Continue to Final Step' moves on from step 2", async () => {
    openOnboarding(newUser());
    fireEvent.click(await screen.findByRole('button', { name: 'Skip Email Connection' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue to Final Step' }));
    expect(await screen.findByRole('heading', { name: "You're All Set!" })).toBeInTheDocument();
  });

  it("starts at step 2 when email is connected: 'From Email' shows the scan and 'Continue Without Waiting'", async () => {
    const connection = buildEmailConnection({
      state: 'connected',
      provider: 'sample',
      scan: buildScan({
        status: 'scanning',
        scanned: 120,
        total: 430,
        summary: 'Scanned 120 of 430 emails, 3 flights found',
        finishedAt: null,
      }),
    });
    openOnboarding(buildUser({ onboardingCompleted: false, emailConnected: true, emailConnectionState: 'connected' }), {
      'GET /api/email/connection': { body: { connection } },
    });
    expect(await screen.findByRole('heading', { name: 'Add Your First Flight' })).toBeInTheDocument();
    const fromEmail = screen.getByRole('tab', { name: 'From Email' });
    expect(fromEmail).toBeEnabled();
    fireEvent.click(fromEmail);
    expect(await screen.findByText(/inbox scan runs in the background/)).toBeInTheDocument();
    expect(await screen.findByText('Scanned 120 of 430 emails, 3 flights found')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue Without Waiting' }));
    expect(await screen.findByRole('heading', { name: "You're All Set!" })).toBeInTheDocument();
  });

  it('enables Continue on step 1 once email is connected', async () => {
    let user = newUser();
    storeSession(user.id);
    mockApi({
      'GET /api/auth/me': () => meRoute(user),
      'GET /api/oauth/config': { body: buildOAuthConfig() },
      'GET /api/email/connection': { body: { connection: buildEmailConnection() } },
      'GET /api/email/connect-dev': () => {
        user = { ...user, emailConnected: true, emailConnectionState: 'connected' };
        return { body: { message: 'Sample mailbox connected', emailConnected: true } };
      },
    });
    renderApp('/onboarding');
    fireEvent.click(await screen.findByRole('button', { name: 'Toggle Email (Dev)' }));
    const next = await screen.findByRole('button', { name: 'Continue' });
    expect(next).toBeEnabled();
    expect(screen.getByText('Email Connected')).toBeInTheDocument();
    fireEvent.click(next);
    expect(await screen.findByRole('heading', { name: 'Add Your First Flight' })).toBeInTheDocument();
  });

  it('sends a new account from /dashboard to /onboarding, and no longer once skipped', async () => {
    const { api, router } = openOnboarding(newUser(), {}, '/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
    fireEvent.click(await screen.findByRole('button', { name: 'Skip setup' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
    expect(api.calls('POST /api/onboarding/complete')).toHaveLength(1);
    expect(screen.queryByText('Onboarding Complete!')).not.toBeInTheDocument();
  });

  it('leaves an account that finished onboarding on /dashboard', async () => {
    const { router } = openOnboarding(buildUser(), {}, '/dashboard');
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('says why when it cannot be saved, and stays', async () => {
    const { router } = openOnboarding(newUser(), {
      'POST /api/onboarding/complete': { status: 500, body: { message: 'Internal server error' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Skip setup' }));
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Internal server error')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/onboarding');
  });

  it('sends a visitor to /login', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    const { router } = renderApp('/onboarding');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
