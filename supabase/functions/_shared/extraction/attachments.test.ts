// Attachments in a confirmation: a PDF e-ticket or a Wallet pass alone, both, joined to the body's
// booking by its code (filling, never overriding), standing alone under another code, and the
// attachments skipped with their reason (a thousand parts among them).
import { describe, expect, it } from './testing/harness.ts';
import { buildPdf, buildWalletPass, pdfTable } from './testing/attachment-factory.ts';
import { buildEmail } from './testing/email-factory.ts';
import { extractFlightBookings, warmUpAirports } from './index.ts';
import { joinAttachmentBookings } from './attachments.ts';
import { MAX_ATTACHMENTS, SKIPPED } from './budget.ts';
import { parseEmail } from './mime.ts';
import { hostileAttachmentEmails } from './testing/hostile-attachments.ts';
import type { DraftBooking, DraftSegment } from './types.ts';

await warmUpAirports();

const LUFTHANSA = 'Lufthansa <online@booking-lufthansa.com>';
const SENT = 'Tue, 02 Mar 2027 10:00:00 +0100';
const BARCODE = 'M1SOLBERG/MINA MS     EQZP4TW FRABERLH 0180 080Y012A0023 100';
const COLUMNS = [40, 85, 180, 275, 345, 395, 445, 505];
const HEADER = ['Flight', 'From', 'To', 'Date', 'Departs', 'Arrives', 'Class', 'Seat'];

const eTicket = (code: string, passengers: string[], rows: string[][]) =>
  buildPdf([
    [
      'Electronic Ticket Receipt',
      [
        { x: 40, text: 'Booking reference:' },
        { x: 160, text: code },
      ],
      ...passengers.map((name) => [
        { x: 40, text: 'Passenger:' },
        { x: 160, text: name },
      ]),
      '',
      ...pdfTable(COLUMNS, [HEADER, ...rows]),
    ],
  ]);

const OUTBOUND = ['LH 180', 'Frankfurt (FRA)', 'Berlin (BER)', '21 Mar 2027', '07:05', '08:10', 'Economy', '12A'];
const RETURN = ['LH 191', 'Berlin (BER)', 'Frankfurt (FRA)', '28 Mar 2027', '18:30', '19:40', 'Economy', '14C'];

const pdfAttachment = (content: Uint8Array, filename = 'eticket.pdf') => ({
  filename,
  contentType: 'application/pdf',
  content,
});
const passAttachment = (content: Uint8Array, filename = 'boardingpass.pkpass') => ({
  filename,
  contentType: 'application/vnd.apple.pkpass',
  content,
});

const extract = (text: string, attachments: { filename: string; contentType: string; content: Uint8Array }[]) =>
  extractFlightBookings(buildEmail({ from: LUFTHANSA, subject: 'Your e-ticket', date: SENT, text, attachments }));

describe('attachments alone', () => {
  it('reads the booking from a PDF e-ticket when the body has none', async () => {
    const pdf = await eTicket('QZP4TW', ['SOLBERG/MINA MS'], [OUTBOUND, RETURN]);
    const result = await extract('Please find your e-ticket attached.', [pdfAttachment(pdf)]);
    expect(result.bookings).toHaveLength(1);
    expect(result.bookings[0]).toMatchObject({
      bookingCode: 'QZP4TW',
      passengers: ['Mina Solberg'],
      isRoundTrip: true,
    });
    expect(
      result.bookings[0]?.segments.map((segment) => [segment.flightNumber, segment.departureTime, segment.seatNumber]),
    ).toEqual([
      ['LH 180', '2027-03-21T07:05:00+01:00', '12A'],
      ['LH 191', '2027-03-28T18:30:00+02:00', '14C'],
    ]);
    expect(result.skippedAttachments).toBeUndefined();
  });

  it('reads a Wallet boarding pass with its times', async () => {
    const pass = await buildWalletPass({
      barcode: BARCODE,
      organizationName: 'Lufthansa',
      departure: '2027-03-21T07:05+01:00',
      arrival: '2027-03-21T08:10+01:00',
    });
    const result = await extract('Your boarding pass is attached.', [passAttachment(pass)]);
    expect(result.bookings[0]).toMatchObject({
      bookingCode: 'QZP4TW',
      passengers: ['Mina Solberg'],
      segments: [{ flightNumber: 'LH 180', departureTime: '2027-03-21T07:05:00+01:00', seatNumber: '12A' }],
    });
  });
});

