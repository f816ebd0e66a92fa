import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildEmailConnection, buildImportedEmail, buildOAuthConfig, buildScan, buildUser } from '@/testing/factories';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import type { CurrentUser } from '@/lib/auth';
import type { EmailConnection } from '@shared/types/email.ts';

const stats = { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 };

function openSettings(user: CurrentUser, connection: MockRoute, routes: Record<string, MockRoute> = {}) {
  const api = mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/flights': { body: { flights: [] } },
    'GET /api/dashboard/stats': { body: stats },
    'GET /api/subscription/plans': { body: { plans: [] } },
    'GET /api/oauth/config': { body: buildOAuthConfig() },
    'GET /api/email/connection': connection,
    'GET /api/email/messages': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
    ...routes,
  });
  return { api, ...renderApp('/dashboard?tab=settings') };
}

const connectedUser = () => buildUser({ emailConnected: true, emailConnectionState: 'connected' });

describe("the Settings tab's email panel", () => {
  it("shows the green 'Email successfully connected' notice, the scan, the forwarding address and the emails read", async () => {
    const connection = buildEmailConnection({
      state: 'connected',
      provider: 'gmail',
      accountEmail: 'me@gmail.com',
      scan: buildScan({
        status: 'scanning',
        scanned: 120,
        total: 430,
        summary: 'Scanned 120 of 430 emails, 3 flights found',
        finishedAt: null,
      }),
    });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    openSettings(
      connectedUser(),
      { body: { connection } },
      {
        'GET /api/email/messages': {
          body: {
            items: [
              buildImportedEmail(),
              buildImportedEmail({
                id: 2,
                subject: 'Your hotel stay',
                from: 'Hotels <hi@hotel.example>',
                outcome: 'not_a_booking',
                bookings: [],
              }),
              buildImportedEmail({
                id: 3,
                subject: 'A very long email',
                outcome: 'not_read',
                outcomeReason: 'Reading the email took longer than 500 ms (stopped at: reading the lines)',
                bookings: [],
              }),
            ],
            total: 3,
            page: 1,
            pageSize: 10,
          },
        },
      },
    );
    expect(await screen.findByText('Email successfully connected')).toBeInTheDocument();
    expect(
      screen.getByText(/You'll receive notifications about price drops and rebooking confirmations/),
    ).toBeInTheDocument();
    expect(screen.getByText(/me@gmail.com \(Gmail\)/)).toBeInTheDocument();
    expect(screen.getByText('Scanned 120 of 430 emails, 3 flights found')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Scan progress' })).toHaveAttribute(
      'aria-valuenow',
      String((120 / 430) * 100),
    );
    expect(screen.getByRole('button', { name: 'Scan Now' })).toBeDisabled();

    expect(screen.getByText('trips+k3y9x2@in.fareback.app')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Copy Address' }));
    expect(await screen.findByText('Copied!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('trips+k3y9x2@in.fareback.app');

    expect(await screen.findByText('Your trip confirmation: ABC123')).toBeInTheDocument();
    expect(screen.getByText('Flight added')).toBeInTheDocument();
    expect(screen.getByText(/Delta Air Lines ABC123 · SMITH · DL1234 JFK→LAX Mar 14, 2027/)).toBeInTheDocument();
    expect(screen.getByText('Your hotel stay')).toBeInTheDocument();
    expect(screen.getByText('Not a booking')).toBeInTheDocument();
    expect(screen.getByText('Not read')).toBeInTheDocument();
    expect(
      screen.getByText('Reading the email took longer than 500 ms (stopped at: reading the lines)'),
    ).toBeInTheDocument();
  });

  it('re-reads the connection while the scan runs, until it is done', async () => {
    let reads = 0;
    const running = buildScan({
      status: 'scanning',
      scanned: 1,
      total: 2,
      summary: 'Scanned 1 of 2 emails, 0 flights found',
      finishedAt: null,
    });
    const done = buildScan({ scanned: 2, total: 2, summary: 'Scanned 2 of 2 emails, 1 flight found', flightsFound: 1 });
    openSettings(connectedUser(), () => {
      reads += 1;
      const connection: EmailConnection = buildEmailConnection({
        state: 'connected',
        provider: 'sample',
        scan: reads > 1 ? done : running,
      });
      return { body: { connection } };
    });
    expect(await screen.findByText('Scanned 1 of 2 emails, 0 flights found')).toBeInTheDocument();
    expect(await screen.findByText('Scanned 2 of 2 emails, 1 flight found', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Scan Now' })).toBeEnabled();
  });

  it('starts a scan with Scan Now', async () => {
    const api = openSettings(
      connectedUser(),
      { body: { connection: buildEmailConnection({ state: 'connected', provider: 'sample', scan: buildScan() }) } },
      {
        'POST /api/email/scan': {
          status: 202,
          body: {
            message: 'Scan queued',
            scan: buildScan({
              status: 'queued',
              scanned: 0,
              total: 0,
              summary: 'Scanned 0 of 0 emails, 0 flights found',
              finishedAt: null,
            }),
          },
        },
      },
    ).api;
    fireEvent.click(await screen.findByRole('button', { name: 'Scan Now' }));
    expect(await screen.findByText('Scan queued')).toBeInTheDocument();
    expect(api.calls('POST /api/email/scan')).toHaveLength(1);
  });

  it("tells the traveller to reconnect when Google refused the token ('needs reconnect')", async () => {
    const connection = buildEmailConnection({
      state: 'needs_reconnect',
      provider: 'gmail',
      accountEmail: 'me@gmail.com',
    });
    openSettings(buildUser({ emailConnected: false, emailConnectionState: 'needs_reconnect' }), {
      body: { connection },
    });
    expect(await screen.findByText('Reconnect your email')).toBeInTheDocument();
    expect(screen.getByText(/no longer accepts FareBack's access to me@gmail.com/)).toBeInTheDocument();
    expect(screen.getByText(/^Email connection:/)).toHaveTextContent('Email connection: Needs reconnect');
    expect(screen.getByRole('button', { name: 'Reconnect Gmail' })).toBeInTheDocument();
    expect(screen.queryByText('Email successfully connected')).not.toBeInTheDocument();
  });

  it('offers to connect, and the forwarding address, when not connected', async () => {
    openSettings(buildUser(), { body: { connection: buildEmailConnection() } });
    expect(await screen.findByRole('button', { name: 'Connect with Gmail' })).toBeInTheDocument();
    expect(screen.getByText(/^Email connection:/)).toHaveTextContent('Email connection: Not Connected');
    expect(screen.getByText('trips+k3y9x2@in.fareback.app')).toBeInTheDocument();
    expect(screen.queryByText('Email successfully connected')).not.toBeInTheDocument();
    expect(screen.queryByText('Emails read')).not.toBeInTheDocument();
  });

  it("shows the dashboard's badge as Connected once connected", async () => {
    openSettings(connectedUser(), { body: { connection: buildEmailConnection({ state: 'connected' }) } });
    await screen.findByText('Email successfully connected');
    await waitFor(() => expect(screen.getAllByText('Connected').length).toBeGreaterThan(0));
  });
});
