import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { buildAppliedRule, buildFlight } from '@/testing/factories';
import type { Flight } from '@shared/types/flights.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, type MockRoute } from '@/testing/mock-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { flightKeys } from '../keys';
import { FlightCard } from './flight-card';

function renderCard(
  flight: Flight & { awaitingApproval?: boolean },
  routes: Record<string, MockRoute> = {},
  offerUpgrade = true,
  autoRebooking = false,
) {
  const api = mockApi(routes);
  const { queryClient } = renderWithProviders(
    <FlightCard flight={flight} offerUpgrade={offerUpgrade} autoRebooking={autoRebooking} />,
  );
  return { ...api, queryClient };
}

const card = () => screen.getByRole('article');

// The factory's flights leave on 2027-03-14; the card compares that with today, so today is fixed
// before it (only Date is faked: the queries and toasts keep their real timers).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2027, 2, 10, 12, 0));
});
afterEach(() => vi.useRealTimers());

describe('FlightCard', () => {
  it('shows a monitored flight: fields, badges, links and a disabled No Price Drop', () => {
    renderCard(
      buildFlight({
        airline: 'Delta Air Lines',
        flightNumber: 'DL1234',
        bookingCode: 'ABC123',
        passengerLastName: 'Smith',
        originalPrice: 40000,
        currentPrice: 41250,
        lowestPrice: 39999,
        highestPrice: 41250,
        lastChecked: new Date(Date.now() - 5 * 60_000).toISOString(),
        seatNumber: '14C',
        cabinClass: 'Economy',
      }),
    );
    const article = card();
    expect(article).toHaveAccessibleName('Delta Air Lines DL1234');
    expect(article).toHaveAttribute('data-border-tone', 'primary');
    expect(within(article).getByText('Booking ABC123 · Passenger Smith')).toBeInTheDocument();
    expect(within(article).getByText('Monitoring')).toBeInTheDocument();
    expect(within(article).getByText('Eligible for rebooking')).toBeInTheDocument();
    expect(within(article).getByText('One Way')).toBeInTheDocument();
    expect(within(article).getByText('Mar 14, 2027')).toBeInTheDocument();
    expect(within(article).getByText('$400.00')).toBeInTheDocument();
    expect(within(article).getAllByText('$412.50')).toHaveLength(2);
    expect(within(article).getByText('$399.99')).toBeInTheDocument();
    expect(within(article).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(article).getByText('$0.00 (0.0%)')).toBeInTheDocument();
    expect(within(article).getByText('14C')).toBeInTheDocument();
    expect(within(article).getByText('FareBack rebooks it when you click Rebook at Lower Price')).toBeInTheDocument();
    expect(within(article).queryByText('FareBack rebooks this for you')).not.toBeInTheDocument();
    expect(within(article).getByText(/No price checks yet/)).toBeInTheDocument();
    expect(within(article).getByRole('link', { name: /Flight status/ })).toHaveAttribute(
      'href',
      expect.stringContaining('delta.com/flightstatus'),
    );
    expect(within(article).getByRole('link', { name: /Manage booking/ })).toHaveAttribute('target', '_blank');
    expect(within(article).getByRole('button', { name: 'No Price Drop' })).toBeDisabled();
    expect(within(article).getByRole('button', { name: 'Check Now' })).toBeEnabled();
  });

  it('shows the net savings after the change fee and why the drop does not qualify', () => {
    renderCard(
      buildFlight({
        originalPrice: 40000,
        currentPrice: 30000,
        status: 'price_drop',
        changePenalty: 7500,
        rebookingVerdict: {
          netSavings: 2500,
          changePenalty: 7500,
          refundForm: 'credit',
          qualifies: false,
          international: false,
          minNetSavings: 5000,
          reason:
            'Saves $25.00 (6.3%) as airline credit after a $75.00 change fee, below your rebooking threshold of $50.00 or 15%.',
          rebookingMode: 'automatic',
          rule: buildAppliedRule(),
        },
      }),
    );
    const net = within(card()).getByTestId('net-savings');
    expect(within(net).getByText(/Net savings after fees: \$25\.00/)).toBeInTheDocument();
    expect(within(net).getByText('($75.00 change fee)')).toBeInTheDocument();
    expect(within(net).getByText('Below your rebooking threshold')).toBeInTheDocument();
    expect(
      within(net).getByText(
        'Saves $25.00 (6.3%) as airline credit after a $75.00 change fee, below your rebooking threshold of $50.00 or 15%.',
      ),
    ).toBeInTheDocument();
  });

  it('reads never before the first check and offers a search link for other airlines', () => {
    renderCard(
      buildFlight({ airline: 'Spirit Airlines', flightNumber: 'NK201', lastChecked: null, currentPrice: null }),
    );
    expect(screen.getByText('never')).toBeInTheDocument();
    expect(screen.getByText('Not checked')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Search flight status/ })).toHaveAttribute(
      'href',
      expect.stringContaining('google.com/search'),
    );
    expect(screen.queryByRole('link', { name: /Manage booking/ })).not.toBeInTheDocument();
  });

  it('shows a round trip with its return flight', () => {
    renderCard(buildFlight({ isRoundTrip: true, returnDate: '2027-03-21', returnFlightNumber: 'DL1235' }));
    expect(screen.getByText('Round Trip')).toBeInTheDocument();
    expect(screen.getByText('Return flight DL1235')).toBeInTheDocument();
  });

  it('rebooks a price drop on an eligible fare and toasts the savings', async () => {
    const flight = buildFlight({ status: 'price_drop', originalPrice: 40000, currentPrice: 35000 });
    const api = renderCard(flight, {
      [`POST /api/flights/${flight.id}/rebook`]: {
        body: { flight, savings: 5000, percentSaved: 12.5, commission: 0, message: 'Rebooked' },
      },
    });
    expect(card()).toHaveAttribute('data-border-tone', 'green');
    expect(screen.getByText('12.5% Price Drop Found')).toBeInTheDocument();
    expect(screen.getByText('$50.00 (12.5%)')).toBeInTheDocument();
    expect(screen.queryByText('Missed Opportunity')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Rebook at Lower Price' }));
    expect(await screen.findByText('Flight rebooked successfully')).toBeInTheDocument();
    expect(screen.getByText('You saved $50.00 (12.5%) as airline credit.')).toBeInTheDocument();
    expect(api.calls(`POST /api/flights/${flight.id}/rebook`)).toHaveLength(1);
  });

  it("toasts 'Rebooking failed' with the server's reason", async () => {
    const flight = buildFlight({ status: 'price_drop', currentPrice: 35000 });
    renderCard(flight, {
      [`POST /api/flights/${flight.id}/rebook`]: { status: 409, body: { message: 'This flight is already rebooked.' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Rebook at Lower Price' }));
    expect(await screen.findByText('Rebooking failed')).toBeInTheDocument();
    expect(screen.getByText('This flight is already rebooked.')).toBeInTheDocument();
  });

  it('explains a price drop on a non-eligible fare, with the Missed Opportunity notice', () => {
    renderCard(
      buildFlight({
        status: 'price_drop',
        fareType: 'Basic Economy',
        isEligibleForRebooking: false,
        originalPrice: 20000,
        currentPrice: 17000,
      }),
    );
    expect(card()).toHaveAttribute('data-border-tone', 'green');
    expect(screen.getByText('15.0% Price Drop Found')).toBeInTheDocument();
    expect(screen.getByText('Not eligible for rebooking')).toBeInTheDocument();
    expect(screen.getByText(/tickets cannot be changed automatically/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rebook at Lower Price' })).not.toBeInTheDocument();
    expect(screen.getByText('Missed Opportunity')).toBeInTheDocument();
    // the upgrade is on the dashboard's Subscription tab, not /account
    expect(screen.getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/dashboard?tab=plan');
  });

  it('leaves the upgrade link out for premium members', () => {
    renderCard(buildFlight({ status: 'price_drop', isEligibleForRebooking: false, currentPrice: 30000 }), {}, false);
    expect(screen.getByText('Missed Opportunity')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade to Premium' })).not.toBeInTheDocument();
  });

  it('shows a limited fare in orange as Limited Monitoring', () => {
    renderCard(buildFlight({ status: 'limited', fareType: 'Basic Economy', isEligibleForRebooking: false }));
    expect(card()).toHaveAttribute('data-border-tone', 'orange');
    expect(screen.getByText('Limited Monitoring')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'No Price Drop' })).toBeDisabled();
    expect(screen.queryByText('FareBack rebooks this for you')).not.toBeInTheDocument();
  });

  it('checks the price: Checking... while busy, then the toast', async () => {
    const flight = buildFlight();
    let answer: (value: { body: unknown }) => void = () => undefined;
    renderCard(flight, {
      [`POST /api/flights/${flight.id}/check-price`]: () => new Promise((resolve) => (answer = resolve)),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check Now' }));
    expect(await screen.findByText('Checking...')).toBeInTheDocument();
    answer({ body: { flight, priceDropped: false, message: 'Checked' } });
    expect(await screen.findByText('Price check complete')).toBeInTheDocument();
    expect(screen.getByText('Flight price has been updated.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Checking...')).not.toBeInTheDocument());
  });

  it("toasts 'Failed to check price' when the check fails", async () => {
    const flight = buildFlight();
    renderCard(flight, {
      [`POST /api/flights/${flight.id}/check-price`]: {
        status: 503,
        body: { message: 'The fare source is unavailable. Please try again later.' },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check Now' }));
    expect(await screen.findByText('Failed to check price')).toBeInTheDocument();
    expect(screen.getByText('The fare source is unavailable. Please try again later.')).toBeInTheDocument();
  });

  it('shows a rebooked flight and its Rebooking Details dialog with five sections', async () => {
    renderCard(
      buildFlight({
        airline: 'United Airlines',
        flightNumber: 'UA900',
        status: 'rebooked',
        hasBeenRebooked: true,
        originalPrice: 50000,
        currentPrice: 44000,
        rebookingPrice: 44000,
        rebookingDate: '2027-02-01',
        airlineCredit: 6000,
        creditReferenceNumber: null,
        creditExpiryDate: '2028-02-01',
        // recorded at a plan rate of 20%: the dialog says so, whatever the plans say now
        commissionAmount: 1200,
        commissionRate: 20,
      }),
    );
    expect(card()).toHaveAttribute('data-border-tone', 'green');
    expect(screen.getByText('Successfully Rebooked')).toBeInTheDocument();
    expect(screen.getByText('New booking price')).toBeInTheDocument();
    expect(screen.getByText('Total savings')).toBeInTheDocument();
    expect(screen.getByText('$60.00 (12.0%)')).toBeInTheDocument();
    expect(screen.getByText('Feb 1, 2028')).toBeInTheDocument();
    // its fare is settled: Check Now stays in place but cannot be pressed
    expect(screen.getByRole('button', { name: 'Check Now' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'View Rebooking Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rebooking Details' });
    for (const section of [
      'Flight Information',
      'Price & Savings',
      'Airline Credit Information',
      'Seat Information',
      'Commission Information',
    ]) {
      expect(within(dialog).getByRole('heading', { name: section })).toBeInTheDocument();
    }
    expect(within(dialog).getByText('Not available')).toBeInTheDocument();
    expect(within(dialog).getByText(/A commission of \$12\.00 \(20% of the airline credit\)/)).toBeInTheDocument();
    const checkCredit = within(dialog).getByRole('link', { name: /Check Credit on the airline/ });
    expect(checkCredit).toHaveAttribute('href', 'https://www.united.com/');
    expect(checkCredit).toHaveAttribute('target', '_blank');
  });

  it('shows in Rebooking Details the two quotes that confirmed the drop', async () => {
    renderCard(
      buildFlight({
        status: 'rebooked',
        hasBeenRebooked: true,
        originalPrice: 50000,
        currentPrice: 44000,
        rebookingPrice: 44000,
        rebookingDate: '2027-02-01',
        airlineCredit: 6000,
        dropQuotes: [
          {
            quotedAt: '2027-01-31T10:00:00.000Z',
            source: 'simulated',
            offerId: 'sim_first',
            price: 44000,
            currency: 'USD',
          },
          {
            quotedAt: '2027-01-31T10:00:05.000Z',
            source: 'simulated',
            offerId: 'sim_second',
            price: 44000,
            currency: 'USD',
          },
        ],
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'View Rebooking Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rebooking Details' });
    const proof = within(dialog).getByRole('region', { name: 'How the drop was confirmed' });
    expect(within(proof).getByText('First quote (drop seen)')).toBeInTheDocument();
    expect(within(proof).getByText('Second quote (drop confirmed)')).toBeInTheDocument();
    expect(within(proof).getByText(/simulated · offer sim_first/)).toBeInTheDocument();
    expect(within(proof).getByText(/simulated · offer sim_second/)).toBeInTheDocument();
    expect(within(proof).getAllByText('$440.00')).toHaveLength(2);
  });

  it('sends an assisted booking through the guided dialog, validated, in cents', async () => {
    const flight = buildFlight({
      status: 'price_drop',
      rebookingMethod: 'assisted',
      airline: 'Alaska Airlines',
      originalPrice: 30000,
      currentPrice: 25000,
    });
    const api = renderCard(flight, {
      [`POST /api/flights/${flight.id}/confirm-rebooking`]: {
        body: { flight, savings: 4000, percentSaved: 13.3, commission: 0, message: 'Recorded' },
      },
    });
    expect(screen.getByText('You change it with the airline; we guide you')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Rebook at Lower Price' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rebook at Lower Price' });
    expect(api.calls(`POST /api/flights/${flight.id}/rebook`)).toHaveLength(0);
    expect(within(dialog).getByRole('link', { name: /manage booking page/ })).toHaveAttribute(
      'href',
      expect.stringContaining('alaskaair.com'),
    );
    expect(within(dialog).getByText(/Ask for the fare difference as airline credit/)).toBeInTheDocument();
    // empty, so no click records a credit the airline has not given; the expected figures guide
    expect(within(dialog).getByLabelText(/New price/)).toHaveValue('');
    expect(within(dialog).getByLabelText(/Airline credit/)).toHaveValue('');
    expect(within(dialog).getByLabelText(/Credit expiry date/)).toHaveValue('');
    expect(within(dialog).getByLabelText(/New price/)).toHaveAccessibleDescription(/Expected: about \$250\.00/);
    expect(within(dialog).getByLabelText(/Airline credit/)).toHaveAccessibleDescription(/Expected: about \$50\.00/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Rebooking' }));
    await waitFor(() => expect(within(dialog).getByLabelText(/New price/)).toHaveAttribute('aria-invalid', 'true'));
    expect(api.calls(`POST /api/flights/${flight.id}/confirm-rebooking`)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/New price/), { target: { value: '250' } });
    fireEvent.change(within(dialog).getByLabelText(/Airline credit/), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Rebooking' }));
    expect(await within(dialog).findByText('Airline credit must be more than $0')).toBeInTheDocument();
    expect(api.calls(`POST /api/flights/${flight.id}/confirm-rebooking`)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/Airline credit/), { target: { value: '40' } });
    fireEvent.change(within(dialog).getByLabelText(/Credit reference/), { target: { value: 'ECR-123' } });
    fireEvent.change(within(dialog).getByLabelText(/Credit expiry date/), { target: { value: '2028-01-31' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Rebooking' }));

    expect(await screen.findByText('Flight rebooked successfully')).toBeInTheDocument();
    expect(screen.getByText('You saved $40.00 (13.3%) as airline credit.')).toBeInTheDocument();
    const [request] = api.calls(`POST /api/flights/${flight.id}/confirm-rebooking`);
    expect(await request?.json()).toEqual({
      newPrice: 25000,
      airlineCredit: 4000,
      creditReferenceNumber: 'ECR-123',
      creditExpiryDate: '2028-01-31',
    });
  });

  it("shows the server's per-field message on the assisted dialog's field", async () => {
    const flight = buildFlight({
      status: 'price_drop',
      rebookingMethod: 'assisted',
      originalPrice: 30000,
      currentPrice: 25000,
    });
    const message = 'Credit expiry date must be a date (YYYY-MM-DD)';
    renderCard(flight, {
      [`POST /api/flights/${flight.id}/confirm-rebooking`]: {
        status: 400,
        body: { message, errors: [{ field: 'creditExpiryDate', message }] },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Rebook at Lower Price' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rebook at Lower Price' });
    fireEvent.change(within(dialog).getByLabelText(/New price/), { target: { value: '250' } });
    fireEvent.change(within(dialog).getByLabelText(/Credit expiry date/), { target: { value: '2028-01-31' } });
    fireEvent.change(within(dialog).getByLabelText(/Airline credit/), { target: { value: '$1,000' } });
    fireEvent.blur(within(dialog).getByLabelText(/Airline credit/));
    expect(within(dialog).getByLabelText(/Airline credit/)).toHaveValue('1,000.00');
    fireEvent.change(within(dialog).getByLabelText(/Airline credit/), { target: { value: '40' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Rebooking' }));

    const expiry = within(dialog).getByLabelText(/Credit expiry date/);
    await waitFor(() => expect(expiry).toHaveAccessibleErrorMessage(message));
    expect(expiry).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(expiry).toHaveFocus());
    expect(within(dialog).getByLabelText(/Airline credit/)).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('dialog', { name: 'Rebook at Lower Price' })).toBeInTheDocument();
  });

  it('stops monitoring a flight once confirmed, toasts, and refreshes the flights and stats', async () => {
    const flight = buildFlight({ airline: 'Delta Air Lines', flightNumber: 'DL1234' });
    const api = renderCard(flight, { [`DELETE /api/flights/${flight.id}`]: { body: { message: 'Flight removed.' } } });
    api.queryClient.setQueryData(flightKeys.list(), [flight]);
    api.queryClient.setQueryData(flightKeys.stats(), { monitoredFlights: 1 });

    fireEvent.click(screen.getByRole('button', { name: 'Stop monitoring' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Stop monitoring this flight?' });
    expect(dialog).toHaveAccessibleDescription(/FareBack stops checking its price/);
    expect(dialog).toHaveAccessibleDescription(/Any rebooking, airline credit and billing records for it are kept\./);
    expect(within(dialog).getByText(/Delta Air Lines DL1234 · JFK → LAX, Mar 14, 2027/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.calls(`DELETE /api/flights/${flight.id}`)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Stop monitoring' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Stop monitoring this flight?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop monitoring' }));
    expect(await screen.findByText('Monitoring stopped')).toBeInTheDocument();
    expect(screen.getByText('Delta Air Lines DL1234 is no longer monitored.')).toBeInTheDocument();
    expect(api.calls(`DELETE /api/flights/${flight.id}`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(api.queryClient.getQueryState(flightKeys.list())?.isInvalidated).toBe(true));
    expect(api.queryClient.getQueryState(flightKeys.stats())?.isInvalidated).toBe(true);
  });

  it('offers no Stop monitoring on a rebooked flight, which History keeps with its credit', () => {
    renderCard(buildFlight({ hasBeenRebooked: true, status: 'rebooked', rebookingPrice: 30000, airlineCredit: 5000 }));
    expect(screen.queryByRole('button', { name: 'Stop monitoring' })).not.toBeInTheDocument();
  });
});

describe('FlightCard: what the booking did not state', () => {
  it('says the cabin was not stated and shows the party only when known', () => {
    renderCard(buildFlight({ cabinClass: null, passengerCount: null }));
    expect(within(card()).getByText('Not stated')).toBeInTheDocument();
    expect(within(card()).queryByText('Travellers')).not.toBeInTheDocument();
  });

  it('shows how many travel on the booking', () => {
    renderCard(buildFlight({ passengerCount: 3 }));
    expect(within(card()).getByText('Travellers')).toBeInTheDocument();
    expect(within(card()).getByText('3')).toBeInTheDocument();
  });
});

describe('FlightCard: one story per state', () => {
  const checkNow = () => within(card()).getByRole('button', { name: 'Check Now' });

  it.each([
    ['cancelled', { status: 'cancelled' as const }, 'Cancelled by airline', 'red', /airline cancelled this flight/],
    ['departed', { status: 'departed' as const }, 'Departed', 'gray', /has departed/],
    ['departed', { departureDate: '2027-03-01' }, 'Departed', 'gray', /has departed/],
    ['rebooking', { status: 'rebooking' as const }, 'Rebooking in progress', 'blue', /rebooking this flight now/],
    ['awaiting_approval', { awaitingApproval: true }, 'Awaiting your approval', 'purple', /waiting for your approval/],
  ])('%s: its own badge and border, Check Now off with the reason', (kind, over, badge, tone, reason) => {
    renderCard(buildFlight({ fareType: 'Basic Economy', isEligibleForRebooking: false, ...over }));
    expect(card()).toHaveAttribute('data-state', kind);
    expect(card()).toHaveAttribute('data-border-tone', tone);
    expect(within(card()).getByText(badge)).toBeInTheDocument();
    expect(within(card()).queryByText('Limited Monitoring')).not.toBeInTheDocument();
    expect(checkNow()).toBeDisabled();
    expect(checkNow()).toHaveAccessibleDescription(reason);
    expect(within(card()).getByText(reason)).toBeVisible();
    expect(within(card()).queryByRole('button', { name: 'No Price Drop' })).not.toBeInTheDocument();
  });

  it('offers no rebooking on a cancelled flight with a drop, and no Missed Opportunity', () => {
    renderCard(
      buildFlight({ status: 'cancelled', originalPrice: 40000, currentPrice: 30000, isEligibleForRebooking: true }),
    );
    expect(within(card()).queryByRole('button', { name: 'Rebook at Lower Price' })).not.toBeInTheDocument();
    expect(within(card()).queryByText('Missed Opportunity')).not.toBeInTheDocument();
    expect(within(card()).queryByTestId('net-savings')).not.toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Stop monitoring' })).toBeEnabled();
  });

  it('cannot be removed while it is being rebooked, and says why', () => {
    const flight = buildFlight({ status: 'rebooking' });
    const api = renderCard(flight);
    const stop = within(card()).getByRole('button', { name: 'Stop monitoring' });
    expect(stop).toBeDisabled();
    expect(stop).toHaveAccessibleDescription(/rebooking this flight now/);
    fireEvent.click(stop);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.calls(`DELETE /api/flights/${flight.id}`)).toHaveLength(0);
  });

  it('badges a 20% drop on Basic Economy as a fare that cannot be changed, not as below the threshold', () => {
    renderCard(
      buildFlight({
        status: 'price_drop',
        fareType: 'Basic Economy',
        isEligibleForRebooking: false,
        originalPrice: 45500,
        currentPrice: 36400,
        rebookingVerdict: {
          netSavings: 9100,
          changePenalty: null,
          refundForm: 'credit',
          qualifies: false,
          international: false,
          minNetSavings: 5000,
          reason: 'Saves $91.00 (20.0%) as airline credit if changed, but this fare cannot be changed automatically.',
          rebookingMode: 'none',
          rule: buildAppliedRule({
            explanation: 'Delta Basic Economy: cannot be changed',
            changeAllowed: false,
            changeFee: null,
            refundForm: 'none',
            creditValidMonths: null,
          }),
        },
        rebookingMode: 'none',
      }),
    );
    const net = within(card()).getByTestId('net-savings');
    expect(within(net).getByText('Fare cannot be changed')).toBeInTheDocument();
    expect(within(card()).queryByText('Below your rebooking threshold')).not.toBeInTheDocument();
  });

  it('says FareBack rebooks on its own only with automatic rebooking on', () => {
    renderCard(buildFlight(), {}, false, true);
    expect(within(card()).getByText('FareBack rebooks this for you')).toBeInTheDocument();
  });
});
