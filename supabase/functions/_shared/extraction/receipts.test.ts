// Plain-text receipts in Swedish, Dutch and Italian, receipts whose whole itinerary sits on one
// very long line, and European low-cost carriers' passenger receipts.
import { describe, expect, it } from './testing/harness.ts';
import { extractText } from './testing/extract.ts';

describe('receipts in Swedish, Dutch and Italian', () => {
  it('reads a Swedish receipt', async () => {
    const text = [
      'Tack för din bokning!',
      'Bokningsnummer: KV7TQM',
      'Resenär: Arvid Lindqvist',
      'Utresa: torsdag 14 oktober 2027',
      'SK 1417  Avgång Köpenhamn (CPH) kl. 08.05  Ankomst Stockholm Arlanda (ARN) kl. 09.15',
      'Klass: Ekonomi  Sittplats: 14C',
      'Totalt pris: 2 184 SEK',
    ].join('\n');
    const booking = (await extractText('SAS <no-reply@flysas.com>', text, 'Din bokningsbekräftelse')).bookings[0];
    expect(booking).toMatchObject({
      bookingCode: 'KV7TQM',
      passengers: ['Arvid Lindqvist'],
      totalPrice: { amountCents: 218400, currency: 'SEK' },
    });
    expect(booking?.segments[0]).toMatchObject({
      flightNumber: 'SK 1417',
      departureAirport: 'CPH',
      arrivalAirport: 'ARN',
      departureTime: '2027-10-14T08:05:00+02:00',
      arrivalTime: '2027-10-14T09:15:00+02:00',
      cabinClass: 'Economy',
      seatNumber: '14C',
    });
  });

  it('reads a Dutch receipt', async () => {
    const text = [
      'Uw boeking is bevestigd.',
      'Boekingscode: R7JTWC',
      'Passagier: Femke Doornbos',
      'Vertrek: zondag 21 maart 2027',
      'Vlucht KL 1145 | Amsterdam (AMS) 18.35 uur | Oslo (OSL) 20.20 uur',
      'Stoel: 23A',
      'Totaalprijs: € 189,40',
    ].join('\n');
    const booking = (await extractText('KLM <noreply@klm.com>', text, 'Uw boekingsbevestiging')).bookings[0];
    expect(booking).toMatchObject({
      bookingCode: 'R7JTWC',
      passengers: ['Femke Doornbos'],
      totalPrice: { amountCents: 18940, currency: 'EUR' },
    });
    expect(booking?.segments[0]).toMatchObject({
      flightNumber: 'KL 1145',
      departureTime: '2027-03-21T18:35:00+01:00',
      arrivalTime: '2027-03-21T20:20:00+01:00',
      seatNumber: '23A',
    });
  });

  it('reads an Italian receipt', async () => {
    const text = [
      'Grazie per aver scelto di volare con noi.',
      'Codice di prenotazione: P4XWQZ',
      'Passeggero: Giulia Bianchi',
      'Volo AZ 1783 - domenica 21 marzo 2027',
      'Partenza: Roma Fiumicino (FCO) ore 07.05',
      'Arrivo: Milano Linate (LIN) ore 08.15',
      'Classe: Economy  Posto: 12F',
      'Importo totale: 129,90 EUR',
    ].join('\n');
    const booking = (await extractText('ITA Airways <noreply@ita-airways.com>', text, 'Conferma prenotazione'))
      .bookings[0];
    expect(booking).toMatchObject({
      bookingCode: 'P4XWQZ',
      passengers: ['Giulia Bianchi'],
      totalPrice: { amountCents: 12990, currency: 'EUR' },
    });
    expect(booking?.segments[0]).toMatchObject({
      flightNumber: 'AZ 1783',
      departureAirport: 'FCO',
      arrivalAirport: 'LIN',
      departureTime: '2027-03-21T07:05:00+01:00',
      arrivalTime: '2027-03-21T08:15:00+01:00',
      seatNumber: '12F',
    });
  });
});

describe('a whole itinerary on one line', () => {
  it('reads the legs, code, traveller and total of a receipt with no line breaks', async () => {
    const text = [
      'Booking confirmation Date of issue: 02 March 2027 Booking reference: QX7PLM Passenger: Mr John Example',
      'Flight 1: LH 1166 Mon 14 Jun 2027 Frankfurt (FRA) 10:05 Lisbon (LIS) 12:15 Economy Seat 21C',
      'Flight 2: LH 1173 Sun 20 Jun 2027 Lisbon (LIS) 13:05 Frankfurt (FRA) 17:10 Economy Seat 19A',
      'Total price: EUR 312.40 Thank you for flying with us.',
    ].join(' ');
    const booking = (await extractText('Lufthansa <online@booking-lufthansa.com>', text, 'Your booking confirmation'))
      .bookings[0];
    expect(booking).toMatchObject({
      bookingCode: 'QX7PLM',
      passengers: ['John Example'],
      totalPrice: { amountCents: 31240, currency: 'EUR' },
      isRoundTrip: true,
    });
    expect(booking?.segments.map((s) => [s.flightNumber, s.departureTime, s.seatNumber])).toEqual([
      ['LH 1166', '2027-06-14T10:05:00+02:00', '21C'],
      ['LH 1173', '2027-06-20T13:05:00+01:00', '19A'],
    ]);
  });
});

