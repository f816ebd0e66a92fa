import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminFlight } from '@shared/types/admin.ts';
import { mockApi, type MockRoute } from '@/testing/mock-api';
import { renderAtPath } from '@/testing/render-at-path';
import { AdminFlightsTab } from './flights-tab';
import { pageOf } from './test-factories';

function flight(overrides: Partial<AdminFlight> = {}): AdminFlight {
  return {
    id: 1,
    userId: '00000000-0000-4000-8000-000000000001',
    username: 'premium',
    email: 'premium@example.com',
    airline: 'Delta Air Lines',
    flightNumber: 'DL 402',
    bookingCode: 'DLX402',
    departureAirport: 'JFK',
    arrivalAirport: 'LAX',
    departureDate: '2026-12-20',
    status: 'monitoring',
    hasBeenRebooked: false,
    originalPrice: 45000,
    currentPrice: 45000,
    rebookingPrice: null,
    airlineCredit: null,
    commissionRate: 25,
    commission: 0,
    creditReview: null,
    lastChecked: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

const rows: AdminFlight[] = [
  flight({
    id: 1,
    status: 'rebooked',
    hasBeenRebooked: true,
    bookingCode: 'RBK001',
    currentPrice: 38001,
    rebookingPrice: 38001,
    airlineCredit: 6999,
    commission: 1750,
  }),
  flight({
    id: 4,
    status: 'rebooked',
    hasBeenRebooked: true,
    bookingCode: 'GUIDE4',
    airlineCredit: 6000,
    commission: 1500,
    creditReview: 'Declared credit $60.00 is below 90% of the $90.00 net drop FareBack found.',
  }),
  flight({ id: 2, status: 'price_drop', bookingCode: 'DROP02', currentPrice: 40000 }),
  flight({
    id: 3,
    status: 'limited',
    bookingCode: 'BASIC3',
    departureDate: null,
    currentPrice: null,
    departureAirport: null,
    arrivalAirport: null,
    username: 'someone',
    email: 'someone@example.com',
  }),
];

async function open(route: MockRoute, path = '/admin?tab=flights') {
  const api = mockApi({ 'GET /api/admin/flights': route });
  const rendered = await renderAtPath(<AdminFlightsTab />, path);
  const requests = () => api.calls('GET /api/admin/flights').map((request) => new URL(request.url).searchParams);
  return { ...rendered, requests };
}

function rowOf(bookingCode: string) {
  const table = screen.getByRole('table', { name: 'Flights' });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(bookingCode));
  if (!row) throw new Error(`no row for ${bookingCode}`);
  return within(row);
}

describe('admin Flights tab', () => {
  it('lists every flight with its traveller, route, date, status label, prices, credit and commission', async () => {
    const { requests } = await open({ body: pageOf(rows) });
    expect(await screen.findByText('RBK001')).toBeInTheDocument();
    expect(requests()[0]?.toString()).toBe('page=1&pageSize=25&sort=createdAt&order=desc');

    const rebooked = rowOf('RBK001');
    expect(rebooked.getByText('Rebooked')).toBeInTheDocument();
    expect(rebooked.getByText('Delta Air Lines DL 402')).toBeInTheDocument();
    expect(rebooked.getByText('JFK → LAX')).toBeInTheDocument();
    expect(rebooked.getByText('Dec 20, 2026')).toBeInTheDocument();
    expect(rebooked.getByText('$450.00')).toBeInTheDocument();
    expect(rebooked.getByText('$380.01')).toBeInTheDocument();
    expect(rebooked.getByText('$69.99')).toBeInTheDocument();
    // the row's commission (the api rounds it), with the rate it came from on hover and to screen readers
    const commission = rebooked.getByText('$17.50', { exact: false });
    expect(commission).toHaveAttribute('title', '25% of the airline credit');
    expect(commission).toHaveTextContent('$17.50 (25% of the airline credit)');

    expect(rebooked.queryByText('Credit to review', { exact: false })).not.toBeInTheDocument();
    // a guided rebooking's declared credit to look at says so, with the reason
    const review = rowOf('GUIDE4').getByText('Credit to review', { exact: false });
    expect(review).toHaveTextContent(
      'Credit to review: Declared credit $60.00 is below 90% of the $90.00 net drop FareBack found.',
    );

    expect(rowOf('DROP02').getByText('Price Drop')).toBeInTheDocument();
    const limited = rowOf('BASIC3');
    expect(limited.getByText('limited')).toBeInTheDocument();
    expect(limited.getByText('someone')).toBeInTheDocument();
    expect(limited.getAllByText('N/A')).toHaveLength(2); // no route, no departure date
  });

  it('searches on the server by what is typed and sorts by a column', async () => {
    const { requests, history } = await open((request) => {
      const q = new URL(request.url).searchParams.get('q');
      return { body: pageOf(q ? rows.filter((row) => row.bookingCode.includes(q)) : rows) };
    });
    expect(await screen.findByText('RBK001')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search flights' }), { target: { value: 'DROP02' } });
    await waitFor(() => expect(screen.queryByText('RBK001')).not.toBeInTheDocument());
    expect(screen.getByText('DROP02')).toBeInTheDocument();
    expect(history.location.search).toBe('?tab=flights&flights.q=DROP02');
    expect(requests().at(-1)?.get('q')).toBe('DROP02');

    fireEvent.click(screen.getByRole('button', { name: 'Booking Code' }));
    await waitFor(() => expect(requests().at(-1)?.get('sort')).toBe('bookingCode'));
    expect(requests().at(-1)?.get('order')).toBe('asc');
    expect(screen.getByRole('columnheader', { name: /Booking Code/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it("says 'Error loading flights' with the server's reason when the list fails, and retries", async () => {
    let fail = true;
    await open(() =>
      fail ? { status: 500, body: { message: 'The database is unavailable' } } : { body: pageOf(rows) },
    );
    expect(await screen.findByText('Error loading flights')).toBeInTheDocument();
    expect(screen.getByText('The database is unavailable')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('RBK001')).toBeInTheDocument();
  });
});
