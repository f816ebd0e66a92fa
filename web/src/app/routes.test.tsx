import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { storeSession } from '@/testing/session';

describe('routes and guards', () => {
  it('sends a visitor on /dashboard to /login', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    const { router } = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows a spinner on a protected route while the user loads', async () => {
    // a browser holding a session asks who it is; the answer has not come yet
    storeSession(buildUser().id);
    mockApi({ 'GET /api/auth/me': () => new Promise(() => undefined) });
    renderApp('/account');
    expect(await screen.findByText('Loading your account...')).toBeInTheDocument();
  });

  it('shows the page to a signed-in user', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ username: 'ada' })) });
    renderApp('/account');
    expect(await screen.findByRole('heading', { name: 'Account Settings' })).toBeInTheDocument();
    expect((await screen.findAllByText('ada'))[0]).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Account menu' })).toBeInTheDocument();
    expect(screen.queryByText('Admin')).not.toBeInTheDocument();
  });

  it("sends a non-admin on /admin to /dashboard, showing 'Redirecting...' meanwhile", async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ isAdmin: false })) });
    const { router } = renderApp('/admin');
    expect(await screen.findByText('Redirecting...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });

  it('lets an admin into /admin and shows the Admin badge', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ isAdmin: true })) });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect((await screen.findAllByText('Admin'))[0]).toBeInTheDocument();
  });

  it("shows 'Page Not Found' for an unknown path", async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
  });

  it('redirects /auth to /login', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    const { router } = renderApp('/auth');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each(['/', '/login', '/sign-up'])('sends a signed-in user from %s to /dashboard', async (path) => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser()) });
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
  });

  it('sends a signed-in user from /forgot-password to /', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser()) });
    const { router } = renderApp('/forgot-password');
    // / then forwards a signed-in user to /dashboard.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('shows the landing page with Log In and Sign Up to a visitor', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Airlines Owe You Money' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/sign-up');
  });

  it.each([
    ['/contact', 'Contact Us'],
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
    ['/help', 'Help Center'],
  ])('serves the public page %s', async (path, title) => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
  });

  it.each([
    ['/dashboard', 'Flight Savings Dashboard'],
    ['/account', 'Account Settings'],
    ['/connect-email', 'Email Connection'],
    ['/premium-checkout', 'Upgrade to Premium'],
    ['/onboarding', 'Welcome to FareBack'],
  ])('serves the signed-in page %s', async (path, title) => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser()) });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
  });

  it('has header, main and footer landmarks with the footer links', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/help');
    await screen.findByRole('heading', { name: 'Help Center', level: 1 });
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(/© \d{4} FareBack/);
    for (const name of ['Privacy Policy', 'Terms of Service', 'Help Center']) {
      expect(within(footer).getByRole('link', { name })).toBeInTheDocument();
    }
  });
});