describe('dates without a year', () => {
  it("reads 'Do, 21.03.' against the date the email was sent", async () => {
    const text = [
      'Ihre Buchung ist bestätigt. Buchungscode: QZP4TW',
      'Reisende: Frau Mina Solberg',
      'Hinflug Do, 21.03.  LH 180  Frankfurt/Main 07:05 Uhr - Berlin-Tegel 08:10 Uhr',
    ].join('\n');
    const result = await extractText(
      'Lufthansa <online@booking-lufthansa.com>',
      text,
      'Buchungsbestätigung',
      'Sat, 02 Mar 2019 10:00:00 +0100',
    );
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'LH 180',
      departureAirport: 'FRA',
      arrivalAirport: 'TXL',
      departureTime: '2019-03-21T07:05:00+01:00',
      arrivalTime: '2019-03-21T08:10:00+01:00',
    });
  });
});

describe("a low-cost carrier's passenger receipt", () => {
  // Day.month.year dates, each flight on a 'Flight:' line with its booking class in brackets,
  // 'Departure:'/'Arrival:' lines naming the airport by its city and its own name.
  const receipt = (legs: string[]) =>
    [
      'PASSENGER RECEIPT',
      'Reservation code: QK4TZW',
      'Date of booking: 14.01.2027',
      'Passenger: Mr Tomas Varga',
      '',
      ...legs,
      '',
      'Fare: Basic',
      'Total paid: 148.90 EUR',
    ].join('\n');

  it('reads every flight, the airports named by city and airport, and no cabin', async () => {
    const text = receipt([
      'Flight: W6 2201 (R)',
      'Departure: Budapest, Budapest Ferenc Liszt International Airport  18.03.2027 06:15',
      'Arrival: London, London Luton Airport  18.03.2027 07:55',
      'Flight: W6 2202 (R)',
      'Departure: London, London Luton Airport  22.03.2027 08:45',
      'Arrival: Budapest, Budapest Ferenc Liszt International Airport  22.03.2027 12:20',
    ]);
    const booking = (await extractText('Wizz Air <noreply@wizzair.com>', text, 'Passenger receipt')).bookings[0];
    expect(booking).toMatchObject({
      bookingCode: 'QK4TZW',
      passengers: ['Tomas Varga'],
      passengerCount: 1,
      fareType: 'Basic',
      totalPrice: { amountCents: 14890, currency: 'EUR' },
      isRoundTrip: true,
    });
    expect(booking?.segments).toEqual([
      {
        flightNumber: 'W6 2201',
        departureAirport: 'BUD',
        arrivalAirport: 'LTN',
        departureTime: '2027-03-18T06:15:00+01:00',
        arrivalTime: '2027-03-18T07:55:00+00:00',
        cabinClass: null,
        seatNumber: null,
      },
      {
        flightNumber: 'W6 2202',
        departureAirport: 'LTN',
        arrivalAirport: 'BUD',
        departureTime: '2027-03-22T08:45:00+00:00',
        arrivalTime: '2027-03-22T12:20:00+01:00',
        cabinClass: null,
        seatNumber: null,
      },
    ]);
  }, 30_000); // the first test builds the index of airport names

  it('reads the airport before its city, and the date and time on the line below the place', async () => {
    const before = receipt([
      'Flight: W6 2201 (R)',
      'Departure: Budapest Liszt Ferenc International (Budapest) 18.03.2027 06:15',
      'Arrival: London Luton (London) 18.03.2027 07:55',
    ]);
    const below = receipt([
      'Flight: W6 2201 [R]',
      'Departure: Budapest, Budapest Ferenc Liszt International Airport',
      '18.03.27 06:15',
      'Arrival: London, London Luton Airport',
      '18.03.27 07:55',
    ]);
    for (const text of [before, below]) {
      const booking = (await extractText('Wizz Air <noreply@wizzair.com>', text, 'Passenger receipt')).bookings[0];
      expect(booking?.segments).toMatchObject([
        {
          flightNumber: 'W6 2201',
          departureAirport: 'BUD',
          arrivalAirport: 'LTN',
          departureTime: '2027-03-18T06:15:00+01:00',
          arrivalTime: '2027-03-18T07:55:00+00:00',
        },
      ]);
    }
  });

  it('reads a receipt from a carrier the engine does not know, time before place', async () => {
    const text = [
      'Passenger receipt',
      'Reservation code  2KXQ9D',
      'Passenger         Mr Joris van Dijk',
      'Flight: HV 5131 [O]',
      'Date: 03.06.2027',
      'Departure: 06:50 Amsterdam, Schiphol Airport',
      'Arrival: 09:15 Lisbon, Humberto Delgado Airport',
    ].join('\n');
    const booking = (await extractText('Transavia <noreply@transavia.com>', text, 'Your passenger receipt'))
      .bookings[0];
    expect(booking).toMatchObject({ bookingCode: '2KXQ9D', passengers: ['Joris van Dijk'] });
    expect(booking?.segments).toMatchObject([
      {
        flightNumber: 'HV 5131',
        departureAirport: 'AMS',
        arrivalAirport: 'LIS',
        departureTime: '2027-06-03T06:50:00+02:00',
        arrivalTime: '2027-06-03T09:15:00+01:00',
        cabinClass: null,
      },
    ]);
  });
});
