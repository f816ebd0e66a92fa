// `npx tsx supabase/functions/_shared/extraction/cli/attachment-samples.ts`: writes the attachment
// corpus (testing/attachments/NN.eml with its NN.json truth): PDF e-tickets and Apple Wallet
// passes built by testing/attachment-factory.ts, alone, together, and joining a body's booking.
// Deterministic: running it again rewrites the same bytes. Every name, code and price is invented;
// the truth is written here from what each sample states, never from the engine's answer.
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bcbp, buildPdf, buildWalletPass, pdfTable, type PdfRow } from '../testing/attachment-factory.ts';
import { buildEmail } from '../testing/email-factory.ts';
import type { ExtractionResult, FlightBooking, FlightSegment } from '../types.ts';

const directory = join(dirname(fileURLToPath(import.meta.url)), '../testing/attachments');

type Attachment = { filename: string; contentType: string; content: Uint8Array | string };
interface Sample {
  from: string;
  subject: string;
  date: string;
  text?: string;
  html?: string;
  attachments: Attachment[];
  truth: ExtractionResult & { notes: string };
}

const pdf = (filename: string, content: Uint8Array): Attachment => ({
  filename,
  contentType: 'application/pdf',
  content,
});
const pass = (filename: string, content: Uint8Array): Attachment => ({
  filename,
  contentType: 'application/vnd.apple.pkpass',
  content,
});

function leg(
  flightNumber: string,
  departureAirport: string,
  arrivalAirport: string,
  departureTime: string,
  arrivalTime: string,
  cabinClass: FlightSegment['cabinClass'],
  seatNumber: string | null,
): FlightSegment {
  return { flightNumber, departureAirport, arrivalAirport, departureTime, arrivalTime, cabinClass, seatNumber };
}

function booking(fields: Omit<FlightBooking, 'passengerLastName' | 'passengerCount' | 'isRoundTrip'>): FlightBooking {
  const first = fields.segments[0];
  const last = fields.segments.at(-1);
  return {
    ...fields,
    passengerLastName: fields.passengers[0]?.split(' ').at(-1) ?? '',
    passengerCount: fields.passengers.length,
    isRoundTrip: fields.segments.length > 1 && first?.departureAirport === last?.arrivalAirport,
  };
}

const label = (name: string, value: string): PdfRow => [
  { x: 40, text: name },
  { x: 170, text: value },
];
const LEG_COLUMNS = [40, 85, 180, 275, 345, 395, 445, 505];
const LEG_HEADER = ['Flight', 'From', 'To', 'Date', 'Departs', 'Arrives', 'Class', 'Seat'];

