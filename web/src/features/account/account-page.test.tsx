import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('account settings', () => {
  it('has Profile and Email Connection tabs, the selected one in the URL', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser()) });
    const { router } = renderApp('/account');
    expect(await screen.findByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.click(screen.getByRole('tab', { name: 'Email Connection' }));
    expect(await screen.findByRole('link', { name: 'Email Connection page' })).toHaveAttribute(
      'href',
      '/connect-email',
    );
    expect(router.state.location.search).toBe('?tab=email');
  });
});