describe('attachments joined to the body', () => {
  const body = [
    'Your booking is confirmed.',
    'Booking reference: QZP4TW',
    'Passenger: Per Solberg',
    'Sun 21 Mar 2027  LH 180  Frankfurt (FRA) 07:05 -> Berlin (BER) 08:10  Seat 3C',
  ].join('\n');

  it('adds the legs, seats and travellers the body leaves out, never changing what it states', async () => {
    const pdf = await eTicket('QZP4TW', ['SOLBERG/MINA MS', 'SOLBERG/PER MR'], [OUTBOUND, RETURN]);
    const result = await extract(body, [pdfAttachment(pdf)]);
    expect(result.bookings).toHaveLength(1);
    const booking = result.bookings[0];
    expect(booking?.passengers).toEqual(['Per Solberg', 'Mina Solberg']);
    expect(booking?.segments.map((segment) => [segment.flightNumber, segment.seatNumber])).toEqual([
      ['LH 180', '3C'],
      ['LH 191', '14C'],
    ]);
  });

  it('joins a PDF and a pass in one message to the one booking', async () => {
    const pdf = await eTicket('QZP4TW', ['SOLBERG/PER MR'], [OUTBOUND, RETURN]);
    const pass = await buildWalletPass({ barcode: BARCODE });
    const result = await extract('Your documents are attached.', [pdfAttachment(pdf), passAttachment(pass)]);
    expect(result.bookings).toHaveLength(1);
    expect(result.bookings[0]?.passengers).toEqual(['Per Solberg', 'Mina Solberg']);
    expect(result.bookings[0]?.segments).toHaveLength(2);
  });

  it('keeps an attachment under another code as a booking of its own', async () => {
    const pdf = await eTicket('XK4R7B', ['SOLBERG/MINA MS'], [RETURN]);
    const result = await extract(body, [pdfAttachment(pdf)]);
    expect(result.bookings.map((booking) => booking.bookingCode)).toEqual(['QZP4TW', 'XK4R7B']);
  });

  it('reads no attachment of a message the body says is no booking', async () => {
    const pdf = await eTicket('QZP4TW', ['SOLBERG/MINA MS'], [OUTBOUND]);
    const result = await extract('Your booking has been cancelled.\nBooking reference: QZP4TW', [pdfAttachment(pdf)]);
    expect(result).toEqual({ isFlightBooking: false, bookings: [] });
  });
});

describe('joinAttachmentBookings', () => {
  const leg = (overrides: Partial<DraftSegment>): DraftSegment => ({
    carrier: 'LH',
    number: '180',
    departureAirport: 'FRA',
    arrivalAirport: 'BER',
    departureUtc: null,
    arrivalUtc: null,
    departureLocal: { year: 2027, month: 3, day: 21, hour: 7, minute: 5 },
    arrivalLocal: { year: 2027, month: 3, day: 21, hour: 8, minute: 10 },
    arrivalDayOffset: null,
    cabinClass: null,
    seatNumber: null,
    ...overrides,
  });
  const booking = (overrides: Partial<DraftBooking>): DraftBooking => ({
    bookingCode: 'QZP4TW',
    airlineIata: 'LH',
    airlineName: null,
    passengers: [],
    segments: [leg({})],
    totalPrice: null,
    fareType: null,
    ...overrides,
  });

  it('joins a body without a code to the one booking the attachments state', () => {
    const [joined] = joinAttachmentBookings(
      [booking({ bookingCode: '', fareType: 'Economy Classic' })],
      [
        booking({
          segments: [leg({ seatNumber: '12A', cabinClass: 'Economy', fareType: undefined } as Partial<DraftSegment>)],
        }),
      ],
    );
    expect(joined).toMatchObject({ bookingCode: 'QZP4TW', fareType: 'Economy Classic' });
    expect(joined?.segments[0]).toMatchObject({ seatNumber: '12A', cabinClass: 'Economy' });
  });

  it('keeps the body’s times and flight of a leg, filling only what it left empty', () => {
    const body = booking({ segments: [leg({ seatNumber: '3C', arrivalLocal: null })] });
    const extra = booking({
      segments: [leg({ seatNumber: '12A', departureLocal: { year: 2027, month: 3, day: 21, hour: 9, minute: 0 } })],
    });
    const [joined] = joinAttachmentBookings([body], [extra]);
    expect(joined?.segments).toEqual([
      leg({ seatNumber: '3C', arrivalLocal: { year: 2027, month: 3, day: 21, hour: 8, minute: 10 } }),
    ]);
  });
});

