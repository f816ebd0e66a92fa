import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { HeldBooking } from '@shared/types/email.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildEmailConnection, buildHeldBooking, buildOAuthConfig, buildScan, buildUser } from '@/testing/factories';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

afterEach(() => vi.restoreAllMocks());

/** A connected traveller whose mailbox held `held`; confirm and dismiss take one off the list. */
function heldApi(initial: HeldBooking[], confirmAnswer = { status: 200, body: {} as unknown }) {
  let held = [...initial];
  const take = (request: Request) => {
    const id = Number(/\/held\/(\d+)\//.exec(new URL(request.url).pathname)?.[1]);
    held = held.filter((h) => h.id !== id);
  };
  return mockApi({
    'GET /api/auth/me': meRoute(buildUser({ emailConnected: true, emailConnectionState: 'connected' })),
    'GET /api/oauth/config': { body: buildOAuthConfig() },
    'GET /api/email/connection': {
      body: { connection: buildEmailConnection({ state: 'connected', provider: 'gmail', scan: buildScan() }) },
    },
    'GET /api/email/messages': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
    'GET /api/email/held': () => ({ body: { held } }),
    'POST /api/email/held/41/confirm': (request) => {
      if (confirmAnswer.status === 200) take(request);
      return confirmAnswer;
    },
    'POST /api/email/held/42/dismiss': (request) => {
      take(request);
      return { body: { message: 'Booking dismissed.' } };
    },
  });
}

const fake = buildHeldBooking();
const other = buildHeldBooking({
  id: 42,
  airline: 'Delta Air Lines',
  bookingCode: 'FKQA02',
  flightNumber: 'DL1287',
  departureAirport: 'ATL',
  arrivalAirport: 'LAX',
  departureDate: '2027-04-14',
  returnDate: '2027-04-18',
  from: 'Delta <deals@cheap-fares.example>',
});

describe('Bookings to confirm', () => {
  it('lists held bookings with the sender, and Confirm makes it a flight', async () => {
    const api = heldApi([fake, other], {
      status: 200,
      body: { message: 'Booking confirmed. FareBack is watching this flight.', flightId: 9, watched: true },
    });
    renderApp('/connect-email');
    const list = await screen.findByRole('list', { name: 'Bookings to confirm' });
    expect(screen.getByRole('heading', { name: 'Bookings to confirm (2)' })).toBeInTheDocument();
    expect(within(list).getByText('United Airlines FKQA01')).toBeInTheDocument();
    expect(within(list).getByText(/united-deals\.example/)).toBeInTheDocument();
    expect(within(list).getByText(/ATL → LAX/)).toHaveTextContent('(return');

    fireEvent.click(screen.getByRole('button', { name: 'Confirm United Airlines FKQA01' }));
    expect(await screen.findByText('Booking confirmed')).toBeInTheDocument();
    expect(api.calls('POST /api/email/held/41/confirm')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('United Airlines FKQA01')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Bookings to confirm (1)' })).toBeInTheDocument();
  });

  it('Dismiss removes it; the panel goes when none is left', async () => {
    const api = heldApi([other]);
    renderApp('/connect-email');
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss Delta Air Lines FKQA02' }));
    expect(await screen.findByText('Booking dismissed')).toBeInTheDocument();
    expect(api.calls('POST /api/email/held/42/dismiss')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Bookings to confirm' })).not.toBeInTheDocument());
  });

  it("reports the server's refusal of a confirm", async () => {
    heldApi([fake], {
      status: 404,
      body: { message: 'No held booking with this id.' },
    });
    renderApp('/connect-email');
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm United Airlines FKQA01' }));
    expect(await screen.findByText('Could not confirm the booking')).toBeInTheDocument();
    expect(screen.getByText('No held booking with this id.')).toBeInTheDocument();
  });

  it('shows nothing when no booking is held', async () => {
    heldApi([]);
    renderApp('/connect-email');
    expect(await screen.findByText('Scanned 430 of 430 emails, 3 flights found')).toBeInTheDocument();
    expect(screen.queryByText(/Bookings to confirm/)).not.toBeInTheDocument();
  });
});
