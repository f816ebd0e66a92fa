import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { buildFlight, buildUser } from '@/testing/factories';
import { afterEach, describe, expect, it } from 'vitest';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const AIRLINES = [
  ['AA', 'American Airlines', true],
  ['UA', 'United Airlines', true],
  ['LH', 'Lufthansa', true],
  ['EI', 'Aer Lingus', false],
].map(([code, name, automaticRebooking]) => ({
  code,
  name,
  automaticRebooking,
  fareBrands: [],
  manageBookingUrl: null,
  flightStatusUrl: null,
}));

const stats = { monitoredFlights: 3, priceDropsFound: 1, potentialSavings: 12345, actualSavings: 600050 };

function openDashboard(path = '/dashboard', routes: Record<string, MockRoute> = {}, user = buildUser()) {
  mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/flights': { body: { flights: [] } },
    'GET /api/dashboard/stats': { body: stats },
    'GET /api/airlines': { body: { airlines: AIRLINES } },
    ...routes,
  });
  return renderApp(path);
}

const originalMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = originalMatchMedia;
});

describe('dashboard', () => {
  it('shows the title, the email badge and the four tiles in whole dollars', async () => {
    openDashboard();
    expect(await screen.findByRole('heading', { name: 'Flight Savings Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('Not Connected')).toBeInTheDocument();
    const tiles = screen.getByRole('list', { name: 'Your savings at a glance' });
    expect(await within(tiles).findByText('$123')).toBeInTheDocument();
    expect(within(tiles).getByText('Monitored Flights').parentElement).toHaveTextContent('3');
    expect(within(tiles).getByText('Price Drops Found').parentElement).toHaveTextContent('1');
    expect(within(tiles).getByText('$6,001')).toBeInTheDocument();
  });

  it("counts only watched flights against the free plan's limit, while listing every flight not rebooked", async () => {
    const flights = [
      buildFlight({ isWatched: true }),
      buildFlight({ isWatched: true }),
      buildFlight({ isWatched: false, flightNumber: 'AA777', status: 'departed' }),
    ];
    openDashboard('/dashboard', { 'GET /api/flights': { body: { flights } } });
    expect(await screen.findByText('2 of 5 flights on the free plan')).toBeInTheDocument();
    expect(screen.getAllByText('AA777', { exact: false }).length).toBeGreaterThan(0);
  });

  it('shows Connected for a connected inbox', async () => {
    openDashboard('/dashboard', {}, buildUser({ emailConnected: true }));
    expect(await screen.findByText('Connected')).toBeInTheDocument();
  });

  it("reads 'No stats available' when the stats cannot be loaded", async () => {
    openDashboard('/dashboard', { 'GET /api/dashboard/stats': { status: 500, body: { message: 'Boom' } } });
    expect(await screen.findAllByText('No stats available')).toHaveLength(4);
  });

  it('has six tabs, Flights first, with the empty text of each flight tab', async () => {
    const { router } = openDashboard();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Flights',
      'Rebooking History',
      'Airline Credits',
      'Settings',
      'Manual Entry',
      'Subscription',
    ]);
    expect(
      await screen.findByText(
        'No monitored flights found. Connect your email to start monitoring flight confirmations.',
      ),
    ).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Rebooking History' }));
    expect(
      await screen.findByText('Your rebooking history will appear here once you have rebooked flights.'),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=history');

    fireEvent.click(screen.getByRole('tab', { name: 'Airline Credits' }));
    expect(await screen.findByText(/Credits appear here after a flight is rebooked/)).toBeInTheDocument();
  });

  it('uses the short labels under 768 px', async () => {
    window.matchMedia = (query: string) =>
      ({
        matches: query.includes('max-width: 767.98px'),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList;
    openDashboard();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Flights', 'History', 'Credits', 'Settings', 'Add', 'Plan']);
  });

  it('opens the tab named in the URL, and Upgrade opens Subscription', async () => {
    const { router } = openDashboard('/dashboard?tab=settings');
    expect(await screen.findByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('link', { name: 'Manage email connection' })).toHaveAttribute('href', '/connect-email');

    fireEvent.click(screen.getByRole('tab', { name: 'Flights' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
    expect(router.state.location.search).toBe('?tab=plan');
    expect(await screen.findByRole('heading', { name: 'Your Subscription' })).toBeInTheDocument();
  });

  it('opens Flights for a tab the URL names that does not exist', async () => {
    openDashboard('/dashboard?tab=admin');
    expect(await screen.findByRole('tab', { name: 'Flights' })).toHaveAttribute('aria-selected', 'true');
  });

  it('lists the airlines FareBack rebooks automatically (GET /api/airlines) and the fare types, and that Basic Economy is not supported', async () => {
    openDashboard();
    const section = await screen.findByRole('region', { name: 'Supported airlines and fares' });
    const airlines = within(section).getByRole('list', { name: 'Supported airlines' });
    await waitFor(() =>
      expect(
        within(airlines)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['American Airlines', 'United Airlines', 'Lufthansa']),
    );
    const fares = within(section).getByRole('list', { name: 'Supported fare types' });
    expect(
      within(fares)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Refundable Economy', 'Flexible Economy', 'Premium Economy', 'Business Class', 'First Class']);
    expect(within(section).getByRole('list', { name: 'Not supported' })).toHaveTextContent(
      'Not supported: Basic Economy (non-refundable)',
    );
  });

  it('splits flights between Flights, History and Credits, with the total savings', async () => {
    const monitored = buildFlight({ airline: 'Delta Air Lines', flightNumber: 'DL100' });
    const rebooked = buildFlight({
      airline: 'United Airlines',
      flightNumber: 'UA200',
      departureAirport: 'SFO',
      arrivalAirport: 'ORD',
      isRoundTrip: true,
      hasBeenRebooked: true,
      status: 'rebooked',
      originalPrice: 60000,
      rebookingPrice: 52500,
      airlineCredit: 7500,
      creditReferenceNumber: 'UAC-778',
      creditExpiryDate: '2028-01-15',
      rebookingDate: '2027-01-15',
    });
    const noCredit = buildFlight({
      flightNumber: 'DL300',
      hasBeenRebooked: true,
      airlineCredit: 0,
      originalPrice: 15000,
    });
    openDashboard('/dashboard', { 'GET /api/flights': { body: { flights: [monitored, rebooked, noCredit] } } });

    expect(await screen.findByRole('article', { name: 'Delta Air Lines DL100' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'United Airlines UA200' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Rebooking History' }));
    expect(await screen.findByRole('article', { name: 'United Airlines UA200' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Delta Air Lines DL300' })).toBeInTheDocument();
    const total = screen.getByLabelText('Total savings');
    expect(within(total).getByText('$75')).toBeInTheDocument();
    expect(within(total).getByText('10.0% of $750 in original fares')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Airline Credits' }));
    const credits = await screen.findByRole('list', { name: 'Airline credits' });
    const rows = within(credits).getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    const [row] = rows;
    if (!row) throw new Error('no credit row');
    expect(row).toHaveTextContent('United Airlines');
    expect(row).toHaveTextContent('UA200 · SFO → ORD · Round Trip');
    expect(row).toHaveTextContent('$75');
    expect(row).toHaveTextContent('UAC-778');
    expect(row).toHaveTextContent('Jan 15, 2028');
    expect(row).toHaveTextContent('Jan 15, 2027');
  });

  it('says Not available for a credit without a reference', async () => {
    const rebooked = buildFlight({ hasBeenRebooked: true, airlineCredit: 1000, creditReferenceNumber: null });
    openDashboard('/dashboard?tab=credits', { 'GET /api/flights': { body: { flights: [rebooked] } } });
    const credits = await screen.findByRole('list', { name: 'Airline credits' });
    await waitFor(() => expect(credits).toHaveTextContent('Not available'));
  });

  it('toasts the rebooking even though the card leaves the Flights tab when the list refetches', async () => {
    const flight = buildFlight({ flightNumber: 'DL700', status: 'price_drop', currentPrice: 30000 });
    let current = flight;
    openDashboard('/dashboard', {
      'GET /api/flights': () => ({ body: { flights: [current] } }),
      [`POST /api/flights/${flight.id}/rebook`]: () => {
        current = { ...flight, hasBeenRebooked: true, status: 'rebooked', airlineCredit: 10000 };
        return { body: { flight: current, savings: 10000, percentSaved: 25, commission: 0, message: 'Rebooked' } };
      },
    });
    const card = await screen.findByRole('article', { name: 'Delta Air Lines DL700' });
    fireEvent.click(within(card).getByRole('button', { name: 'Rebook at Lower Price' }));
    expect(await screen.findByText('Flight rebooked successfully')).toBeInTheDocument();
    expect(screen.getByText('You saved $100.00 (25.0%) as airline credit.')).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Delta Air Lines DL700' })).not.toBeInTheDocument();
  });
});
