import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '@shared/types/admin.ts';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { buildAdminUser, pageOf } from './test-factories';

const me = buildUser({ isAdmin: true, username: 'chief' });
const meRow = buildAdminUser({ id: me.id, username: 'chief', isAdmin: true });
const traveller = buildAdminUser({
  username: 'dana',
  email: 'dana@example.com',
  subscriptionTier: 'premium',
  planName: 'Premium',
  flightCount: 7,
  totalCreditsEarned: 40_000,
  commissionOwed: 10_000,
  commissionPaid: 2500,
  createdAt: '2026-03-05T09:00:00.000Z',
});
const otherAdmin = buildAdminUser({ username: 'ops', isAdmin: true });

function openUsers(routes: Record<string, MockRoute> = {}, path = '/admin?tab=users') {
  const api = mockApi({
    'GET /api/auth/me': meRoute(me),
    'GET /api/admin/users': { body: pageOf([meRow, traveller, otherAdmin]) },
    ...routes,
  });
  return { api, ...renderApp(path) };
}

async function rowOf(username: string) {
  const table = await screen.findByRole('table', { name: 'Users' });
  const row = within(table)
    .getAllByRole('row')
    .find((r) => within(r).queryByText(username, { exact: true }));
  if (!row) throw new Error(`no row for ${username}`);
  return row;
}

async function bodyOf(api: ReturnType<typeof mockApi>, route: string): Promise<unknown> {
  await waitFor(() => expect(api.calls(route).length).toBeGreaterThan(0));
  return api.calls(route)[0]?.json();
}

