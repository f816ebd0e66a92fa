// Agency and GDS itineraries (Amadeus, Travelport and Sabre text layouts): one block or line per
// leg with date, carrier and number, city names, times, a booking-class letter and a status code,
// and the airline's own record locator on its own line apart from the agency's reference, or only
// beside the airline's code ('BA/X7KQ2P') when the agency's reference is all digits.
import { describe, expect, it } from './testing/harness.ts';
import { extractText } from './testing/extract.ts';

const AGENCY = 'Sonnenschein Reisen <service@sonnenschein-reisen.example>';

describe('Amadeus itinerary blocks', () => {
  const itinerary = [
    'ELECTRONIC TICKET ITINERARY / RECEIPT',
    'BOOKING REF: 6Y5TKL                                   DATE: 02 MARCH 2019',
    'TRAVELLER: SOLBERG/MINA MS',
    '',
    'FLIGHT     LH 180 - LUFTHANSA                          THU 21 MARCH 2019',
    'DEPARTURE: FRANKFURT, DE (FRANKFURT INTL), TERMINAL 1   21 MAR 07:05',
    'ARRIVAL:   BERLIN, DE (TEGEL)                            21 MAR 08:10',
    'FLIGHT BOOKING REF: LH/QZP4TW',
    'RESERVATION CONFIRMED, ECONOMY (M)',
    'BAGGAGE ALLOWANCE: 1PC',
    '',
    'FLIGHT     LH 191 - LUFTHANSA                          TUE 26 MARCH 2019',
    'DEPARTURE: BERLIN, DE (TEGEL)                            26 MAR 18:30',
    'ARRIVAL:   FRANKFURT, DE (FRANKFURT INTL), TERMINAL 1   26 MAR 19:35',
    'FLIGHT BOOKING REF: LH/QZP4TW',
    'RESERVATION CONFIRMED, ECONOMY (M)',
  ].join('\n');

  it("reads city names with countries and old airport names, and the airline's own locator", async () => {
    const result = await extractText(
      AGENCY,
      itinerary,
      'Itinerary SOLBERG/MINA MS 21MAR2019',
      'Sat, 02 Mar 2019 10:00:00 +0100',
    );
    expect(result.bookings).toHaveLength(1);
    expect(result.bookings[0]).toMatchObject({
      airlineIata: 'LH',
      bookingCode: 'QZP4TW',
      passengers: ['Mina Solberg'],
      isRoundTrip: true,
    });
    expect(result.bookings[0]?.segments).toMatchObject([
      {
        flightNumber: 'LH 180',
        departureAirport: 'FRA',
        arrivalAirport: 'TXL',
        departureTime: '2019-03-21T07:05:00+01:00',
        arrivalTime: '2019-03-21T08:10:00+01:00',
        cabinClass: 'Economy',
      },
      { flightNumber: 'LH 191', departureAirport: 'TXL', arrivalAirport: 'FRA' },
    ]);
  }, 30_000); // the first test builds the index of airport names
});

