// Places printed as names rather than codes resolve to their airport.
import { describe, expect, it } from './testing/harness.ts';
import { findCityAirports } from './cities.ts';
import { extractText } from './testing/extract.ts';

describe('places printed without airport codes', () => {
  it('maps unambiguous names and skips ambiguous cities', () => {
    expect(findCityAirports('Depart Auckland 8:30am Arrive Sydney 10:05am').map((c) => c.code)).toEqual(['AKL', 'SYD']);
    expect(findCityAirports('London to Paris')).toEqual([]);
    expect(findCityAirports('Tokyo (Narita)').map((c) => c.code)).toEqual(['NRT']);
  });

  it('reads legs named by city in an airline confirmation', async () => {
    const result = await extractText(
      'Air New Zealand <noreply@airnz.co.nz>',
      [
        'Your booking reference is 7QWTLM.',
        'Friday 9 April 2027',
        'NZ103  Depart Auckland 8:30am  Arrive Sydney 10:05am',
        'Passenger: Aroha Tipene',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'NZ 103',
      departureAirport: 'AKL',
      arrivalAirport: 'SYD',
      departureTime: '2027-04-09T08:30:00+12:00',
      arrivalTime: '2027-04-09T10:05:00+10:00',
    });
  });

  it('does not read city names outside an airline sender', async () => {
    const result = await extractText(
      'Hilton <reservations@res.hilton.com>',
      [
        'Confirmation number: 7QWTLM',
        'Friday 9 April 2027',
        'NZ103  Depart Auckland 8:30am  Arrive Sydney 10:05am',
      ].join('\n'),
    );
    expect(result.isFlightBooking).toBe(false);
  });
});