describe('admin users tab', () => {
  it('lists each user with plan, admin badge, flights, credits, commission and joined date', async () => {
    openUsers();
    const row = await rowOf('dana');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'dana',
      'dana@example.com',
      'Premium',
      '7',
      '$400.00',
      '$100.00 owed$25.00 paid',
      'Mar 5, 2026',
      'Grant adminRecord payment',
    ]);
    expect(within(await rowOf('ops')).getByText('Admin')).toBeInTheDocument();
    // nothing owed: no payment to record
    expect(within(await rowOf('ops')).queryByRole('button', { name: /Record payment/ })).toBeNull();
  });

  it('searches on the server with the text typed', async () => {
    const { api, router } = openUsers();
    await rowOf('dana');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), { target: { value: 'dana' } });
    await waitFor(() => expect(router.state.location.search).toBe('?tab=users&users.q=dana'));
    await waitFor(() =>
      expect(api.calls('GET /api/admin/users').map((r) => new URL(r.url).searchParams.get('q'))).toContain('dana'),
    );
    const last = api.calls('GET /api/admin/users').at(-1);
    expect(Object.fromEntries(new URL(last?.url ?? '').searchParams)).toEqual({
      page: '1',
      pageSize: '25',
      sort: 'createdAt',
      order: 'desc',
      q: 'dana',
    });
  });

  it("does not offer to revoke the signed-in admin's own status, and says why", async () => {
    openUsers();
    const row = await rowOf('chief');
    const revoke = within(row).getByRole('button', { name: 'Revoke admin for chief' });
    expect(revoke).toBeDisabled();
    expect(revoke).toHaveAccessibleDescription('You cannot remove your own admin status');
    expect(within(row).getByText('You')).toBeInTheDocument();
  });

  it('grants admin after the confirmation, then toasts and refreshes the list', async () => {
    const granted: AdminUser = { ...traveller, isAdmin: true };
    const { api } = openUsers({
      [`PUT /api/admin/users/${traveller.id}/admin`]: {
        body: { success: true, message: 'Admin status updated', user: granted },
      },
    });
    fireEvent.click(within(await rowOf('dana')).getByRole('button', { name: 'Grant admin for dana' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Grant admin to dana?' });
    // the focus starts on Cancel; cancelling sends nothing
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls(`PUT /api/admin/users/${traveller.id}/admin`)).toHaveLength(0);

    const listCalls = api.calls('GET /api/admin/users').length;
    fireEvent.click(within(await rowOf('dana')).getByRole('button', { name: 'Grant admin for dana' }));
    const again = await screen.findByRole('alertdialog', { name: 'Grant admin to dana?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Grant admin' }));
    expect(await bodyOf(api, `PUT /api/admin/users/${traveller.id}/admin`)).toEqual({ isAdmin: true });
    expect(await screen.findByText('Admin Status Updated')).toBeInTheDocument();
    expect(screen.getByText('dana is now an admin.')).toBeInTheDocument();
    await waitFor(() => expect(api.calls('GET /api/admin/users').length).toBeGreaterThan(listCalls));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it("shows the spec's text and the server's reason when a revoke is refused", async () => {
    openUsers({
      [`PUT /api/admin/users/${otherAdmin.id}/admin`]: {
        status: 409,
        body: { message: 'The last admin cannot be removed' },
      },
    });
    fireEvent.click(within(await rowOf('ops')).getByRole('button', { name: 'Revoke admin for ops' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke admin from ops?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke admin' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(
      screen.getByText('Failed to update user admin status. The last admin cannot be removed'),
    ).toBeInTheDocument();
  });

  it("says 'Failed to update user admin status' when the server gives no reason", async () => {
    openUsers({ [`PUT /api/admin/users/${traveller.id}/admin`]: { status: 500, body: {} } });
    fireEvent.click(within(await rowOf('dana')).getByRole('button', { name: 'Grant admin for dana' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Grant admin' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to update user admin status')).toBeInTheDocument();
  });

  it('records a commission payment, prefilled with what is owed and refused above it', async () => {
    const { api } = openUsers({
      'POST /api/stripe/pay-commission': {
        body: {
          success: true,
          message: 'Commission payment recorded',
          userId: traveller.id,
          amount: 4000,
          transactionId: 77,
          commissionOwed: 6000,
          commissionPaid: 6500,
        },
      },
    });
    fireEvent.click(within(await rowOf('dana')).getByRole('button', { name: 'Record payment from dana' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Commission Payment' });
    const amount = within(dialog).getByLabelText(/Amount paid/);
    expect(amount).toHaveValue('100.00');

    fireEvent.change(amount, { target: { value: '100.01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    expect(await within(dialog).findByText('Amount cannot be more than the $100.00 owed')).toBeInTheDocument();
    fireEvent.change(amount, { target: { value: '0' } });
    expect(await within(dialog).findByText('Amount must be above 0')).toBeInTheDocument();
    expect(api.calls('POST /api/stripe/pay-commission')).toHaveLength(0);

    fireEvent.change(amount, { target: { value: '40' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    expect(await bodyOf(api, 'POST /api/stripe/pay-commission')).toEqual({ userId: traveller.id, amount: 4000 });
    expect(await screen.findByText('Commission Payment Processed')).toBeInTheDocument();
    expect(screen.getByText('Recorded $40.00 from dana; $60.00 still owed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Record Commission Payment' })).toBeNull());
  });

  it("says 'Payment Failed' and keeps the dialog open when the payment is refused", async () => {
    openUsers({
      'POST /api/stripe/pay-commission': {
        status: 400,
        body: {
          message: 'Amount is more than the $100.00 owed',
          errors: [{ field: 'amount', message: 'Amount is more than the $100.00 owed' }],
        },
      },
    });
    fireEvent.click(within(await rowOf('dana')).getByRole('button', { name: 'Record payment from dana' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Commission Payment' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record Payment' }));
    expect(await screen.findByText('Payment Failed')).toBeInTheDocument();
    // the field carries the server's message too
    expect(await within(dialog).findByText('Amount is more than the $100.00 owed')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Record Commission Payment' })).toBeInTheDocument();
  });

  it("says 'Error loading users' when the list fails", async () => {
    openUsers({ 'GET /api/admin/users': { status: 500, body: { message: 'Database unavailable' } } });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error loading users');
    expect(alert).toHaveTextContent('Database unavailable');
  });
});
