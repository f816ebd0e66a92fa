// Mail that names flights, codes and prices but is no booking (any more): cancelled and
// unpurchased trips, sales, price alerts, check-in reminders and other mail about a booked trip,
// services around a flight (lounge, parking, insurance) and offers in marketing mail.
import { describe, expect, it } from './testing/harness.ts';
import { plainConfirmation } from './testing/email-factory.ts';
import { extractText } from './testing/extract.ts';

const itinerary = [
  'Record locator: ZLQWTN',
  'Fri, Sep 17, 2027 | AA 1087 | Dallas/Fort Worth (DFW) 8:15 AM | Miami (MIA) 11:55 AM',
  'Passenger: CORDELIA NWACHUKWU',
];

describe('trips that are no longer (or not yet) bookings', () => {
  it('treats a full cancellation as not a booking', async () => {
    const result = await extractText(
      'American Airlines <no-reply@info.email.aa.com>',
      ['Your trip has been canceled', ...itinerary, 'Refund amount: $402.80'].join('\n'),
    );
    expect(result).toEqual({ isFlightBooking: false, bookings: [] });
  });

  it('treats an abandoned cart with a reference as not a booking', async () => {
    const result = await extractText(
      'United <United@news.united.com>',
      ['Your itinerary is on hold, but it is not booked yet.', ...itinerary].join('\n'),
      'Complete your booking',
    );
    expect(result.isFlightBooking).toBe(false);
  });

  it('keeps a confirmation whose fine print speaks of cancellation', async () => {
    const result = await extractText(
      'American Airlines <no-reply@info.email.aa.com>',
      [
        ...itinerary,
        'If your booking was cancelled within 24 hours, you receive a full refund.',
        'Seat assignments are not guaranteed until check-in.',
      ].join('\n'),
    );
    expect(result.bookings[0]?.bookingCode).toBe('ZLQWTN');
  });

  it('keeps a cancelled flight that was replaced', async () => {
    const result = await extractText(
      'American Airlines <no-reply@info.email.aa.com>',
      [
        'Your flight has been canceled and your trip was cancelled in part',
        'Record locator: RWQZ7B',
        'Your new flight',
        'Tue, Mar 9, 2027 | AA 2210 | Dallas/Fort Worth (DFW) 2:05 PM | Miami (MIA) 5:55 PM',
        'Passenger: TOBIN MARCHETTI',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments.map((segment) => segment.flightNumber)).toEqual(['AA 2210']);
  });
});

describe('sales, price alerts and check-in reminders', () => {
  const reminder = [
    'Check-in is now open',
    'Booking code: R7JTWC',
    'KL 1145  Amsterdam (AMS) 22 Oct 2027 18:35 - Oslo (OSL) 20:20',
  ].join('\n');

  it('rejects check-in reminders, sales and price alerts by their subject', async () => {
    for (const subject of [
      'Check in now for your flight to Oslo',
      'Spring sale: Europe from EUR 99',
      'Prices dropped for New York to Lisbon',
    ]) {
      expect((await extractText('KLM <noreply@klm.com>', reminder, subject)).isFlightBooking).toBe(false);
    }
  });

  it('still reads a confirmation whose subject also names check-in', async () => {
    const result = await extractText('KLM <noreply@klm.com>', reminder, 'Booking confirmation R7JTWC - check in now');
    expect(result.bookings[0]?.bookingCode).toBe('R7JTWC');
  });

  it('are not bookings when nothing in them confirms or prices a trip', async () => {
    const text = [
      'Check-in is now open',
      'Booking code: R7JTWC',
      'KL 1145  Amsterdam (AMS) 22 Oct 2027 18:35 - Oslo (OSL) 20:20',
    ];
    const from = 'KLM <noreply@klm.com>';
    expect((await extractText(from, text.join('\n'), 'Your flight to Oslo')).isFlightBooking).toBe(false);
    const confirmed = [...text, 'Your booking is confirmed.'].join('\n');
    expect((await extractText(from, confirmed, 'Your flight to Oslo')).isFlightBooking).toBe(true);
  });
});

describe('mail about a booked trip', () => {
  it('is not a booking: reminders, upsells and surveys', async () => {
    const text = ['Booking reference: QX7PLM', 'LH 1166 Frankfurt (FRA) 14 Jun 2027 10:05 - Lisbon (LIS) 12:15'].join(
      '\n',
    );
    const from = 'Lufthansa <online@booking-lufthansa.com>';
    for (const subject of [
      'Your trip to Lisbon is coming up',
      'How was your flight to Lisbon?',
      'Complete your trip: add a hotel in Lisbon',
    ]) {
      expect((await extractText(from, text, subject)).isFlightBooking).toBe(false);
    }
    expect((await extractText(from, text, 'Your upgrade to Business is confirmed')).isFlightBooking).toBe(true);
  });
});

describe('services around a flight', () => {
  it('does not read a lounge, parking or insurance reference as a record locator', async () => {
    for (const label of ['Lounge booking reference', 'Parking booking reference', 'Insurance reference number']) {
      const text = plainConfirmation({ label, passenger: '', total: 'GBP 39.00' });
      expect((await extractText('Bookings <bookings@services.example>', text)).isFlightBooking).toBe(false);
    }
  });

  it('rejects lounge, parking and insurance mail by its subject', async () => {
    for (const subject of [
      'Lounge booking confirmed: QX7PLM',
      'Your parking booking QX7PLM',
      'Your travel insurance policy',
    ]) {
      const text = plainConfirmation({ total: 'GBP 39.00' });
      expect((await extractText('Bookings <bookings@services.example>', text, subject)).isFlightBooking).toBe(false);
    }
  });

  it('still reads an airline confirmation', async () => {
    const text = plainConfirmation({ total: 'GBP 439.00' });
    expect(
      (await extractText('British Airways <BA@contact.ba.com>', text, 'Your booking confirmation')).isFlightBooking,
    ).toBe(true);
  });
});

describe('offers and marketing', () => {
  it('rejects German and French sale subjects', async () => {
    const text = plainConfirmation({ label: 'Buchungscode', passenger: '' });
    for (const subject of ['Mallorca ab 49,99 € – jetzt sparen', 'Nice dès 39 € : nos offres']) {
      expect((await extractText('Eurowings <newsletter@mailing.eurowings.com>', text, subject)).isFlightBooking).toBe(
        false,
      );
    }
  });

  it('treats a travellerless booking in marketing mail as an offer', async () => {
    const text = `${plainConfirmation({ label: 'Buchungscode', code: 'SOMMER', passenger: '' })}\nAbmelden`;
    expect((await extractText('Eurowings <newsletter@mailing.eurowings.com>', text)).isFlightBooking).toBe(false);
    const booked = `${plainConfirmation({ total: 'EUR 99.00' })}\nUnsubscribe from marketing mail`;
    expect((await extractText('Eurowings <noreply@eurowings.com>', booked)).isFlightBooking).toBe(true);
  });
});