describe('Travelport and Sabre itinerary rows', () => {
  it("reads a row per leg with city names, class and status, and the 'Airline Ref' line", async () => {
    const text = [
      'Agency Record Locator: 2RT9XK',
      'Airline Ref: SK - KV7TQM',
      'Passenger: LINDQVIST/ARVID MR',
      '',
      'Date      Flight    From                 To                   Depart   Arrive   Class   Status',
      'Thu 14OCT SK 1417   Copenhagen           Stockholm Arlanda    08:05    09:15    Y       HK',
      'Sun 17OCT SK 1426   Stockholm Arlanda    Copenhagen           17:40    18:50    Y       HK',
      '',
      'Total fare: DKK 2,184.00',
    ].join('\n');
    const result = await extractText(AGENCY, text, 'Your flight itinerary', 'Mon, 04 Oct 2027 10:00:00 +0200');
    expect(result.bookings[0]).toMatchObject({ bookingCode: 'KV7TQM', passengers: ['Arvid Lindqvist'] });
    expect(result.bookings[0]?.segments.map((s) => [s.flightNumber, s.departureAirport, s.arrivalAirport])).toEqual([
      ['SK 1417', 'CPH', 'ARN'],
      ['SK 1426', 'ARN', 'CPH'],
    ]);
    expect(result.bookings[0]?.segments[0]?.departureTime).toBe('2027-10-14T08:05:00+02:00');
  });

  it('reads upper-case city names and HHMM times in a Sabre-style row', async () => {
    const text = [
      'RECORD LOCATOR: XWQTNB',
      'AIRLINE BOOKING REFERENCE: AY/M7RTQX',
      'NAME: NIEMINEN/AINO MS',
      'DATE   FLIGHT   CL FROM          TO              DEP   ARR   ST',
      '02NOV  AY1331   Y  HELSINKI      ZURICH          0725  0910  HK1',
    ].join('\n');
    const result = await extractText(AGENCY, text, 'Flight itinerary', 'Mon, 18 Oct 2027 10:00:00 +0300');
    expect(result.bookings[0]).toMatchObject({ bookingCode: 'M7RTQX', passengers: ['Aino Nieminen'] });
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'AY 1331',
      departureAirport: 'HEL',
      arrivalAirport: 'ZRH',
      departureTime: '2027-11-02T07:25:00+02:00',
      arrivalTime: '2027-11-02T09:10:00+01:00',
    });
  });
});

describe('Travelport itinerary blocks', () => {
  it("reads 'From:' and 'To:' places over several lines and the times on the line below", async () => {
    const text = [
      'Reservation Number: 2RT9XK',
      'Traveler: SOLBERG/MINA MS',
      '',
      'Thursday, 21 March 2019',
      'Lufthansa  LH 180',
      'From:    Frankfurt, Germany',
      '         Frankfurt Intl, Terminal 1',
      'To:      Berlin, Germany',
      '         Tegel',
      'Depart:  07:05    Arrive:  08:10',
      'Class: Economy (M)    Status: Confirmed (HK)',
      'Airline Reference: QZP4TW',
    ].join('\n');
    const result = await extractText(AGENCY, text, 'Itinerary for SOLBERG/MINA MS', 'Sat, 02 Mar 2019 10:00:00 +0100');
    expect(result.bookings[0]).toMatchObject({ bookingCode: 'QZP4TW', passengers: ['Mina Solberg'] });
    expect(result.bookings[0]?.segments).toMatchObject([
      {
        flightNumber: 'LH 180',
        departureAirport: 'FRA',
        arrivalAirport: 'TXL',
        departureTime: '2019-03-21T07:05:00+01:00',
        arrivalTime: '2019-03-21T08:10:00+01:00',
      },
    ]);
  });
});