describe('attachments skipped with the reason', () => {
  it('reads the first 20 attachments of a message with a thousand parts, and says so of the rest', async () => {
    const junk = new TextEncoder().encode('%PDF-1.7 not really');
    const attachments = Array.from({ length: 1000 }, (_, index) => pdfAttachment(junk, `part-${index}.pdf`));
    const body = 'Booking reference: QZP4TW\nSun 21 Mar 2027  LH 180  Frankfurt (FRA) 07:05 -> Berlin (BER) 08:10';
    const result = await extract(body, attachments);
    expect(result.bookings.map((booking) => booking.bookingCode)).toEqual(['QZP4TW']);
    expect(result.skippedAttachments).toHaveLength(1000);
    const reasonOf = (filename: string) =>
      result.skippedAttachments?.find((skip) => skip.filename === filename)?.reason;
    expect(reasonOf('part-0.pdf')).toBe(SKIPPED.unreadable);
    expect(reasonOf('part-19.pdf')).toBe(SKIPPED.unreadable);
    expect(reasonOf('part-20.pdf')).toBe(SKIPPED.tooMany);
    expect(result.skippedAttachments?.filter((skip) => skip.reason === SKIPPED.tooMany)).toHaveLength(980);
  });

  it('holds the 20 for the whole email, attached messages included', async () => {
    const junk = new TextEncoder().encode('%PDF-1.7');
    const pdfs = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, index) => pdfAttachment(junk, `${prefix}-${index}.pdf`));
    const inner = buildEmail({ subject: 'Your e-ticket', text: 'attached', attachments: pdfs('inner', 10) });
    const outer = buildEmail({
      subject: 'Fwd: Your e-ticket',
      text: 'see the attached message',
      attachments: [...pdfs('outer', 15), { filename: 'original.eml', contentType: 'message/rfc822', content: inner }],
    });
    const email = await parseEmail(outer);
    const kept = [email, ...email.attachedMessages].flatMap((message) => message.documents);
    const skipped = [email, ...email.attachedMessages].flatMap((message) => message.skippedAttachments);
    expect(kept).toHaveLength(MAX_ATTACHMENTS);
    expect(skipped.map((skip) => skip.filename)).toEqual([
      'inner-5.pdf',
      'inner-6.pdf',
      'inner-7.pdf',
      'inner-8.pdf',
      'inner-9.pdf',
    ]);
  });

  it('says why a broken pass was not read, beside the body’s booking', async () => {
    const pass = await buildWalletPass({ barcode: BARCODE, breakSignature: true });
    const body = 'Booking reference: QZP4TW\nSun 21 Mar 2027  LH 180  Frankfurt (FRA) 07:05 -> Berlin (BER) 08:10';
    const result = await extract(body, [passAttachment(pass, 'pass.pkpass')]);
    expect(result.bookings).toHaveLength(1);
    expect(result.skippedAttachments).toEqual([{ filename: 'pass.pkpass', reason: SKIPPED.brokenSignature }]);
  });

  it('reads the body of each hostile attachment email, skipping the attachment with its reason', async () => {
    for (const email of await hostileAttachmentEmails()) {
      const result = await extractFlightBookings(email.raw);
      expect(
        result.bookings.map((booking) => booking.bookingCode),
        email.name,
      ).toEqual(['QZP4TW']);
      const skipped = result.skippedAttachments ?? [];
      if (email.skipped !== null) expect(skipped, email.name).toHaveLength(email.skipped);
      for (const skip of skipped) expect(Object.values(SKIPPED), email.name).toContain(skip.reason);
    }
  }, 120_000);
});
