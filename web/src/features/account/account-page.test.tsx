import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildEmailConnection, buildOAuthConfig, buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { buildSession } from '@/testing/session';
import type { CurrentUser } from '@/lib/auth';

function openAccount(path: string, user: CurrentUser, routes: Record<string, MockRoute> = {}) {
  const api = mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/oauth/config': { body: buildOAuthConfig() },
    'GET /api/email/connection': { body: { connection: buildEmailConnection() } },
    'GET /api/email/messages': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
    ...routes,
  });
  return { api, ...renderApp(path) };
}

describe('account settings', () => {
  it('has Profile and Email Connection tabs, the selected one in the URL', async () => {
    const { router } = openAccount('/account', buildUser());
    expect(await screen.findByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.click(screen.getByRole('tab', { name: 'Email Connection' }));
    expect(await screen.findByRole('button', { name: 'Connect with Gmail' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=email');
  });

  it('shows the username, email, creation date and the real subscription tier', async () => {
    openAccount(
      '/account',
      buildUser({
        username: 'ada',
        email: 'ada@example.com',
        createdAt: '2025-01-15T10:00:00.000Z',
        subscriptionTier: 'premium',
      }),
    );
    await screen.findByText('Account Created');
    const profile = within(document.querySelector('dl')!);
    const fields: Array<[string, string]> = [
      ['Username', 'ada'],
      ['Email', 'ada@example.com'],
      ['Account Created', 'Jan 15, 2025'],
      ['Subscription', 'Premium'],
    ];
    for (const [label, value] of fields) {
      expect(profile.getByText(label).nextElementSibling).toHaveTextContent(value);
    }
  });

  it('shows Free for a free account and N/A without a creation date', async () => {
    openAccount('/account', buildUser({ createdAt: '' }));
    expect(await screen.findByText('Free')).toBeInTheDocument();
    expect(screen.getByText('N/A')).toBeInTheDocument();
  });

  it("'Update Email' checks the address, then asks the api to mail a link to it", async () => {
    const api = openAccount('/account', buildUser(), {
      'POST /api/auth/change-email': {
        body: {
          message: 'We sent a confirmation link to new@example.com. Your email address changes when you open it.',
        },
      },
    }).api;
    fireEvent.click(await screen.findByRole('button', { name: 'Update Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Email' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Confirmation Link' }));
    expect(await within(dialog).findByText('Email is required')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/New email address/), { target: { value: 'nope' } });
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(api.calls('POST /api/auth/change-email')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/New email address/), { target: { value: 'New@Example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Confirmation Link' }));
    expect(await screen.findByText('Check your new inbox')).toBeInTheDocument();
    expect(
      screen.getByText('We sent a confirmation link to new@example.com. Your email address changes when you open it.'),
    ).toBeInTheDocument();
    expect(await api.calls('POST /api/auth/change-email')[0]?.json()).toEqual({ email: 'new@example.com' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("'Update Email' shows the api's refusal", async () => {
    openAccount('/account', buildUser(), {
      'POST /api/auth/change-email': { status: 409, body: { message: 'An account with this email already exists' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Update Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Email' });
    fireEvent.change(within(dialog).getByLabelText(/New email address/), { target: { value: 'taken@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Confirmation Link' }));
    expect(await screen.findByText('Email update failed')).toBeInTheDocument();
    expect(screen.getByText('An account with this email already exists')).toBeInTheDocument();
  });

  it('spends the link from the confirmation email, cleans the URL and refreshes the user', async () => {
    const { api, router } = openAccount('/account?email_change_token=tok123', buildUser(), {
      'POST /api/auth/confirm-email-change': { body: { message: 'Your email address has been updated.' } },
    });
    expect(await screen.findByText('Email Updated')).toBeInTheDocument();
    expect(screen.getByText('Your email address has been updated.')).toBeInTheDocument();
    expect(await api.calls('POST /api/auth/confirm-email-change')[0]?.json()).toEqual({ token: 'tok123' });
    expect(api.calls('POST /api/auth/confirm-email-change')).toHaveLength(1);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(api.calls('GET /api/auth/me').length).toBeGreaterThan(1));
  });

  it('reports a used or expired email change link', async () => {
    openAccount('/account?email_change_token=old', buildUser(), {
      'POST /api/auth/confirm-email-change': {
        status: 400,
        body: { message: 'This email change link is invalid or has expired. Please ask for a new one.' },
      },
    });
    expect(await screen.findByText('Email update failed')).toBeInTheDocument();
    expect(
      screen.getByText('This email change link is invalid or has expired. Please ask for a new one.'),
    ).toBeInTheDocument();
  });

  it("'Change Password' needs the current password and a matching strong new one, then changes it", async () => {
    const user = buildUser();
    const session = buildSession(user.id);
    const api = openAccount('/account', user, {
      'POST /api/auth/change-password': { body: { message: 'Your password has been changed.', session } },
      'GET /auth/v1/user': { body: { id: user.id, aud: 'authenticated', email: user.email } },
    }).api;
    fireEvent.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    const submit = within(dialog).getByRole('button', { name: 'Change Password' });
    fireEvent.click(submit);
    expect(await within(dialog).findByText('Current password is required')).toBeInTheDocument();

    fireEvent.change(within(dialog).getByLabelText(/Current password/), { target: { value: 'Old@pass1' } });
    fireEvent.change(within(dialog).getByLabelText(/^New password/), { target: { value: `Ab1@${'é'.repeat(40)}` } });
    expect(
      await within(dialog).findByText(
        'Password must be at most 72 bytes (letters with accents and symbols count as 2 to 4)',
      ),
    ).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/^New password/), { target: { value: 'Brand@New123' } });
    fireEvent.change(within(dialog).getByLabelText(/Confirm new password/), { target: { value: 'Brand@New124' } });
    expect(await within(dialog).findByText("Passwords don't match")).toBeInTheDocument();
    expect(api.calls('POST /api/auth/change-password')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/Confirm new password/), { target: { value: 'Brand@New123' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Password Changed')).toBeInTheDocument();
    expect(await api.calls('POST /api/auth/change-password')[0]?.json()).toEqual({
      currentPassword: 'Old@pass1',
      newPassword: 'Brand@New123',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("'Change Password' says when the current password is wrong", async () => {
    openAccount('/account', buildUser(), {
      'POST /api/auth/change-password': { status: 400, body: { message: 'Current password is incorrect' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    fireEvent.change(within(dialog).getByLabelText(/Current password/), { target: { value: 'Wrong@pass1' } });
    fireEvent.change(within(dialog).getByLabelText(/^New password/), { target: { value: 'Brand@New123' } });
    fireEvent.change(within(dialog).getByLabelText(/Confirm new password/), { target: { value: 'Brand@New123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password change failed')).toBeInTheDocument();
    expect(screen.getByText('Current password is incorrect')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
  });

  it("the Email Connection tab has 'Disconnect Email' when connected", async () => {
    const api = openAccount(
      '/account?tab=email',
      buildUser({ emailConnected: true, emailConnectionState: 'connected' }),
      {
        'GET /api/email/connection': {
          body: { connection: buildEmailConnection({ state: 'connected', provider: 'sample' }) },
        },
        'POST /api/email/disconnect': { body: { message: 'Your email is disconnected.' } },
      },
    ).api;
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect Email' }));
    expect(await screen.findByText('Email disconnected')).toBeInTheDocument();
    expect(api.calls('POST /api/email/disconnect')).toHaveLength(1);
    vi.restoreAllMocks();
  });
});

describe('your data', () => {
  it("'Download my data' fetches the export and saves it as a JSON file", async () => {
    // jsdom has no object URLs
    const createObjectURL = vi.fn(() => 'blob:export');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { api } = openAccount('/account', buildUser(), {
      'GET /api/account/export': { body: { exportedAt: '2026-11-28T10:00:00.000Z', flights: [] } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.calls('GET /api/account/export')).toHaveLength(1);
    expect(createObjectURL).toHaveBeenCalled();
  });

  it("'Delete account' names what goes and what stays, re-checks the password, then signs out to /", async () => {
    let deleted = false;
    const user = buildUser();
    const { api, router } = openAccount('/account', user, {
      'GET /api/auth/me': () => meRoute(deleted ? null : user),
      'POST /api/account/delete': () => {
        deleted = true;
        return { body: { message: 'Your account and everything FareBack held on you have been deleted.' } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
    expect(within(dialog).getByText(/access is revoked at Google and the tokens are deleted/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Your flights, their price history and rebooking records/)).toBeInTheDocument();
    expect(within(dialog).getByText(/tax law requires payment records to be kept for 7 years/)).toBeInTheDocument();
    fireEvent.input(within(dialog).getByLabelText('Password'), { target: { value: 'Secret@1a' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Account deleted')).toBeInTheDocument();
    expect(await api.calls('POST /api/account/delete')[0]?.json()).toEqual({ password: 'Secret@1a' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
