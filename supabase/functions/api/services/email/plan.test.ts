import assert from 'node:assert/strict';
import type { FlightBooking } from '../../../_shared/extraction/index.ts';
import { type EmailSender, flightFields, isCancellationSubject, type KnownFlight, planEmail } from './plan.ts';

function booking(overrides: Partial<FlightBooking> = {}): FlightBooking {
  return {
    airline: 'Delta Air Lines',
    airlineIata: 'DL',
    bookingCode: 'GHT4WR',
    passengerLastName: 'Harper',
    passengers: ['Julia Harper', 'Sam Harper'],
    passengerCount: 2,
    segments: [
      {
        flightNumber: 'DL 1287',
        departureAirport: 'ATL',
        arrivalAirport: 'DFW',
        departureTime: '2027-04-14T10:15:00-04:00',
        arrivalTime: '2027-04-14T11:40:00-05:00',
        cabinClass: 'Economy',
        seatNumber: '31B',
      },
      {
        flightNumber: 'DL 88',
        departureAirport: 'DFW',
        arrivalAirport: 'LAX',
        departureTime: '2027-04-14T12:50:00-05:00',
        arrivalTime: '2027-04-14T14:02:00-07:00',
        cabinClass: 'Economy',
        seatNumber: null,
      },
      {
        flightNumber: 'DL 2540',
        departureAirport: 'LAX',
        arrivalAirport: 'ATL',
        departureTime: '2027-04-18T13:30:00-07:00',
        arrivalTime: '2027-04-18T20:51:00-04:00',
        cabinClass: 'Economy',
        seatNumber: '28E',
      },
    ],
    isRoundTrip: true,
    totalPrice: { amountCents: 93780, currency: 'USD' },
    fareType: 'Main Cabin',
    ...overrides,
  };
}

function known(overrides: Partial<KnownFlight> = {}): KnownFlight {
  return {
    id: 7,
    bookingCode: 'GHT4WR',
    flightNumber: 'DL1287',
    departureAirport: 'ATL',
    arrivalAirport: 'LAX',
    departureDate: '2027-04-14',
    returnFlightNumber: 'DL2540',
    returnDate: '2027-04-18',
    status: 'monitoring',
    hasBeenRebooked: false,
    sourceDate: '2026-11-12T14:41:55.000Z',
    senderDomain: 'delta.com',
    ...overrides,
  };
}

const email = (
  subject: string,
  bookings: FlightBooking[],
  text = '',
  date: Date | null = new Date('2026-11-20T00:00:00Z'),
  sender: EmailSender = DELTA,
) => ({
  subject,
  text,
  date,
  bookings,
  sender,
});

const DELTA: EmailSender = { domain: 'delta.com', known: true, forwarded: false };
const OUTSIDER: EmailSender = { domain: 'fly-deals.example', known: false, forwarded: false };

Deno.test(
  'a round trip with a connection: outbound to the far end, the return after the longest stay, the booking total',
  () => {
    const fields = flightFields(booking());
    assert.equal(fields.flightNumber, 'DL1287');
    assert.equal(fields.departureAirport, 'ATL');
    assert.equal(fields.arrivalAirport, 'LAX');
    assert.equal(fields.departureDate, '2027-04-14');
    assert.equal(fields.isRoundTrip, true);
    assert.equal(fields.returnFlightNumber, 'DL2540');
    assert.equal(fields.returnDate, '2027-04-18');
    assert.equal(fields.pricePaid, 93780); // the booking total for the party of two (issue 23)
    assert.equal(fields.currency, 'USD');
  },
);

Deno.test('the party: the count the booking carries and the whole total; past nine or unknown, one share', () => {
  const cases: [Partial<FlightBooking>, number | null, number][] = [
    // [booking, passengerCount stored, pricePaid of 93,780 total]
    [{}, 2, 93780],
    [{ passengerCount: 3 }, 3, 93780],
    [{ passengerCount: null, passengers: [] }, null, 93780],
    [{ passengerCount: 12 }, null, 7815],
  ];
  for (const [overrides, count, price] of cases) {
    const fields = flightFields(booking(overrides));
    assert.equal(fields.passengerCount, count);
    assert.equal(fields.pricePaid, price);
  }
});

Deno.test('a one-way connection arrives where its last leg does; no price is 0', () => {
  const fields = flightFields(
    booking({ isRoundTrip: false, segments: booking().segments.slice(0, 2), totalPrice: null }),
  );
  assert.equal(fields.arrivalAirport, 'LAX');
  assert.equal(fields.isRoundTrip, false);
  assert.equal(fields.returnFlightNumber, null);
  assert.equal(fields.pricePaid, 0);
});

