import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('confirm email page', () => {
  it('spends the link once and says the address is confirmed', async () => {
    const api = mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/confirm-email': { body: { message: 'Your email address is confirmed.' } },
    });
    renderApp('/confirm-email?token=abc123');
    expect(await screen.findByRole('heading', { name: 'Email Confirmed' })).toBeInTheDocument();
    expect(screen.getByText('Your email address is confirmed.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to login' })).toHaveAttribute('href', '/login');
    const calls = api.calls('POST /api/auth/confirm-email');
    expect(calls).toHaveLength(1);
    expect(await calls[0]?.json()).toEqual({ token: 'abc123' });
  });

  it("shows the server's message for a used or expired link", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'POST /api/auth/confirm-email': { status: 400, body: { message: 'This confirmation link is invalid.' } },
    });
    renderApp('/confirm-email?token=used');
    expect(await screen.findByText('This confirmation link is invalid.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Confirm your email' })).toBeInTheDocument();
  });

  it('sends nothing without a token', async () => {
    const api = mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/confirm-email');
    expect(await screen.findByText('This confirmation link is invalid or has expired.')).toBeInTheDocument();
    expect(api.calls('POST /api/auth/confirm-email')).toHaveLength(0);
  });
});
