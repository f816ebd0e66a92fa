import { describe, expect, it } from './testing/harness.ts';
import { parseHtml } from './html.ts';
import { extractSchemaOrg } from './schema-org.ts';
import { loadAirportNames } from './airport-names.ts';

const flight = (number: string, from: string, to: string, departure: string, arrival: string) => ({
  '@type': 'Flight',
  flightNumber: number,
  airline: { '@type': 'Airline', name: 'Example Air', iataCode: 'KL' },
  departureAirport: { '@type': 'Airport', iataCode: from },
  arrivalAirport: { '@type': 'Airport', iataCode: to },
  departureTime: departure,
  arrivalTime: arrival,
});

const jsonLd = (value: unknown) =>
  `<html><body><script type="application/ld+json">${JSON.stringify(value)}</script></body></html>`;

describe('extractSchemaOrg', () => {
  it('groups per-passenger reservations sharing a number into one booking', () => {
    const outbound = flight('643', 'AMS', 'JFK', '2027-05-06T10:25:00+02:00', '2027-05-06T13:00:00-04:00');
    const reservations = ['Femke Doornbos', 'Pieter Doornbos'].map((name, i) => ({
      '@context': 'http://schema.org',
      '@type': 'FlightReservation',
      reservationNumber: 'W4KTRX',
      underName: { '@type': 'Person', name },
      reservationFor: [outbound],
      airplaneSeat: i === 0 ? '32A' : '32B',
      airplaneSeatClass: { '@type': 'AirplaneSeatClass', name: 'Economy' },
    }));
    const [booking, ...rest] = extractSchemaOrg(parseHtml(jsonLd(reservations)));
    expect(rest).toEqual([]);
    expect(booking?.bookingCode).toBe('W4KTRX');
    expect(booking?.passengers).toEqual(['Femke Doornbos', 'Pieter Doornbos']);
    expect(booking?.segments).toHaveLength(1);
    expect(booking?.segments[0]).toMatchObject({
      carrier: 'KL',
      number: '643',
      seatNumber: '32A',
      cabinClass: 'Economy',
    });
    expect(booking?.segments[0]?.departureUtc).toBe(Date.parse('2027-05-06T08:25:00Z'));
  });

  it('reads @graph, carrier-prefixed numbers, local times and PriceSpecification totals', () => {
    const html = jsonLd({
      '@graph': [
        {
          '@type': 'FlightReservation',
          reservationNumber: 'T8MVZP',
          underName: 'Imogen Thwaite',
          reservationFor: {
            ...flight('QF0415', 'SYD', 'MEL', '2027-06-10T09:00:00', '2027-06-10T10:35:00'),
            airline: undefined,
          },
          totalPrice: { '@type': 'PriceSpecification', price: '219.00', priceCurrency: 'AUD' },
        },
      ],
    });
    const [booking] = extractSchemaOrg(parseHtml(html));
    expect(booking?.segments[0]).toMatchObject({ carrier: 'QF', number: '415', departureUtc: null });
    expect(booking?.segments[0]?.departureLocal).toEqual({ year: 2027, month: 6, day: 10, hour: 9, minute: 0 });
    expect(booking?.totalPrice).toEqual({ amountCents: 21900, currency: 'AUD' });
  });

  it('reads microdata on meta tags and on visible elements', () => {
    const html = `
      <div itemscope itemtype="http://schema.org/FlightReservation">
        Booking reference: <span itemprop="reservationNumber">RJ8WBE</span>
        <span itemprop="underName" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Brennan Okafor</span></span>
        <div itemprop="reservationFor" itemscope itemtype="http://schema.org/Flight">
          <span itemprop="airline" itemscope itemtype="http://schema.org/Airline"><meta itemprop="iataCode" content="WS"/></span>
          <span itemprop="flightNumber">117</span>
          <time itemprop="departureTime" datetime="2027-08-19T07:00:00-06:00">Thu</time>
          <span itemprop="departureAirport" itemscope itemtype="http://schema.org/Airport"><span itemprop="iataCode">YYC</span></span>
          <time itemprop="arrivalTime" datetime="2027-08-19T07:30:00-07:00">07:30</time>
          <span itemprop="arrivalAirport" itemscope itemtype="http://schema.org/Airport"><span itemprop="iataCode">YVR</span></span>
        </div>
        <meta itemprop="airplaneSeat" content="9D"/>
      </div>`;
    const [booking] = extractSchemaOrg(parseHtml(html));
    expect(booking?.passengers).toEqual(['Brennan Okafor']);
    expect(booking?.segments[0]).toMatchObject({
      carrier: 'WS',
      number: '117',
      departureAirport: 'YYC',
      arrivalAirport: 'YVR',
      seatNumber: '9D',
    });
  });

  it('ignores broken JSON, other types and cancelled reservations', () => {
    const html =
      '<script type="application/ld+json">{ broken</script>' +
      jsonLd({ '@type': 'LodgingReservation', reservationNumber: 'HOTEL1' }) +
      jsonLd({
        '@type': 'FlightReservation',
        reservationNumber: 'ABC123',
        reservationStatus: 'http://schema.org/ReservationCancelled',
        reservationFor: flight('1', 'JFK', 'LAX', '2027-01-01T08:00:00-05:00', '2027-01-01T11:00:00-08:00'),
      });
    expect(extractSchemaOrg(parseHtml(html))).toEqual([]);
  });
});

