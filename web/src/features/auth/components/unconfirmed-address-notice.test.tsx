import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const routes = {
  'GET /api/flights': { body: { flights: [] } },
  'GET /api/dashboard/stats': {
    body: { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 },
  },
};

describe('unconfirmed address notice', () => {
  it("shows on signed-in pages until the address is confirmed, and 'Resend confirmation' mails a new link", async () => {
    const api = mockApi({
      'GET /api/auth/me': meRoute(buildUser({ email: 'ada@example.com', emailConfirmed: false })),
      'POST /api/auth/resend-confirmation': {
        body: { message: 'Confirmation email sent. Open the link in it to start receiving alerts.' },
      },
      ...routes,
    });
    renderApp('/account');
    expect(await screen.findByText('Confirm your email address')).toBeInTheDocument();
    expect(screen.getByText(/We sent a confirmation link to ada@example.com/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Resend confirmation' }));
    expect(await screen.findByText('Confirmation email sent')).toBeInTheDocument();
    expect(api.calls('POST /api/auth/resend-confirmation')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Sent' })).toBeDisabled();
  });

  it('is not shown once the address is confirmed', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(buildUser({ emailConfirmed: true })), ...routes });
    renderApp('/account');
    await screen.findByRole('heading', { name: 'Account Settings' });
    expect(screen.queryByText('Confirm your email address')).not.toBeInTheDocument();
  });
});
