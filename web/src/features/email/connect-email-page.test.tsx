import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildEmailConnection, buildImportedEmail, buildOAuthConfig, buildScan, buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import type { CurrentUser } from '@/lib/auth';

afterEach(() => vi.restoreAllMocks());

function emailApi(user: CurrentUser, routes: Record<string, MockRoute> = {}) {
  return mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/oauth/config': { body: buildOAuthConfig() },
    'GET /api/email/connection': { body: { connection: buildEmailConnection() } },
    'GET /api/email/messages': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
    ...routes,
  });
}

/** A tab the page opens for Google: records where it was sent. */
function fakeTab() {
  const tab = { location: { href: 'about:blank' }, opener: {} as unknown, close: vi.fn() };
  vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
  return tab;
}

describe('/connect-email', () => {
  it('shows the OAuth configuration box to an admin, with Copy URI and Show/Hide Details', async () => {
    emailApi(buildUser({ isAdmin: true }));
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/connect-email');
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Connection' })).toBeInTheDocument();
    expect(await screen.findByText('Gmail OAuth Configuration')).toBeInTheDocument();
    expect(screen.getByText('http://localhost:5173/oauth2callback')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');

    fireEvent.click(screen.getByRole('button', { name: 'Copy URI' }));
    expect(await screen.findByText('Copied!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('http://localhost:5173/oauth2callback');

    fireEvent.click(screen.getByRole('button', { name: 'Show Details' }));
    expect(screen.getByText('Client ID: Not configured')).toBeInTheDocument();
    expect(screen.getByText('Client secret: Not configured')).toBeInTheDocument();
    expect(screen.getByText('https://www.googleapis.com/auth/gmail.readonly')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Hide Details' }));
    expect(screen.queryByText('Client ID: Not configured')).not.toBeInTheDocument();
  });

  it('shows a traveller no OAuth configuration box (setup information is for admins)', async () => {
    emailApi(buildUser());
    renderApp('/connect-email');
    expect(await screen.findByRole('button', { name: 'Connect with Gmail' })).toBeInTheDocument();
    expect(screen.queryByText('Gmail OAuth Configuration')).not.toBeInTheDocument();
  });

  it("opens Google's authorization page in a new tab and says 'Gmail Authorization'; the redirect needs no code dialog", async () => {
    const authUrl = 'https://accounts.google.com/o/oauth2/v2/auth?state=s';
    emailApi(buildUser(), { 'GET /api/email/connect': { body: { authUrl } } });
    const tab = fakeTab();
    renderApp('/connect-email');
    expect(await screen.findByRole('heading', { name: 'Connect your email account' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Connect with Gmail' }));
    expect(await screen.findByText('Gmail Authorization')).toBeInTheDocument();
    expect(tab.location.href).toBe(authUrl);
    expect(tab.opener).toBeNull();
    // the redirect comes back to /oauth2callback: no code to paste, so neither the dialog nor its button
    expect(screen.queryByRole('dialog', { name: 'Enter Authorization Code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Enter Authorization Code' })).not.toBeInTheDocument();
  });

  it('offers the code dialog, and opens it after Google, only when the redirect cannot come back', async () => {
    const authUrl = 'https://accounts.google.com/o/oauth2/v2/auth?state=s';
    emailApi(buildUser(), {
      'GET /api/oauth/config': { body: buildOAuthConfig({ redirectUri: 'urn:ietf:wg:oauth:2.0:oob' }) },
      'GET /api/email/connect': { body: { authUrl } },
    });
    fakeTab();
    renderApp('/connect-email');
    expect(await screen.findByRole('button', { name: 'Enter Authorization Code' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Connect with Gmail' }));
    expect(await screen.findByRole('dialog', { name: 'Enter Authorization Code' })).toBeInTheDocument();
  });

  it("says 'OAuth Configuration Error' with the details when Google is not configured, and closes the tab", async () => {
    emailApi(buildUser(), {
      'GET /api/email/connect': {
        status: 503,
        body: {
          message: 'Gmail OAuth configuration error',
          details: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set.',
        },
      },
    });
    const tab = fakeTab();
    renderApp('/connect-email');
    fireEvent.click(await screen.findByRole('button', { name: 'Connect with Gmail' }));
    expect(await screen.findByText('OAuth Configuration Error')).toBeInTheDocument();
    expect(screen.getByText('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set.')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
  });

  it('advises the development toggle when a configuration error comes without details', async () => {
    emailApi(buildUser(), {
      'GET /api/email/connect': { status: 503, body: { message: 'Gmail OAuth configuration error', details: '' } },
    });
    fakeTab();
    renderApp('/connect-email');
    // the advice names the toggle only where the server offers it
    expect(await screen.findByRole('button', { name: 'Toggle Email (Dev)' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Connect with Gmail' }));
    expect(await screen.findByText('OAuth Configuration Error')).toBeInTheDocument();
    expect(
      screen.getByText(
        "Gmail is not configured on this server. Use 'Toggle Email (Dev)' to connect the sample mailbox instead.",
      ),
    ).toBeInTheDocument();
  });

  it("says 'OAuth error' without an authorization URL, and 'Failed to connect email' when the call fails", async () => {
    let answer: { status: number; body: unknown } = { status: 200, body: {} };
    emailApi(buildUser(), { 'GET /api/email/connect': () => answer });
    fakeTab();
    renderApp('/connect-email');
    fireEvent.click(await screen.findByRole('button', { name: 'Connect with Gmail' }));
    expect(await screen.findByText('OAuth error')).toBeInTheDocument();
    expect(screen.getByText('Failed to generate authorization URL')).toBeInTheDocument();

    answer = { status: 500, body: { message: 'Internal server error' } };
    fireEvent.click(screen.getByRole('button', { name: 'Connect with Gmail' }));
    expect(await screen.findByText('Failed to connect email')).toBeInTheDocument();
  });

  it('exchanges a pasted code; an empty one is refused first, a refused one says so', async () => {
    let exchange: { status: number; body: unknown } = {
      status: 400,
      body: { message: 'Google did not accept this authorization code. Start the connection again.' },
    };
    const api = emailApi(buildUser(), {
      'GET /api/oauth/config': { body: buildOAuthConfig({ redirectUri: 'urn:ietf:wg:oauth:2.0:oob' }) },
      'POST /api/email/manual-token-exchange': () => exchange,
    });
    renderApp('/connect-email');
    fireEvent.click(await screen.findByRole('button', { name: 'Enter Authorization Code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter Authorization Code' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect Account' }));
    expect(await screen.findByText('Authorization code required')).toBeInTheDocument();
    expect(screen.getByText('Please enter the authorization code you received.')).toBeInTheDocument();
    expect(api.calls('POST /api/email/manual-token-exchange')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Authorization code'), { target: { value: ' 4/0AX-code ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect Account' }));
    expect(await screen.findByText('Failed to exchange authorization code')).toBeInTheDocument();
    expect(await api.calls('POST /api/email/manual-token-exchange')[0]?.json()).toEqual({ code: '4/0AX-code' });

    exchange = {
      status: 200,
      body: { message: 'Connected', connection: buildEmailConnection({ state: 'connected' }) },
    };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect Account' }));
    expect(await screen.findByText('Email connected successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("toggles the sample mailbox with 'Toggle Email (Dev)', and reports a failure", async () => {
    let toggle: { status: number; body: unknown } = {
      status: 200,
      body: { message: 'Sample mailbox connected', emailConnected: true },
    };
    const api = emailApi(buildUser(), { 'GET /api/email/connect-dev': () => toggle });
    renderApp('/connect-email');
    fireEvent.click(await screen.findByRole('button', { name: 'Toggle Email (Dev)' }));
    expect(await screen.findByText('Sample mailbox connected')).toBeInTheDocument();
    // the user is refreshed after the change
    await waitFor(() => expect(api.calls('GET /api/auth/me').length).toBeGreaterThan(1));

    toggle = { status: 404, body: { message: 'The development mailbox is not available on this server.' } };
    fireEvent.click(screen.getByRole('button', { name: 'Toggle Email (Dev)' }));
    expect(await screen.findByText('Failed to update email connection status')).toBeInTheDocument();
  });

  it("hides 'Toggle Email (Dev)' where the server does not offer it", async () => {
    emailApi(buildUser(), { 'GET /api/oauth/config': { body: buildOAuthConfig({ devConnectAvailable: false }) } });
    renderApp('/connect-email');
    expect(await screen.findByRole('button', { name: 'Connect with Gmail' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Connect your email account' });
    expect(screen.queryByRole('button', { name: 'Toggle Email (Dev)' })).not.toBeInTheDocument();
  });

  it("returning with email_connected=true says 'Email connected successfully', cleans the URL and refreshes the user", async () => {
    const api = emailApi(buildUser());
    const { router } = renderApp('/connect-email?email_connected=true');
    expect(await screen.findByText('Email connected successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(api.calls('GET /api/auth/me').length).toBeGreaterThan(1));
  });

  it.each([
    ['oauth_failed', 'Google authorization failed. Please try again.'],
    ['oauth_token_failed', 'Failed to retrieve access tokens. Please try again.'],
    ['oauth_invalid', 'Invalid OAuth response. Please try again.'],
    ['user_not_found', 'User account not found. Please try logging in again.'],
  ])("returning with error=%s says 'Connection Error': %s", async (code, message) => {
    emailApi(buildUser());
    const { router } = renderApp(`/connect-email?error=${code}`);
    expect(await screen.findByText('Connection Error')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('returning with a code and state finishes the connection under this session, then cleans the URL', async () => {
    const api = emailApi(buildUser(), {
      'POST /api/email/oauth-exchange': {
        body: { message: 'Email connected successfully', connection: buildEmailConnection({ state: 'connected' }) },
      },
    });
    const { router } = renderApp('/connect-email?code=4%2Fabc&state=s-123');
    expect(await screen.findByText('Email connected successfully')).toBeInTheDocument();
    const [call] = api.calls('POST /api/email/oauth-exchange');
    expect(await call?.clone().json()).toEqual({ code: '4/abc', state: 's-123' });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(api.calls('POST /api/email/oauth-exchange')).toHaveLength(1);
  });

  it("says 'Invalid OAuth response' when the api refuses a code this session did not ask for", async () => {
    emailApi(buildUser(), {
      'POST /api/email/oauth-exchange': {
        status: 400,
        body: { message: 'This Gmail authorization was not started in this browser session.', error: 'oauth_invalid' },
      },
    });
    const { router } = renderApp('/connect-email?code=4%2Fabc&state=someone-elses');
    expect(await screen.findByText('Connection Error')).toBeInTheDocument();
    expect(screen.getByText('Invalid OAuth response. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("shows 'Email Connected' and the connection once connected", async () => {
    const connection = buildEmailConnection({
      state: 'connected',
      provider: 'gmail',
      accountEmail: 'me@gmail.com',
      scan: buildScan(),
    });
    emailApi(buildUser({ emailConnected: true, emailConnectionState: 'connected' }), {
      'GET /api/email/connection': { body: { connection } },
      'GET /api/email/messages': { body: { items: [buildImportedEmail()], total: 1, page: 1, pageSize: 10 } },
    });
    renderApp('/connect-email');
    expect(await screen.findByText('Email Connected')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect with Gmail' })).not.toBeInTheDocument();
    expect(await screen.findByText('Scanned 430 of 430 emails, 3 flights found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disconnect Email' })).toBeInTheDocument();
  });

  it('sends a visitor to /login', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    const { router } = renderApp('/connect-email');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
