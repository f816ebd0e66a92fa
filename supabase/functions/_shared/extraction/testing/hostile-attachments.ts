// Hostile attachments, each on a confirmation whose body states a booking: the bombs, broken and
// oversized files that must be skipped with the reason (never a crash, a hang, or memory past the
// caps), and the most a legitimate email may ask (20 PDFs, a PDF at the content cap).
// attachments.test.ts runs each and checks the body's booking and the reasons; `npm run -s
// bench:extract` prints each one's time and memory.
import { MAX_ATTACHMENTS, MAX_PDF_CONTENT_BYTES, MAX_PDF_PAGES, MAX_ZIP_ENTRIES } from '../budget.ts';
import { buildEmail } from './email-factory.ts';
import {
  bcbp,
  buildPdf,
  buildWalletPass,
  contentShowing,
  deflatedSpaces,
  rawPdf,
  zipOf,
} from './attachment-factory.ts';
import { zlibSync } from 'fflate';

export interface HostileAttachmentEmail {
  name: string;
  raw: string;
  /** How many attachments must be skipped (with any reason); null: as the machine's speed has it (the budget). */
  skipped: number | null;
}

const BODY = 'Booking reference: QZP4TW\nSun 21 Mar 2027  LH 180  Frankfurt (FRA) 07:05 -> Berlin (BER) 08:10';
const BARCODE = bcbp({
  name: 'SOLBERG/MINA MS',
  code: 'QZP4TW',
  from: 'FRA',
  to: 'BER',
  carrier: 'LH',
  flight: '180',
  dayOfYear: 80,
  compartment: 'Y',
  seat: '12A',
  sequence: 23,
});

type Attachment = { filename: string; contentType: string; content: Uint8Array };
const pdf = (content: Uint8Array, filename = 'ticket.pdf'): Attachment => ({
  filename,
  contentType: 'application/pdf',
  content,
});
const pass = (content: Uint8Array): Attachment => ({
  filename: 'pass.pkpass',
  contentType: 'application/vnd.apple.pkpass',
  content,
});
const email = (attachments: Attachment[]) =>
  buildEmail({
    from: 'Lufthansa <online@booking-lufthansa.com>',
    subject: 'Your e-ticket',
    text: BODY,
    attachments,
  });

/** A page of text pieces that fills one content stream up to `bytes` before deflating. */
function pdfAtTheCap(bytes: number): Uint8Array {
  const line = 'BT /F1 8 Tf 40 700 Td (LH 180 Frankfurt FRA 07:05 Berlin BER 08:10 Seat 12A) Tj ET\n';
  const content = new TextEncoder().encode(line.repeat(Math.floor(bytes / line.length)));
  return rawPdf({ streamDictionary: '/Filter /FlateDecode', streamData: zlibSync(content, { level: 6 }) });
}

export async function hostileAttachmentEmails(): Promise<HostileAttachmentEmail[]> {
  const ticket = await buildPdf([['Booking reference: QZP4TW', 'Passenger: SOLBERG/MINA MS']]);
  const lyingZip = zipOf(1, 8 * 1024 * 1024, () => 'pass.json');
  // the central directory's uncompressed size of its one file: 1 KB
  const entry = lyingZip.length - 22 - (46 + 'pass.json'.length);
  new DataView(lyingZip.buffer, lyingZip.byteOffset).setUint32(entry + 24, 1024, true);
  return [
    {
      name: `PDF decompression bomb (64 MB of spaces in ${'a stream'})`,
      raw: email([
        pdf(rawPdf({ streamDictionary: '/Filter /FlateDecode', streamData: deflatedSpaces(64 * 1024 * 1024) })),
      ]),
      skipped: 1,
    },
    {
      name: `PDF at the content cap (one page of text, ${MAX_PDF_CONTENT_BYTES / 1024 - 1} KB)`,
      raw: email([pdf(pdfAtTheCap(MAX_PDF_CONTENT_BYTES - 1024))]),
      skipped: null,
    },
    {
      name: 'encrypted PDF',
      raw: email([
        pdf(
          rawPdf({
            streamDictionary: '',
            streamData: contentShowing('QZP4TW'),
            trailerExtra: '/Encrypt << /Filter /Standard /V 1 /R 2 /P -4 /O <00> /U <00> >> ',
          }),
        ),
      ]),
      skipped: 1,
    },
    {
      name: 'malformed PDF',
      raw: email([pdf(new TextEncoder().encode(`%PDF-1.7\n${'4 0 obj << /Length 99999 >> stream\n'.repeat(2000)}`))]),
      skipped: 1,
    },
    {
      name: `PDF of ${MAX_PDF_PAGES + 1} pages`,
      raw: email([pdf(await buildPdf(Array.from({ length: MAX_PDF_PAGES + 1 }, () => ['Booking reference: QZP4TW'])))]),
      skipped: 1,
    },
    {
      name: `${MAX_ATTACHMENTS} PDF e-tickets (the most read)`,
      raw: email(Array.from({ length: MAX_ATTACHMENTS }, (_, index) => pdf(ticket, `ticket-${index}.pdf`))),
      skipped: 0,
    },
    { name: 'zip bomb (64 MB declared)', raw: email([pass(zipOf(1, 64 * 1024 * 1024))]), skipped: 1 },
    { name: 'zip bomb (8 MB declared as 1 KB)', raw: email([pass(lyingZip)]), skipped: 1 },
    { name: `zip of ${MAX_ZIP_ENTRIES * 5} files`, raw: email([pass(zipOf(MAX_ZIP_ENTRIES * 5, 0))]), skipped: 1 },
    {
      name: 'Wallet pass with a broken signature',
      raw: email([pass(await buildWalletPass({ barcode: BARCODE, breakSignature: true }))]),
      skipped: 1,
    },
    { name: 'Wallet pass with no barcode', raw: email([pass(await buildWalletPass({}))]), skipped: 1 },
    {
      name: 'a thousand parts',
      raw: email(Array.from({ length: 1000 }, (_, index) => pdf(new Uint8Array([0x25, 0x50]), `part-${index}.pdf`))),
      skipped: 1000,
    },
  ];
}
