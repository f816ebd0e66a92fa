import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('unsubscribe page', () => {
  it('says what the link turns off, and turns it off on the click, without logging in', async () => {
    const api = mockApi({
      'GET /api/auth/me': meRoute(null),
      'GET /api/notifications/unsubscribe': { body: { kind: 'price_drop', description: 'price-drop alert emails' } },
      'POST /api/notifications/unsubscribe': {
        body: {
          message: 'Done: you will no longer get price-drop alert emails. You can turn them back on in Settings.',
        },
      },
    });
    renderApp('/unsubscribe?token=u.price_drop.sig');
    expect(await screen.findByText('Stop sending me price-drop alert emails?')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Unsubscribe' })).toBeInTheDocument();
    // opening the page changed nothing
    expect(api.calls('POST /api/notifications/unsubscribe')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText(/Done: you will no longer get price-drop alert emails/)).toBeInTheDocument();
    const calls = api.calls('POST /api/notifications/unsubscribe');
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url).searchParams.get('token')).toBe('u.price_drop.sig');
  });

  it("shows the server's message for a link that does not verify", async () => {
    mockApi({
      'GET /api/auth/me': meRoute(null),
      'GET /api/notifications/unsubscribe': { status: 400, body: { message: 'This unsubscribe link is invalid.' } },
    });
    renderApp('/unsubscribe?token=forged');
    expect(await screen.findByText('This unsubscribe link is invalid.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
  });

  it('asks nothing of the server without a token', async () => {
    const api = mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/unsubscribe');
    expect(await screen.findByText(/This unsubscribe link is invalid/)).toBeInTheDocument();
    expect(api.calls('GET /api/notifications/unsubscribe')).toHaveLength(0);
  });
});