Deno.test(
  'a new code creates; the same itinerary again changes nothing; a different one in a newer email updates',
  () => {
    assert.deepEqual(
      planEmail(email('Your receipt', [booking()]), []).map((a) => a.kind),
      ['create'],
    );
    assert.deepEqual(
      planEmail(email('Your receipt', [booking()]), [known()]).map((a) => a.kind),
      ['unchanged'],
    );
    const changed = booking({
      segments: booking().segments.map((s, i) => (i === 0 ? { ...s, flightNumber: 'DL 1301' } : s)),
    });
    const [update] = planEmail(email('Schedule change', [changed]), [known()]);
    assert.equal(update?.kind, 'update');
    assert.equal(update?.kind === 'update' && update.fields.flightNumber, 'DL1301');
    // an older email than the flight's source changes nothing
    assert.deepEqual(
      planEmail(email('Your receipt', [changed], '', new Date('2026-11-01T00:00:00Z')), [known()]).map((a) => a.kind),
      ['unchanged'],
    );
    // a rebooked flight is never changed by mail
    assert.deepEqual(
      planEmail(email('Schedule change', [changed]), [known({ hasBeenRebooked: true })]).map((a) => a.kind),
      ['unchanged'],
    );
  },
);

Deno.test('a cancellation cancels the known flights whose codes it names, even with no itinerary read', () => {
  const actions = planEmail(
    email('Your flight has been cancelled', [], 'Your reservation ght4wr has been cancelled. Ref XGHT4WRX is not it.'),
    [known(), known({ id: 8, bookingCode: 'ZZZ999' })],
  );
  assert.deepEqual(
    actions.map((a) => [a.kind, a.kind === 'cancel' ? a.flightId : null]),
    [['cancel', 7]],
  );
  assert.deepEqual(planEmail(email('Cancelled', [], 'GHT4WR'), [known({ status: 'cancelled' })]), []);
});

Deno.test('cancellation subjects, not cancellation policies', () => {
  assert.equal(isCancellationSubject('Your flight has been cancelled - QWMBXA'), true);
  assert.equal(isCancellationSubject('Cancellation confirmation for PNR ABC123'), true);
  assert.equal(isCancellationSubject('Add free cancellation to your trip'), false);
  assert.equal(isCancellationSubject('Your booking confirmation'), false);
});

Deno.test(
  "who may create, change and cancel: the known sender, the booking's own domain, the traveller forwarding",
  () => {
    const kinds = (
      sender: EmailSender,
      subject: string,
      bookings: FlightBooking[],
      flights: KnownFlight[],
      text = '',
    ) =>
      planEmail(email(subject, bookings, text, new Date('2026-11-20T00:00:00Z'), sender), flights).map((a) => a.kind);
    const changed = booking({
      segments: booking().segments.map((s, i) => (i === 0 ? { ...s, flightNumber: 'DL 1301' } : s)),
    });
    // a new booking: created from a known sender, held from anyone else (or a failed authentication)
    assert.deepEqual(kinds(DELTA, 'Your receipt', [booking()], []), ['create']);
    assert.deepEqual(kinds(OUTSIDER, 'Your receipt', [booking()], []), ['hold']);
    assert.deepEqual(kinds({ domain: null, known: false, forwarded: false }, 'Your receipt', [booking()], []), [
      'hold',
    ]);
    // forwarded by the traveller: their own act
    assert.deepEqual(kinds({ domain: 'gmail.com', known: false, forwarded: true }, 'Fwd: receipt', [booking()], []), [
      'create',
    ]);
    // a change or cancellation: only from the domain that sent the booking
    assert.deepEqual(kinds(OUTSIDER, 'Schedule change', [changed], [known()]), ['untrusted']);
    assert.deepEqual(kinds(OUTSIDER, 'Your flight has been cancelled', [], [known()], 'GHT4WR'), ['untrusted']);
    assert.deepEqual(
      kinds(
        { domain: 'united.com', known: true, forwarded: false },
        'Your flight has been cancelled',
        [],
        [known()],
        'GHT4WR',
      ),
      ['untrusted'],
    );
    assert.deepEqual(kinds(DELTA, 'Your flight has been cancelled', [], [known()], 'GHT4WR'), ['cancel']);
    // a flight with no sender domain (added by hand): a known airline or agency may change it
    assert.deepEqual(kinds(DELTA, 'Schedule change', [changed], [known({ senderDomain: null })]), ['update']);
    assert.deepEqual(kinds(OUTSIDER, 'Schedule change', [changed], [known({ senderDomain: null })]), ['untrusted']);
    // an outsider repeating the booking as it is changes nothing either way
    assert.deepEqual(kinds(OUTSIDER, 'Your receipt', [booking()], [known()]), ['unchanged']);
  },
);