async function samples(): Promise<Sample[]> {
  // 01: a PDF e-ticket receipt alone; the body only points at it
  const swiss = 'Swiss International Air Lines <noreply@notifications.swiss.com>';
  const swissTicket = await buildPdf([
    [
      'SWISS',
      'Electronic Ticket Receipt / Itinerary',
      label('Booking reference:', 'L7MWQK'),
      label('Passenger:', 'KELLER/ANNA MS'),
      label('Ticket number:', '724 2188034417'),
      label('Date of issue:', '02 Mar 2027'),
      '',
      ...pdfTable(LEG_COLUMNS, [
        LEG_HEADER,
        ['LX 2086', 'Zurich (ZRH)', 'Lisbon (LIS)', '12 Apr 2027', '09:40', '11:25', 'Economy', '17C'],
        ['LX 2087', 'Lisbon (LIS)', 'Zurich (ZRH)', '19 Apr 2027', '12:15', '15:55', 'Economy', '21A'],
      ]),
      '',
      label('Fare:', 'Economy Light'),
      label('Total:', 'CHF 389.00'),
    ],
  ]);

  // 02: an Apple Wallet boarding pass alone, its times in the pass's semantic tags
  const klm = 'KLM Royal Dutch Airlines <noreply@klm.com>';
  const klmPass = await buildWalletPass({
    organizationName: 'KLM',
    barcode: bcbp({
      name: 'BAKKER/JORIS MR',
      code: 'R8TK2M',
      from: 'AMS',
      to: 'CPH',
      carrier: 'KL',
      flight: '1129',
      dayOfYear: 100,
      compartment: 'Y',
      seat: '14C',
      sequence: 47,
    }),
    departure: '2027-04-10T10:10+02:00',
    arrival: '2027-04-10T11:35+02:00',
    fields: {
      headerFields: [{ key: 'flight', label: 'FLIGHT', value: 'KL 1129' }],
      primaryFields: [
        { key: 'origin', label: 'Amsterdam', value: 'AMS' },
        { key: 'destination', label: 'Copenhagen', value: 'CPH' },
      ],
      secondaryFields: [{ key: 'passenger', label: 'PASSENGER', value: 'Joris Bakker' }],
      auxiliaryFields: [{ key: 'seat', label: 'SEAT', value: '14C' }],
    },
  });

  // 03: an e-ticket and a boarding pass in one message; the pass gives the outbound seat
  const iberia = 'Iberia <confirmaciones@iberia.com>';
  const iberiaTicket = await buildPdf([
    [
      'IBERIA',
      'E-ticket receipt',
      label('Booking code:', 'MXR4PT'),
      label('Passenger:', 'MORALES/LUCIA MS'),
      '',
      ...pdfTable(LEG_COLUMNS, [
        LEG_HEADER,
        ['IB 1736', 'Madrid (MAD)', 'Barcelona (BCN)', '15 May 2027', '08:30', '09:50', 'Economy', ''],
        ['IB 1745', 'Barcelona (BCN)', 'Madrid (MAD)', '18 May 2027', '19:00', '20:20', 'Economy', ''],
      ]),
      '',
      label('Total amount:', 'EUR 156.40'),
    ],
  ]);
  const iberiaPass = await buildWalletPass({
    organizationName: 'Iberia',
    barcode: bcbp({
      name: 'MORALES/LUCIA MS',
      code: 'MXR4PT',
      from: 'MAD',
      to: 'BCN',
      carrier: 'IB',
      flight: '1736',
      dayOfYear: 135,
      compartment: 'Y',
      seat: '8A',
      sequence: 12,
    }),
    fields: {
      auxiliaryFields: [
        { key: 'departs', label: 'DEPARTS', value: '08:30' },
        { key: 'arrives', label: 'ARRIVES', value: '09:50' },
      ],
    },
  });

  // 04: the body states the booking; the PDF adds the second traveller and the seats
  const austrian = 'Austrian Airlines <noreply@austrian.com>';
  const austrianBody = [
    'Thank you for booking with Austrian Airlines.',
    '',
    'Booking code: 5TQH9L',
    'Passenger: Mr Lukas Huber',
    '',
    'Thu, 03 Jun 2027  OS 411  Vienna (VIE) 07:10  ->  Paris Charles de Gaulle (CDG) 09:20  Economy',
    'Thu, 10 Jun 2027  OS 412  Paris Charles de Gaulle (CDG) 10:05  ->  Vienna (VIE) 12:10  Economy',
    '',
    'Total: EUR 512.80',
    '',
    'Your e-ticket receipt with all travellers and seats is attached.',
  ].join('\n');
  const austrianTicket = await buildPdf([
    [
      'Austrian Airlines - E-Ticket Receipt',
      label('Booking code:', '5TQH9L'),
      label('Passenger 1:', 'HUBER/LUKAS MR'),
      label('Passenger 2:', 'HUBER/SOPHIE MRS'),
      '',
      ...pdfTable(LEG_COLUMNS, [
        LEG_HEADER,
        ['OS 411', 'Vienna (VIE)', 'Paris (CDG)', '03 Jun 2027', '07:10', '09:20', 'Economy', '12A'],
        ['OS 412', 'Paris (CDG)', 'Vienna (VIE)', '10 Jun 2027', '10:05', '12:10', 'Economy', '20C'],
      ]),
    ],
  ]);

  // 05: two travellers' boarding passes: one booking, the party of two
  const ba = 'British Airways <BA.boardingpass@email.ba.com>';
  const baPass = (name: string, seat: string, sequence: number) =>
    buildWalletPass({
      organizationName: 'British Airways',
      barcode: bcbp({
        name,
        code: 'TJ6WPN',
        from: 'LHR',
        to: 'EDI',
        carrier: 'BA',
        flight: '1434',
        dayOfYear: 183,
        compartment: 'J',
        seat,
        sequence,
      }),
      departure: '2027-07-02T07:20+01:00',
      arrival: '2027-07-02T08:45+01:00',
    });

  // 06: a negative: a hotel invoice PDF with a reservation number, dates and an airport transfer
  const invoice = await buildPdf([
    [
      'Hotel Am Gendarmenmarkt - Invoice',
      label('Reservation number:', '84213377'),
      label('Guest:', 'OKAFOR/CHIDI MR'),
      label('Arrival:', '21 Mar 2027'),
      label('Departure:', '24 Mar 2027'),
      '',
      ...pdfTable(
        [40, 260, 460],
        [
          ['Item', 'Date', 'Amount'],
          ['Superior room, 3 nights', '21 Mar 2027', 'EUR 567.00'],
          ['Airport transfer BER 14:30', '21 Mar 2027', 'EUR 65.00'],
        ],
      ),
      label('Total:', 'EUR 632.00'),
    ],
  ]);

  // 07: forwarded as an attachment: the original message (and its PDF) inside the traveller's
  const eurowingsTicket = await buildPdf([
    [
      'Eurowings',
      'Your itinerary receipt',
      label('Booking code:', 'EW3KQZ'),
      label('Traveller:', 'NOWAK/MARTA MS'),
      '',
      ...pdfTable(LEG_COLUMNS, [
        LEG_HEADER,
        ['EW 9470', 'Cologne (CGN)', 'Palma (PMI)', '07 Aug 2027', '06:20', '08:35', 'Economy', '5F'],
      ]),
      label('Fare:', 'BASIC'),
      label('Total price:', 'EUR 129.99'),
    ],
  ]);
  const eurowingsOriginal = buildEmail({
    from: 'Eurowings <noreply@eurowings.com>',
    to: 'Marta Nowak <marta.nowak@example.net>',
    subject: 'Your Eurowings booking EW3KQZ',
    date: 'Mon, 12 Jul 2027 20:41:00 +0200',
    text: 'Thank you for your booking. Your itinerary receipt is attached.',
    encoding: 'quoted-printable',
    attachments: [pdf('itinerary-EW3KQZ.pdf', eurowingsTicket)],
  });

  return [
    {
      from: swiss,
      subject: 'Your electronic ticket receipt',
      date: 'Tue, 02 Mar 2027 16:12:40 +0100',
      text: 'Dear Ms Keller,\n\nPlease find attached your electronic ticket receipt.\n\nYour SWISS team',
      attachments: [pdf('eticket-L7MWQK.pdf', swissTicket)],
      truth: {
        isFlightBooking: true,
        bookings: [
          booking({
            airline: 'Swiss International Air Lines',
            airlineIata: 'LX',
            bookingCode: 'L7MWQK',
            passengers: ['Anna Keller'],
            segments: [
              leg('LX 2086', 'ZRH', 'LIS', '2027-04-12T09:40:00+02:00', '2027-04-12T11:25:00+01:00', 'Economy', '17C'),
              leg('LX 2087', 'LIS', 'ZRH', '2027-04-19T12:15:00+01:00', '2027-04-19T15:55:00+02:00', 'Economy', '21A'),
            ],
            totalPrice: { amountCents: 38900, currency: 'CHF' },
            fareType: 'Economy Light',
          }),
        ],
        notes: 'The booking is only in the PDF e-ticket: a legs table with a header row, labels beside their values.',
      },
    },
    {
      from: klm,
      subject: 'Your boarding pass for Copenhagen',
      date: 'Fri, 09 Apr 2027 10:05:00 +0200',
      text: 'Dear Mr Bakker,\n\nYou are checked in. Add the attached boarding pass to Apple Wallet.\n\nKLM',
      attachments: [pass('boardingpass.pkpass', klmPass)],
      truth: {
        isFlightBooking: true,
        bookings: [
          booking({
            airline: 'KLM Royal Dutch Airlines',
            airlineIata: 'KL',
            bookingCode: 'R8TK2M',
            passengers: ['Joris Bakker'],
            segments: [
              leg('KL 1129', 'AMS', 'CPH', '2027-04-10T10:10:00+02:00', '2027-04-10T11:35:00+02:00', 'Economy', '14C'),
            ],
            totalPrice: null,
            fareType: null,
          }),
        ],
        notes: 'Only the Wallet pass: BCBP barcode (day 100 of 2027) and semantic departure and arrival dates.',
      },
    },
    {
      from: iberia,
      subject: 'Your Iberia e-ticket and boarding pass',
      date: 'Fri, 14 May 2027 09:00:00 +0200',
      text: 'Hello Lucia,\n\nAttached are your e-ticket receipt and your boarding pass for the outbound flight.\n\nIberia',
      attachments: [pdf('e-ticket.pdf', iberiaTicket), pass('IB1736.pkpass', iberiaPass)],
      truth: {
        isFlightBooking: true,
        bookings: [
          booking({
            airline: 'Iberia',
            airlineIata: 'IB',
            bookingCode: 'MXR4PT',
            passengers: ['Lucia Morales'],
            segments: [
              leg('IB 1736', 'MAD', 'BCN', '2027-05-15T08:30:00+02:00', '2027-05-15T09:50:00+02:00', 'Economy', '8A'),
              leg('IB 1745', 'BCN', 'MAD', '2027-05-18T19:00:00+02:00', '2027-05-18T20:20:00+02:00', 'Economy', null),
            ],
            totalPrice: { amountCents: 15640, currency: 'EUR' },
            fareType: null,
          }),
        ],
        notes: 'PDF and pass in one message, one booking: the PDF has no seats, the pass gives the outbound seat.',
      },
    },
    {
      from: austrian,
      subject: 'Booking confirmation 5TQH9L',
      date: 'Mon, 10 May 2027 18:20:00 +0200',
      text: austrianBody,
      attachments: [pdf('eticket.pdf', austrianTicket)],
      truth: {
        isFlightBooking: true,
        bookings: [
          booking({
            airline: 'Austrian Airlines',
            airlineIata: 'OS',
            bookingCode: '5TQH9L',
            passengers: ['Lukas Huber', 'Sophie Huber'],
            segments: [
              leg('OS 411', 'VIE', 'CDG', '2027-06-03T07:10:00+02:00', '2027-06-03T09:20:00+02:00', 'Economy', '12A'),
              leg('OS 412', 'CDG', 'VIE', '2027-06-10T10:05:00+02:00', '2027-06-10T12:10:00+02:00', 'Economy', '20C'),
            ],
            totalPrice: { amountCents: 51280, currency: 'EUR' },
            fareType: null,
          }),
        ],
        notes:
          'The body states the booking with one traveller and no seats; the PDF joins by code and adds the second traveller and the seats.',
      },
    },
    {
      from: ba,
      subject: 'Your boarding passes',
      date: 'Thu, 01 Jul 2027 07:30:00 +0100',
      text: 'Your boarding passes are attached. Please have them ready at security and at the gate.',
      attachments: [
        pass('Oduya-Amara.pkpass', await baPass('ODUYA/AMARA MS', '2A', 21)),
        pass('Oduya-Tobi.pkpass', await baPass('ODUYA/TOBI MR', '2C', 22)),
      ],
      truth: {
        isFlightBooking: true,
        bookings: [
          booking({
            airline: 'British Airways',
            airlineIata: 'BA',
            bookingCode: 'TJ6WPN',
            passengers: ['Amara Oduya', 'Tobi Oduya'],
            segments: [
              leg('BA 1434', 'LHR', 'EDI', '2027-07-02T07:20:00+01:00', '2027-07-02T08:45:00+01:00', 'Business', '2A'),
            ],
            totalPrice: null,
            fareType: null,
          }),
        ],
        notes:
          'Two travellers, one pass each on one code: one booking, both in the party; the seat is the first passenger’s.',
      },
    },
    {
      from: 'Hotel Am Gendarmenmarkt <reservations@hotel-gendarmenmarkt.example>',
      subject: 'Your invoice',
      date: 'Wed, 24 Mar 2027 11:00:00 +0100',
      text: 'Dear Mr Okafor,\n\nthank you for your stay. Your invoice is attached.',
      attachments: [pdf('invoice-84213377.pdf', invoice)],
      truth: {
        isFlightBooking: false,
        bookings: [],
        notes: 'Negative: a hotel invoice PDF with a reservation number, dates, an airport code and a time.',
      },
    },
    {
      from: 'Marta Nowak <marta.nowak@example.net>',
      subject: 'Fwd: Your Eurowings booking EW3KQZ',
      date: 'Tue, 13 Jul 2027 08:02:00 +0200',
      text: 'Forwarding my booking.',
      attachments: [
        { filename: 'Your Eurowings booking.eml', contentType: 'message/rfc822', content: eurowingsOriginal },
      ],
      truth: {
        isFlightBooking: true,
        bookings: [
          booking({
            airline: 'Eurowings',
            airlineIata: 'EW',
            bookingCode: 'EW3KQZ',
            passengers: ['Marta Nowak'],
            segments: [
              leg('EW 9470', 'CGN', 'PMI', '2027-08-07T06:20:00+02:00', '2027-08-07T08:35:00+02:00', 'Economy', '5F'),
            ],
            totalPrice: { amountCents: 12999, currency: 'EUR' },
            fareType: 'BASIC',
          }),
        ],
        notes: 'Forwarded as an attachment (message/rfc822): the booking is in the PDF attached to the original.',
      },
    },
  ];
}

await mkdir(directory, { recursive: true });
for (const [index, sample] of (await samples()).entries()) {
  const name = String(index + 1).padStart(2, '0');
  const raw = buildEmail({
    from: sample.from,
    to: 'Traveller <traveller@example.net>',
    subject: sample.subject,
    date: sample.date,
    ...(sample.text !== undefined ? { text: sample.text } : {}),
    ...(sample.html !== undefined ? { html: sample.html } : {}),
    encoding: 'quoted-printable',
    attachments: sample.attachments,
  });
  await writeFile(join(directory, `${name}.eml`), raw);
  await writeFile(join(directory, `${name}.json`), JSON.stringify(sample.truth));
}
// the truth files formatted as the repository's check wants them
spawnSync('npx', ['prettier', '--write', '--log-level', 'warn', join(directory, '*.json')], { stdio: 'inherit' });
process.stdout.write(`wrote ${directory}\n`);