describe('JSON-LD that a strict parser refuses', () => {
  const reservation = (name: string, seat: string) =>
    `{
      "@context": "http://schema.org",
      "@type": "FlightReservation",
      "reservationNumber": "R8QWTZ",
      "underName": { "@type": "Person", "name": "${name}" },
      "airplaneSeat": "${seat}",
      "reservationFor": {
        "@type": "Flight",
        "flightNumber": "BA0117",
        "airline": { "@type": "Airline", "iataCode": "BA", },
        "departureAirport": { "@type": "Airport", "iataCode": "LHR" },
        "arrivalAirport": { "@type": "Airport", "iataCode": "JFK" },
        "departureTime": "09-14-2027 08:25",
        "arrivalTime": "09-14-2027T11:15:00",
      },
    }`;

  it('repairs a missing comma between objects and trailing commas, and reads MM-DD-YYYY dates', () => {
    const html = `<script type="application/ld+json">[${reservation('Harriet Pell', '12A')}
      ${reservation('Rupert Pell', '12B')}]</script>`;
    const [booking, ...rest] = extractSchemaOrg(parseHtml(html));
    expect(rest).toEqual([]);
    expect(booking?.passengers).toEqual(['Harriet Pell', 'Rupert Pell']);
    expect(booking?.segments).toHaveLength(1);
    expect(booking?.segments[0]).toMatchObject({
      carrier: 'BA',
      number: '117',
      seatNumber: '12A',
      departureLocal: { year: 2027, month: 9, day: 14, hour: 8, minute: 25 },
      arrivalLocal: { year: 2027, month: 9, day: 14, hour: 11, minute: 15 },
    });
  });

  it('reads a day-first numeric date when the first number cannot be a month', () => {
    const html = `<script type="application/ld+json">${reservation('Harriet Pell', '12A').replace('09-14-2027 08:25', '14-09-2027 8:25 pm')}</script>`;
    const [booking] = extractSchemaOrg(parseHtml(html));
    expect(booking?.segments[0]?.departureLocal).toEqual({ year: 2027, month: 9, day: 14, hour: 20, minute: 25 });
  });
});

describe('airports given by name', () => {
  it('reads an airport without its code from its name or its city', async () => {
    await loadAirportNames();
    const html = jsonLd({
      '@type': 'FlightReservation',
      reservationNumber: 'R8QWTZ',
      underName: 'Harriet Pell',
      reservationFor: {
        ...flight('LH180', 'FRA', 'TXL', '2019-03-21T07:05:00+01:00', '2019-03-21T08:10:00+01:00'),
        departureAirport: { '@type': 'Airport', name: 'Frankfurt Airport' },
        arrivalAirport: { '@type': 'Airport', name: 'Tegel', address: { addressLocality: 'Berlin' } },
      },
    });
    const [booking] = extractSchemaOrg(parseHtml(html));
    expect(booking?.segments[0]).toMatchObject({ departureAirport: 'FRA', arrivalAirport: 'TXL' });
  }, 30_000);
});
