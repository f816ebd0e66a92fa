import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { buildSession } from '@/testing/session';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('returning from Google', () => {
  it('takes the session from the URL fragment and shows the dashboard', async () => {
    const user = buildUser({ username: 'gmail-user' });
    const session = buildSession(user.id);
    const api = mockApi({
      // The api knows the user only from the bearer token supabase-js picked up from the URL
      // (no session is stored beforehand: the fragment is the only one).
      'GET /api/auth/me': (request) =>
        request.headers.get('Authorization') === `Bearer ${session.access_token}` ? { body: { user } } : meRoute(null),
      'GET /auth/v1/user': { body: { id: user.id, aud: 'authenticated', email: user.email } },
    });
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      refresh_token: session.refresh_token,
      expires_in: '3600',
      expires_at: String(session.expires_at),
      token_type: 'bearer',
      type: 'signup',
    });
    window.history.replaceState(null, '', `/dashboard#${fragment}`);

    const { router } = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(api.calls('GET /api/auth/me').length).toBeGreaterThan(0);
    // supabase-js removed the tokens from the address bar.
    await waitFor(() => expect(window.location.hash).toBe(''));
  });

  it("reports a failed Google sign-in with 'OAuth Error'", async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    window.history.replaceState(null, '', '/login#error=access_denied&error_description=denied');
    renderApp('/login');
    expect(await screen.findByText('OAuth Error')).toBeInTheDocument();
    expect(screen.getByText('There was an error connecting with Google')).toBeInTheDocument();
    expect(window.location.hash).toBe('');
  });
});
