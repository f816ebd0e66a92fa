// E-tickets whose legs sit in a fixed-width table, one row per leg, with labels in two languages
// ('Von / From', 'Ab / Dep'): every leg of several connections read, each leg's date and arrival
// from its own row, in plain text and in HTML <pre>; rows naming places without codes under a
// first row with codes.
import { describe, expect, it } from './testing/harness.ts';
import { extractHtml, extractText } from './testing/extract.ts';

const LUFTHANSA = 'Lufthansa <ticket@booking-lufthansa.com>';
const legsOf = (segments: { flightNumber: string; departureTime: string; arrivalTime: string }[] | undefined) =>
  segments?.map((segment) => [segment.flightNumber, segment.departureTime, segment.arrivalTime]);

describe('bilingual e-ticket tables', () => {
  it('reads every leg of the connections, the date and arrival of each from its own row', async () => {
    const text = [
      'ELEKTRONISCHES TICKET / ELECTRONIC TICKET',
      'Name / Name:                  WEBER/ANNA MRS',
      'Buchungscode / Booking code:  4TQ7XZ',
      '',
      'Von / From         Nach / To          Flug / Flight  Datum / Date  Ab / Dep  An / Arr   Klasse / Class',
      'FRANKFURT FRA      MUENCHEN MUC       LH 98          12MAR27       07:15     08:10      ECONOMY (K)',
      'MUENCHEN MUC       SINGAPORE SIN      LH 778         12MAR27       21:55     16:45+1    ECONOMY (K)',
      'SINGAPORE SIN      SYDNEY SYD         SQ 221         13MAR27       20:40     06:25+1    ECONOMY (K)',
      'SYDNEY SYD         SINGAPORE SIN      SQ 222         28MAR27       16:00     22:15      ECONOMY (K)',
      'SINGAPORE SIN      MUENCHEN MUC       LH 779         28MAR27       23:55     06:05+1    ECONOMY (K)',
      'MUENCHEN MUC       FRANKFURT FRA      LH 93          29MAR27       07:30     08:25      ECONOMY (K)',
      '',
      'Tarif / Fare: Economy Classic',
    ].join('\n');
    const booking = (await extractText(LUFTHANSA, text, 'Ihr elektronisches Ticket / Your electronic ticket'))
      .bookings[0];
    expect(booking).toMatchObject({ bookingCode: '4TQ7XZ', passengers: ['Anna Weber'], fareType: 'Economy Classic' });
    expect(legsOf(booking?.segments)).toEqual([
      ['LH 98', '2027-03-12T07:15:00+01:00', '2027-03-12T08:10:00+01:00'],
      ['LH 778', '2027-03-12T21:55:00+01:00', '2027-03-13T16:45:00+08:00'],
      ['SQ 221', '2027-03-13T20:40:00+08:00', '2027-03-14T06:25:00+11:00'],
      ['SQ 222', '2027-03-28T16:00:00+11:00', '2027-03-28T22:15:00+08:00'],
      ['LH 779', '2027-03-28T23:55:00+08:00', '2027-03-29T06:05:00+02:00'],
      ['LH 93', '2027-03-29T07:30:00+02:00', '2027-03-29T08:25:00+02:00'],
    ]);
  });

  it('reads a table in HTML <pre> row by row, rows without codes after a first row with them', async () => {
    const html = [
      '<p>Elektronisches Ticket / Electronic ticket</p>',
      '<p>Buchungscode / Booking reference: PW3KXN</p>',
      '<pre>',
      'Flug/Flight Datum/Date  Von/From              Nach/To                Ab/Dep An/Arr  Klasse/Class',
      'LH 2005     14APR       HAMBURG (HAM)         MUENCHEN (MUC)         06:10  07:25   K',
      'LH 2470     14APR       MUENCHEN              LONDON HEATHROW        09:00  10:05   K',
      'BA 117      14APR       LONDON HEATHROW       NEW YORK JFK           12:25  15:20   K',
      'BA 178      21APR       NEW YORK JFK          LONDON HEATHROW        18:30  06:40+1 K',
      'LH 2473     22APR       LONDON HEATHROW       MUENCHEN               08:30  11:25   K',
      'LH 2064     22APR       MUENCHEN              HAMBURG                12:40  13:50   K',
      '</pre>',
      '<p>Name/Name: HOFFMANN/JULIA MRS</p>',
    ].join('\n');
    const booking = (await extractHtml(LUFTHANSA, html, 'Ihre Reiseunterlagen / Your travel documents')).bookings[0];
    expect(booking).toMatchObject({ bookingCode: 'PW3KXN', passengers: ['Julia Hoffmann'] });
    expect(booking?.segments.map((segment) => [segment.departureAirport, segment.arrivalAirport])).toEqual([
      ['HAM', 'MUC'],
      ['MUC', 'LHR'],
      ['LHR', 'JFK'],
      ['JFK', 'LHR'],
      ['LHR', 'MUC'],
      ['MUC', 'HAM'],
    ]);
    expect(legsOf(booking?.segments)?.[3]).toEqual([
      'BA 178',
      '2027-04-21T18:30:00-04:00',
      '2027-04-22T06:40:00+01:00',
    ]);
  }, 30_000); // builds the index of airport names

  it('reads two header rows, one per language, and connection times between the legs as no leg', async () => {
    const text = [
      'Buchungscode / Booking reference: PW3KXN',
      'Reisende / Passengers: HOFFMANN/JULIA MRS, HOFFMANN/MAX MR',
      'Flug     Datum      Von                  Nach                 Abflug  Ankunft',
      'Flight   Date       From                 To                   Dep     Arr',
      'LH 2005  14.04.2027 Hamburg (HAM)        Muenchen (MUC)       06:10   07:25',
      '         Umsteigezeit / Connection time 1:35',
      'LH 2470  14.04.2027 Muenchen (MUC)       London Heathrow (LHR) 09:00  10:05',
      '         Umsteigezeit / Connection time 2:20',
      'BA 0117  14.04.2027 London Heathrow (LHR) New York JFK (JFK)  12:25   15:20',
    ].join('\n');
    const booking = (await extractText(LUFTHANSA, text, 'Ihre Reiseunterlagen / Your travel documents')).bookings[0];
    expect(booking).toMatchObject({ passengers: ['Julia Hoffmann', 'Max Hoffmann'], passengerCount: 2 });
    expect(legsOf(booking?.segments)).toEqual([
      ['LH 2005', '2027-04-14T06:10:00+02:00', '2027-04-14T07:25:00+02:00'],
      ['LH 2470', '2027-04-14T09:00:00+02:00', '2027-04-14T10:05:00+01:00'],
      ['BA 117', '2027-04-14T12:25:00+01:00', '2027-04-14T15:20:00-04:00'],
    ]);
  });
});

describe('a ticket receipt with cabins per day', () => {
  it("gives each leg its day's cabin, and a seat printed '02A' is 2A", async () => {
    const text = [
      'ELECTRONIC TICKET RECEIPT',
      'CONFIRMATION NUMBER: JTQ9KW',
      'PASSENGER: ASHDOWN/BARTHOLOMEW MR',
      'DATE FLIGHT CLASS FROM TO DEPART ARRIVE SEAT',
      '03OCT27 DL1146 T NEW YORK-KENNEDY JFK SAN FRANCISCO SFO 600A 928A 23B',
      '08OCT27 DL593 A SAN FRANCISCO SFO ATLANTA ATL 1045P 631A+1 02A',
      'CABIN: 03OCT MAIN CABIN / 08OCT FIRST CLASS',
    ].join('\n');
    const booking = (await extractText('Delta Air Lines <DeltaAirLines@t.delta.com>', text, 'Your Flight Receipt'))
      .bookings[0];
    expect(booking?.segments.map((segment) => [segment.flightNumber, segment.cabinClass, segment.seatNumber])).toEqual([
      ['DL 1146', 'Economy', '23B'],
      ['DL 593', 'First', '2A'],
    ]);
  });
});
