import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { auditChanges, auditValue } from './audit-api';
import { buildAuditEntry, pageOf } from './test-factories';

const grant = buildAuditEntry({ targetLabel: 'dana' });
const planUpdate = buildAuditEntry({
  action: 'plan.update',
  targetType: 'plan',
  targetId: '2',
  targetLabel: 'Premium',
  before: { name: 'Premium', price: 2499, flightLimit: -1, commissionRate: 25, isActive: true },
  after: { name: 'Premium', price: 2999, flightLimit: -1, commissionRate: 20, isActive: false },
});
const run = buildAuditEntry({
  action: 'run.price_check',
  targetType: 'run',
  targetId: null,
  targetLabel: null,
  before: null,
  after: { checkedCount: 12, priceDropsFound: 3 },
});

function openAudit(routes: Record<string, MockRoute> = {}) {
  const api = mockApi({
    'GET /api/auth/me': meRoute(buildUser({ isAdmin: true })),
    'GET /api/admin/audit': { body: pageOf([grant, planUpdate, run]) },
    ...routes,
  });
  return { api, ...renderApp('/admin?tab=audit') };
}

async function rows() {
  const table = await screen.findByRole('table', { name: 'Audit log' });
  return within(table).getAllByRole('row').slice(1);
}

describe('admin audit tab', () => {
  it('lists who did what to whom, with readable actions and the change', async () => {
    openAudit();
    const [first, second, third] = await rows();
    const cells = (row: HTMLElement | undefined) =>
      within(row!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(first).slice(1)).toEqual(['admin', 'Admin granted', 'dana', 'isAdmin: false → true']);
    expect(cells(second).slice(1)).toEqual([
      'admin',
      'Plan updated',
      'Premium',
      'price: $24.99 → $29.99commissionRate: 25 → 20Show all (1 more)',
    ]);
    expect(cells(third).slice(1)).toEqual(['admin', 'Price check run', 'run', 'checkedCount: 12priceDropsFound: 3']);
  });

  it('shows every changed field of an entry when asked', async () => {
    openAudit();
    const [, second] = await rows();
    const more = within(second!).getByRole('button', { name: 'Show all (1 more)' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(more);
    const less = within(second!).getByRole('button', { name: 'Show less' });
    expect(less).toHaveAttribute('aria-expanded', 'true');
    expect(
      within(second!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['price: $24.99 → $29.99', 'commissionRate: 25 → 20', 'isActive: true → false']);
    fireEvent.click(less);
    expect(within(second!).getAllByRole('listitem')).toHaveLength(2);
  });

  it('searches the log on the server', async () => {
    const { api, router } = openAudit();
    await rows();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search audit log' }), { target: { value: 'grant' } });
    await waitFor(() => expect(router.state.location.search).toBe('?tab=audit&audit.q=grant'));
    await waitFor(() =>
      expect(api.calls('GET /api/admin/audit').map((r) => new URL(r.url).searchParams.get('q'))).toContain('grant'),
    );
  });

  it('says so when the log cannot be loaded', async () => {
    openAudit({ 'GET /api/admin/audit': { status: 500, body: { message: 'Database unavailable' } } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading the audit log');
  });
});

describe('auditChanges', () => {
  it('keeps the fields whose value changed, and every field of a one-sided entry', () => {
    expect(auditChanges({ before: { a: 1, b: [1], c: 'x' }, after: { a: 1, b: [2], d: null } })).toEqual([
      { field: 'b', before: [1], after: [2] },
      { field: 'c', before: 'x', after: undefined },
      { field: 'd', before: undefined, after: null },
    ]);
    expect(auditChanges({ before: null, after: { amount: 4000 } })).toEqual([
      { field: 'amount', before: undefined, after: 4000 },
    ]);
    expect(auditChanges({ before: null, after: null })).toEqual([]);
  });
});

describe('auditValue', () => {
  it('shows money fields in dollars and other values as recorded', () => {
    expect(auditValue(5000, 'commissionOwed')).toBe('$50.00');
    expect(auditValue(2499, 'price')).toBe('$24.99');
    expect(auditValue(25, 'commissionRate')).toBe('25');
    expect(auditValue(null, 'description')).toBe('none');
    expect(auditValue('Premium', 'name')).toBe('Premium');
    expect(auditValue(undefined, 'name')).toBe('');
  });
});
