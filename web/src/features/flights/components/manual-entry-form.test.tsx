import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Airline } from '@shared/types/flights.ts';
import { buildFlight, buildUser } from '@/testing/factories';
import { describe, expect, it } from 'vitest';
import { meRoute, mockApi, type MockRoute } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const stats = { monitoredFlights: 0, priceDropsFound: 0, potentialSavings: 0, actualSavings: 0 };

const airline = (code: string, name: string, automaticRebooking: boolean): Airline => ({
  code,
  name,
  automaticRebooking,
  fareBrands: [],
  manageBookingUrl: null,
  flightStatusUrl: null,
});
const AIRLINES = [
  airline('UA', 'United Airlines', true),
  airline('DL', 'Delta Air Lines', true),
  airline('B6', 'JetBlue Airways', true),
  airline('LH', 'Lufthansa', false),
  airline('LX', 'Swiss International Air Lines', false),
];

/** The airline picker: a searchable text field (combobox) whose list comes from GET /api/airlines. */
const airlineField = () => screen.findByRole('combobox', { name: /Airline/ });

/**
 * Types into the picker as a traveller does (it takes typing while it has focus), closes its list
 * (Escape; a click elsewhere does the same in a browser), then moves on to the next field.
 */
async function typeAirline(text: string) {
  const field = await airlineField();
  act(() => field.focus());
  fireEvent.input(field, { target: { value: text } });
  fireEvent.keyDown(field, { key: 'Escape' });
  act(() => screen.getByLabelText(/Passenger Last Name/).focus());
  return field;
}

function openManualEntry(addRoute: MockRoute, flights = [buildFlight({ isWatched: true })], user = buildUser()) {
  const api = mockApi({
    'GET /api/auth/me': meRoute(user),
    'GET /api/flights': { body: { flights } },
    'GET /api/dashboard/stats': { body: stats },
    'GET /api/airlines': { body: { airlines: AIRLINES } },
    'POST /api/flights/manual': addRoute,
  });
  const app = renderApp('/dashboard?tab=add');
  return { api, ...app };
}

