// Plain-text receipts in Swedish, Dutch and Italian, and receipts whose whole itinerary sits on
// one very long line.
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
