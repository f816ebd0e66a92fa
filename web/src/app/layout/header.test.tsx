import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { storeSession } from '@/testing/session';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

/**
 * Until the first route's code has loaded, the page area shows a spinner; wait for the page
 * itself, so the app has settled before the menu opens.
 */
async function pageLoaded() {
  await screen.findByRole('heading', { level: 1 });
}

async function openAccountMenu() {
  await pageLoaded();
  const trigger = await screen.findByRole('button', { name: 'Account menu' });
  // zag-js opens menus on a primary-button pointer press.
  fireEvent.pointerDown(trigger, { pointerType: 'mouse', button: 0 });
  fireEvent.click(trigger);
  const menu = await screen.findByRole('menu');
  // Let the menu machine settle (focus, item registration) before pointing at items.
  await settle();
  return menu;
}

const settle = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

/** Chooses a menu item the way a keyboard user does: arrow down to it, then Enter. */
async function selectMenuItem(menu: HTMLElement, name: string) {
  const items = within(menu).getAllByRole('menuitem');
  const item = within(menu).getByRole('menuitem', { name });
  for (let i = 0; i < items.length && !item.hasAttribute('data-highlighted'); i += 1) {
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    await settle();
  }
  expect(item).toHaveAttribute('data-highlighted');
  fireEvent.keyDown(menu, { key: 'Enter' });
}

describe('header', () => {
  it('shows Log In and Sign Up to visitors', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/help');
    const banner = screen.getByRole('banner');
    expect(await within(banner).findByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(within(banner).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/sign-up');
    expect(within(banner).getByRole('link', { name: 'FareBack home' })).toHaveAttribute('href', '/');
  });

  it('shows the username, the initial and the account menu without the admin entry', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ username: 'ada' })) });
    renderApp('/dashboard');
    const menu = await openAccountMenu();
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['Account Settings', 'Dashboard', 'Sign out']);
    expect(screen.getAllByText('A')[0]).toBeInTheDocument();
  });

  it('offers Admin Dashboard and the Admin badge to admins', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ isAdmin: true })) });
    const { router } = renderApp('/dashboard');
    const menu = await openAccountMenu();
    expect(screen.getAllByText('Admin')[0]).toBeInTheDocument();
    await selectMenuItem(menu, 'Admin Dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
  });

  it("signs out: posts logout, toasts 'Logged out successfully' and goes to /", async () => {
    let signedIn = true;
    const user = buildUser();
    storeSession(user.id);
    const api = mockApi({
      'GET /api/auth/me': () => meRoute(signedIn ? user : null),
      'POST /api/auth/logout': () => {
        signedIn = false;
        return { body: { message: 'Logged out' } };
      },
    });
    const { router } = renderApp('/account');
    const menu = await openAccountMenu();
    const asked = api.calls('GET /api/auth/me').length;
    await selectMenuItem(menu, 'Sign out');

    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Airlines Owe You Money' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(api.calls('POST /api/auth/logout')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Log In' })).toBeInTheDocument();
    // the session is gone from this browser, so nobody asks the api (its 401 would reach the console)
    expect(window.localStorage.length).toBe(0);
    expect(api.calls('GET /api/auth/me')).toHaveLength(asked);
  });

  it('does not ask the api who is signed in when this browser holds no session', async () => {
    const api = mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/help');
    expect(await screen.findByRole('link', { name: 'Log In' })).toBeInTheDocument();
    expect(api.calls('GET /api/auth/me')).toHaveLength(0);
  });

  it("toasts 'Logout failed' and stays signed in when the server fails", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(buildUser()),
      'POST /api/auth/logout': { status: 500, body: { message: 'Database unavailable' } },
    });
    const { router } = renderApp('/account');
    const menu = await openAccountMenu();
    await selectMenuItem(menu, 'Sign out');
    expect(await screen.findByText('Logout failed')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account');
  });

  it("has a mobile menu with the same items and 'Log out'", async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ isAdmin: true, username: 'grace' })) });
    renderApp('/dashboard');
    await pageLoaded();
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('dialog');
    const nav = within(drawer).getByRole('navigation', { name: 'Account' });
    expect(within(nav).getByRole('link', { name: 'Account Settings' })).toHaveAttribute('href', '/account');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(nav).getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');
    expect(within(nav).getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });
});
