import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminTransaction } from '@shared/types/admin.ts';
import { mockApi, type MockRoute } from '@/testing/mock-api';
import { renderAtPath } from '@/testing/render-at-path';
import { AdminBillingTab } from './billing-tab';
import { pageOf } from './test-factories';

function transaction(overrides: Partial<AdminTransaction> = {}): AdminTransaction {
  return {
    id: 1,
    userId: '00000000-0000-4000-8000-000000000001',
    username: 'premium',
    email: 'premium@example.com',
    date: '2026-11-01T12:00:00.000Z',
    type: 'subscription',
    amount: 2499,
    status: 'completed',
    description: 'Premium plan, one year',
    paymentMethod: 'card',
    paymentReference: 'pi_test_1',
    ...overrides,
  };
}

const rows: AdminTransaction[] = [
  transaction(),
  transaction({
    id: 2,
    type: 'commission',
    amount: 1750,
    status: 'pending',
    description: null,
    paymentMethod: null,
    paymentReference: null,
    date: '2026-11-02T12:00:00.000Z',
  }),
  transaction({ id: 3, amount: 2499, status: 'failed', description: 'Card declined', paymentReference: 'pi_test_2' }),
  transaction({ id: 4, type: 'commission', amount: 500, status: 'refunded', paymentReference: 'pi_test_3' }),
];

async function open(route: MockRoute) {
  const api = mockApi({ 'GET /api/admin/billing': route });
  const rendered = await renderAtPath(<AdminBillingTab />, '/admin?tab=billing');
  const requests = () => api.calls('GET /api/admin/billing').map((request) => new URL(request.url).searchParams);
  return { ...rendered, requests };
}

function bodyRows() {
  const [, ...rest] = within(screen.getByRole('table', { name: 'Transactions' })).getAllByRole('row');
  return rest.map((row) => within(row));
}

describe('admin Billing tab', () => {
  it('lists transactions: date, traveller, type, amount, status as completed, pending or failed-style, description, payment method and reference', async () => {
    const { requests } = await open({ body: pageOf(rows) });
    expect(await screen.findByText('pi_test_1')).toBeInTheDocument();
    expect(requests()[0]?.toString()).toBe('page=1&pageSize=25&sort=date&order=desc');
    const [paid, pending, failed, refunded] = bodyRows();

    expect(paid?.getByText('Nov 1, 2026')).toBeInTheDocument();
    expect(paid?.getByText('premium')).toBeInTheDocument();
    expect(paid?.getByText('Subscription')).toBeInTheDocument();
    expect(paid?.getByText('$24.99')).toBeInTheDocument();
    expect(paid?.getByText('Premium plan, one year')).toBeInTheDocument();
    expect(paid?.getByText('card')).toBeInTheDocument();
    expect(paid?.getByText('completed')).toHaveAttribute('data-tone', 'success');

    expect(pending?.getByText('Commission')).toBeInTheDocument();
    expect(pending?.getByText('pending')).toHaveAttribute('data-tone', 'warning');
    expect(pending?.getAllByText('—')).toHaveLength(2); // no description, no method (and so no reference line)

    expect(failed?.getByText('failed')).toHaveAttribute('data-tone', 'danger');
    expect(refunded?.getByText('refunded')).toHaveAttribute('data-tone', 'danger');
  });

  it('searches on the server and sorts by amount', async () => {
    const { requests, history } = await open((request) => {
      const q = new URL(request.url).searchParams.get('q');
      return { body: pageOf(q ? rows.filter((row) => row.status === q) : rows) };
    });
    expect(await screen.findByText('pi_test_1')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search transactions' }), { target: { value: 'pending' } });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(history.location.search).toBe('?tab=billing&billing.q=pending');

    fireEvent.click(screen.getByRole('button', { name: 'Amount' }));
    await waitFor(() => expect(requests().at(-1)?.get('sort')).toBe('amount'));
    expect(requests().at(-1)?.get('q')).toBe('pending');
  });

  it("says 'Error loading transactions' when the list fails", async () => {
    await open({ status: 403, body: { message: 'Admin access required' } });
    expect(await screen.findByText('Error loading transactions')).toBeInTheDocument();
    expect(screen.getByText('Admin access required')).toBeInTheDocument();
  });
});
