import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('admin dashboard', () => {
  it('has the five tabs and the audit log, opens the one the URL names and keeps the selection in the URL', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ isAdmin: true })) });
    const { router } = renderApp('/admin?tab=billing');
    expect(await screen.findByRole('tab', { name: 'Billing' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Dashboard',
      'Users',
      'Flights',
      'Billing',
      'Plans',
      'Audit',
    ]);
    fireEvent.click(screen.getByRole('tab', { name: 'Plans' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Plans' })).toHaveAttribute('aria-selected', 'true'));
    expect(router.state.location.search).toBe('?tab=subscription-plans');
  });
});
