// Calendar attachments: one event per leg, read with ical.js and merged with the body.
import { describe, expect, it } from './testing/harness.ts';
import { parseCalendar } from './calendar.ts';
import { extractParts } from './testing/extract.ts';

const event = (lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];
const calendar = (...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example Air//Itinerary//EN',
    'METHOD:PUBLISH',
    ...events.flat(),
    'END:VCALENDAR',
  ].join('\r\n');

const outbound = event([
  'UID:LH180-20270321@booking.example',
  'DTSTAMP:20270302T090000Z',
  'DTSTART:20270321T060500Z',
  'DTEND:20270321T071000Z',
  'SUMMARY:Flight LH 180 Frankfurt (FRA) - Berlin (BER)',
  'LOCATION:Frankfurt Airport (FRA)\\, Terminal 1',
  'DESCRIPTION:Booking reference: QZP4TW\\nLufthansa LH 180\\nDeparture 07:05\\, arrival 08:10',
]);
const inbound = event([
  'UID:LH191-20270326@booking.example',
  'DTSTAMP:20270302T090000Z',
  'DTSTART;TZID=Europe/Berlin:20270326T183000',
  'DTEND;TZID=Europe/Berlin:20270326T193500',
  'SUMMARY:LH191 BER-FRA',
  'DESCRIPTION:Booking reference: QZP4TW',
]);

const LUFTHANSA = 'Lufthansa <online@booking-lufthansa.com>';
const ics = (content: string) => [{ filename: 'flight.ics', contentType: 'text/calendar', content }];

describe('parseCalendar', () => {
  it('reads each event with its text lines and UTC or zoned times', () => {
    const [first, second] = parseCalendar(calendar(outbound, inbound));
    expect(first?.lines).toContain('Booking reference: QZP4TW');
    expect(first?.start).toEqual({ utcMillis: Date.UTC(2027, 2, 21, 6, 5) });
    expect(second?.start).toEqual({
      local: { year: 2027, month: 3, day: 26, hour: 18, minute: 30 },
      zone: 'Europe/Berlin',
    });
  });

  it('reads nothing from a file that is not a calendar', () => {
    expect(parseCalendar('not a calendar')).toEqual([]);
  });
});

describe('calendar attachments merged with the body', () => {
  it('gives the legs of a body that prints no times', async () => {
    const result = await extractParts({
      from: LUFTHANSA,
      subject: 'Your booking confirmation QZP4TW',
      text: [
        'Thank you for your booking. Your booking code is QZP4TW.',
        'Passenger: Mrs Mina Solberg',
        'Your flights are in the attached calendar file.',
        'Total price: EUR 189.90',
      ].join('\n'),
      attachments: ics(calendar(outbound, inbound)),
    });
    expect(result.bookings[0]).toMatchObject({
      bookingCode: 'QZP4TW',
      passengers: ['Mina Solberg'],
      isRoundTrip: true,
      totalPrice: { amountCents: 18990, currency: 'EUR' },
    });
    expect(result.bookings[0]?.segments.map((s) => [s.flightNumber, s.departureTime, s.arrivalTime])).toEqual([
      ['LH 180', '2027-03-21T07:05:00+01:00', '2027-03-21T08:10:00+01:00'],
      ['LH 191', '2027-03-26T18:30:00+01:00', '2027-03-26T19:35:00+01:00'],
    ]);
  }, 30_000); // the first test builds the index of airport names

  it('adds nothing to a body that already has the legs', async () => {
    const result = await extractParts({
      from: LUFTHANSA,
      subject: 'Your booking confirmation QZP4TW',
      text: [
        'Booking code: QZP4TW',
        'Passenger: Mrs Mina Solberg',
        'Sun 21 Mar 2027  LH 180  Frankfurt (FRA) 07:05 -> Berlin (BER) 08:10  Seat 12A',
      ].join('\n'),
      attachments: ics(calendar(outbound)),
    });
    expect(result.bookings).toHaveLength(1);
    expect(result.bookings[0]?.segments).toHaveLength(1);
    expect(result.bookings[0]?.segments[0]?.seatNumber).toBe('12A');
  });

  it('does not turn a check-in reminder with a calendar file into a booking', async () => {
    const result = await extractParts({
      from: LUFTHANSA,
      subject: 'Check in now for your flight to Berlin',
      text: 'Check-in is now open for your flight LH 180 to Berlin.',
      attachments: ics(calendar(outbound)),
    });
    expect(result.isFlightBooking).toBe(false);
  });
});