describe('Manual Flight Entry', () => {
  it("shows the form's messages and sends nothing until the form is complete", async () => {
    const { api } = openManualEntry({ status: 201, body: {} });
    expect(await screen.findByRole('heading', { name: 'Manual Flight Entry' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('e.g. Smith')).toBeInTheDocument();
    expect(screen.getByText('Last name as it appears on your booking')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('e.g. ABC123')).toBeInTheDocument();
    expect(screen.getByText("We'll use this to retrieve flight details")).toBeInTheDocument();
    expect(screen.getByText(/Only refundable or changeable tickets can be automatically rebooked/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Add Flight' }));
    expect(await screen.findByText('Airline is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Booking confirmation code is required')).toBeInTheDocument();
    expect(await airlineField()).toHaveFocus();
    expect(api.calls('POST /api/flights/manual')).toHaveLength(0);

    await typeAirline('JetBlue Airways');
    await waitFor(() => expect(screen.queryByText('Airline is required')).not.toBeInTheDocument());
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
  });

  it('suggests the airlines FareBack rebooks itself, any airline by name or code, and accepts any text', async () => {
    openManualEntry({ status: 201, body: {} });
    const field = await airlineField();
    expect(field).toHaveAttribute('placeholder', 'Search by airline name or code');
    expect(screen.getByText('Any airline: type its name or two-letter code')).toBeInTheDocument();

    fireEvent.click(field);
    const listbox = await screen.findByRole('listbox');
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['United Airlines (UA)', 'Delta Air Lines (DL)', 'JetBlue Airways (B6)']),
    );

    fireEvent.input(field, { target: { value: 'air lines' } });
    await waitFor(() =>
      expect(
        within(screen.getByRole('listbox'))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Delta Air Lines (DL)', 'Swiss International Air Lines (LX)']),
    );

    fireEvent.input(field, { target: { value: 'lh' } });
    const lufthansa = await within(screen.getByRole('listbox')).findByRole('option', { name: 'Lufthansa (LH)' });
    fireEvent.click(lufthansa);
    await waitFor(() => expect(field).toHaveValue('Lufthansa'));

    fireEvent.input(field, { target: { value: 'Air Nowhere' } });
    expect(await screen.findByText('No matches: what you typed is used as it is')).toBeInTheDocument();
    expect(field).toHaveValue('Air Nowhere');
  });

  it('adds the flight with the code upper-cased, toasts, and shows the Flights tab', async () => {
    const { api, router } = openManualEntry({
      status: 201,
      body: { flight: buildFlight(), message: 'Flight added' },
    });
    await typeAirline('Delta Air Lines');
    fireEvent.change(screen.getByLabelText(/Passenger Last Name/), { target: { value: ' Smith ' } });
    fireEvent.change(screen.getByLabelText(/Booking Confirmation Code/), { target: { value: 'drop42' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Flight' }));

    expect(await screen.findByText('Flight Added')).toBeInTheDocument();
    expect(screen.getByText('Your flight has been added successfully and will now be monitored.')).toBeInTheDocument();
    const [request] = api.calls('POST /api/flights/manual');
    expect(await request?.json()).toEqual({
      airline: 'Delta Air Lines',
      bookingCode: 'DROP42',
      passengerLastName: 'Smith',
    });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('tab', { name: 'Flights' })).toHaveAttribute('aria-selected', 'true');
  });

  it("shows 'Adding Flight...' while busy and the server's message on failure", async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    openManualEntry(() => new Promise((resolve) => (answer = resolve)));
    await typeAirline('United Airlines');
    fireEvent.change(screen.getByLabelText(/Passenger Last Name/), { target: { value: 'Smith' } });
    fireEvent.change(screen.getByLabelText(/Booking Confirmation Code/), { target: { value: 'ABC123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Flight' }));
    expect(await screen.findByText('Adding Flight...')).toBeInTheDocument();

    answer({ status: 409, body: { message: 'The free plan monitors up to 5 flights. Upgrade to Premium.' } });
    expect(await screen.findByText('Error Adding Flight')).toBeInTheDocument();
    expect(screen.getByText('The free plan monitors up to 5 flights. Upgrade to Premium.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Manual Entry' })).toHaveAttribute('aria-selected', 'true');
  });

  it("puts the server's per-field message on its field", async () => {
    const message = 'Last name must be at most 100 characters';
    openManualEntry({
      status: 400,
      body: { message, errors: [{ field: 'passengerLastName', message }] },
    });
    await typeAirline('United Airlines');
    fireEvent.change(screen.getByLabelText(/Passenger Last Name/), { target: { value: 'Smith' } });
    fireEvent.change(screen.getByLabelText(/Booking Confirmation Code/), { target: { value: 'ABC123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Flight' }));

    const lastName = screen.getByLabelText(/Passenger Last Name/);
    await waitFor(() => expect(lastName).toHaveAccessibleErrorMessage(message));
    expect(lastName).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(lastName).toHaveFocus());
    expect(screen.getByText('Error Adding Flight')).toBeInTheDocument();
    expect(screen.getByLabelText(/Booking Confirmation Code/)).not.toHaveAttribute('aria-invalid');

    fireEvent.change(lastName, { target: { value: 'Smyth' } });
    await waitFor(() => expect(lastName).not.toHaveAttribute('aria-invalid'));
  });

  it('falls back to the generic message when the server gives none', async () => {
    openManualEntry({ status: 500 });
    await typeAirline('United Airlines');
    fireEvent.change(screen.getByLabelText(/Passenger Last Name/), { target: { value: 'Smith' } });
    fireEvent.change(screen.getByLabelText(/Booking Confirmation Code/), { target: { value: 'ABC123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Flight' }));
    expect(await screen.findByText('There was an error adding your flight. Please try again.')).toBeInTheDocument();
  });

  it('says up front at 5 of 5 flights how to make room or upgrade, and sends nothing', async () => {
    const full = Array.from({ length: 5 }, (_, i) => buildFlight({ id: i + 1, isWatched: true }));
    const { api, router } = openManualEntry({ status: 201, body: {} }, full);
    expect(await screen.findByText("You're monitoring 5 of 5 flights, your plan's limit.")).toBeInTheDocument();
    expect(screen.getByText(/Remove a flight you no longer need watched to make room/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Remove a flight' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('button', { name: 'Add Flight' })).toBeDisabled();
    expect(api.calls('POST /api/flights/manual')).toHaveLength(0);

    fireEvent.click(screen.getByRole('link', { name: 'Upgrade to Premium' }));
    expect(await screen.findByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
    expect(router.state.location.search).toBe('?tab=plan');
  });

  it('says nothing of a limit below it, nor on an unlimited plan', async () => {
    const five = Array.from({ length: 5 }, (_, i) => buildFlight({ id: i + 1, isWatched: i < 4 }));
    openManualEntry({ status: 201, body: {} }, five);
    expect(await screen.findByRole('button', { name: 'Add Flight' })).toBeEnabled();
    expect(screen.queryByText(/your plan's limit/)).not.toBeInTheDocument();
    cleanup();

    const six = Array.from({ length: 6 }, (_, i) => buildFlight({ id: i + 1, isWatched: true }));
    openManualEntry({ status: 201, body: {} }, six, buildUser({ subscriptionTier: 'premium', flightLimit: -1 }));
    expect(await screen.findByRole('button', { name: 'Add Flight' })).toBeEnabled();
    expect(screen.queryByText(/your plan's limit/)).not.toBeInTheDocument();
  });
});