describe("GDS itineraries: the agency's reference all digits, the airline's beside its code", () => {
  it("reads a fixed-width row per leg, 'CITY, CC (AIRPORT NAME)' places and an 'AIRLINE REF' column", async () => {
    const text = [
      'NORDLICHT REISEN GMBH                                   ITINERARY',
      'BOOKING REFERENCE: 40817263                             DATE: 12JAN27',
      'PASSENGERS: HARGREAVES/OLIVIA MRS',
      '            HARGREAVES/PETER MR',
      '',
      'DATE   FLIGHT   FROM                        TO                          DEP   ARR   CL  STATUS  AIRLINE REF',
      '14MAR  BA 432   LONDON, GB (HEATHROW)       AMSTERDAM, NL (SCHIPHOL)    0725  0955  Y   OK      BA/X7KQ2P',
      '21MAR  BA 433   AMSTERDAM, NL (SCHIPHOL)    LONDON, GB (HEATHROW)       1040  1055  Y   OK      BA/X7KQ2P',
      '',
      'TOTAL FARE EUR 412.60',
    ].join('\n');
    const result = await extractText(
      'Nordlicht Reisen <itinerary@nordlicht-reisen.example>',
      text,
      'Itinerary HARGREAVES/OLIVIA MRS 14MAR',
      'Tue, 12 Jan 2027 15:02:11 +0100',
    );
    expect(result.bookings).toHaveLength(1);
    expect(result.bookings[0]).toMatchObject({
      airlineIata: 'BA',
      bookingCode: 'X7KQ2P',
      passengers: ['Olivia Hargreaves', 'Peter Hargreaves'],
      passengerCount: 2,
      isRoundTrip: true,
    });
    expect(result.bookings[0]?.segments).toEqual([
      {
        flightNumber: 'BA 432',
        departureAirport: 'LHR',
        arrivalAirport: 'AMS',
        departureTime: '2027-03-14T07:25:00+00:00',
        arrivalTime: '2027-03-14T09:55:00+01:00',
        // a booking-class letter ('Y') is no cabin
        cabinClass: null,
        seatNumber: null,
      },
      {
        flightNumber: 'BA 433',
        departureAirport: 'AMS',
        arrivalAirport: 'LHR',
        departureTime: '2027-03-21T10:40:00+01:00',
        arrivalTime: '2027-03-21T10:55:00+00:00',
        cabinClass: null,
        seatNumber: null,
      },
    ]);
  });

  it("reads a block per leg with four-digit times after the terminal and the carrier's confirmation", async () => {
    const text = [
      'SUNWAY TRAVEL LTD - TRAVEL ITINERARY',
      'Agency reference: 5520194',
      'Prepared for: MARTINEZ/ELENA MS',
      '-----------------------------------------------------------------',
      'FLIGHT   IB 3166 IBERIA                         DATE: SAT 17APR27',
      '         DEPART:  MADRID, ES (ADOLFO SUAREZ BARAJAS)  T4    0845',
      '         ARRIVE:  PARIS, FR (CHARLES DE GAULLE)       T2    1055',
      '         CLASS: ECONOMY (O)    STATUS: CONFIRMED',
      '         IB CONFIRMATION: IB/ZT4WQM',
    ].join('\n');
    const result = await extractText(
      'Sunway Travel <bookings@sunwaytravel.example>',
      text,
      'Your travel itinerary 5520194',
    );
    expect(result.bookings[0]).toMatchObject({ bookingCode: 'ZT4WQM', passengers: ['Elena Martinez'] });
    expect(result.bookings[0]?.segments).toMatchObject([
      {
        flightNumber: 'IB 3166',
        departureAirport: 'MAD',
        arrivalAirport: 'CDG',
        departureTime: '2027-04-17T08:45:00+02:00',
        arrivalTime: '2027-04-17T10:55:00+02:00',
        cabinClass: 'Economy',
      },
    ]);
  });

  it('reads a flight number after its carrier as no clock time, and a name label without a colon', async () => {
    const text = [
      'POLAR TOURS AS',
      'ITINERARY              RESERVATION NUMBER 7730041',
      'NAME  NIEMINEN/AINO MS',
      '  DATE    FLIGHT   DEPARTURE                         ARRIVAL                          DEP    ARR    REF',
      '  02JUN   AY 1331  HELSINKI, FI (HELSINKI VANTAA)    STOCKHOLM, SE (ARLANDA)          0810   0805   AY*LQX7TN',
    ].join('\n');
    const result = await extractText('Polar Tours <no-reply@polartours.example>', text, 'Itinerary 7730041');
    expect(result.bookings[0]).toMatchObject({ bookingCode: 'LQX7TN', passengers: ['Aino Nieminen'] });
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'AY 1331',
      departureAirport: 'HEL',
      arrivalAirport: 'ARN',
      departureTime: '2027-06-02T08:10:00+03:00',
      arrivalTime: '2027-06-02T08:05:00+02:00',
    });
  });

  it("keeps an airline's labelled code over a partner's locator beside its code", async () => {
    const text = [
      'Booking reference: QX7PLM',
      'Tue, 14 Sep 2027  BA 117  London Heathrow (LHR) 08:25  ->  New York JFK (JFK) 11:15',
      'Operated by: American Airlines  BA/AAL9ZQ',
      'Passenger: Mr John Example',
    ].join('\n');
    const result = await extractText('British Airways <ba@email.ba.com>', text, 'Your booking confirmation');
    expect(result.bookings.map((booking) => booking.bookingCode)).toEqual(['QX7PLM']);
  });
});
