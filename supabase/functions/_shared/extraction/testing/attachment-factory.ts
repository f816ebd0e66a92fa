// Small factories for attachments: PDF e-tickets written with pdf-lib (text placed on a page as an
// airline's receipt places it: labels, a table of legs) and Apple Wallet passes zipped with fflate.
// Deterministic (no dates, ids or random bytes of their own), so the corpus generator
// (cli/attachment-samples.ts) writes the same files every time.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { zipSync, zlibSync } from 'fflate';

/** One line of a PDF page: text pieces at x positions (points from the left), top to bottom. */
export type PdfRow = string | { x: number; text: string }[];

export async function buildPdf(pages: PdfRow[][], options: { fontSize?: number } = {}): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  const size = options.fontSize ?? 10;
  for (const rows of pages) {
    const page = document.addPage([595, 842]);
    let y = 800;
    for (const row of rows) {
      const pieces = typeof row === 'string' ? [{ x: 40, text: row }] : row;
      for (const piece of pieces) if (piece.text) page.drawText(piece.text, { x: piece.x, y, size, font });
      y -= size * 1.6;
    }
  }
  return await document.save({ useObjectStreams: false });
}

/** A table: the header row and each row's cells at the same column positions. */
export function pdfTable(columns: number[], rows: string[][]): PdfRow[] {
  return rows.map((cells) => cells.map((text, index) => ({ x: columns[index] ?? 40, text })));
}

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);

/** A PDF written by hand around one content stream, for shapes pdf-lib will not write. */
export function rawPdf(options: {
  streamDictionary: string;
  streamData: Uint8Array;
  trailerExtra?: string;
}): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (bytes: Uint8Array) => {
    parts.push(bytes);
    length += bytes.length;
  };
  add(latin1('%PDF-1.7\n'));
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  for (const [index, body] of objects.entries()) {
    offsets.push(length);
    if (body !== null) {
      add(latin1(`${index + 1} 0 obj\n${body}\nendobj\n`));
      continue;
    }
    add(latin1(`${index + 1} 0 obj\n<< ${options.streamDictionary} /Length ${options.streamData.length} >>\nstream\n`));
    add(options.streamData);
    add(latin1('\nendstream\nendobj\n'));
  }
  const xref = length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  add(
    latin1(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${options.trailerExtra ?? ''}>>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A content stream that shows `text` at the top of the page. */
export const contentShowing = (text: string): Uint8Array => latin1(`BT /F1 12 Tf 40 800 Td (${text}) Tj ET`);

/** A deflated stream that expands to `bytes` of spaces (a decompression bomb when large). */
export function deflatedSpaces(bytes: number): Uint8Array {
  return zlibSync(new Uint8Array(bytes).fill(0x20), { level: 9 });
}

export interface WalletPassFields {
  /** The barcode's message (IATA BCBP text); none for a pass without a barcode. */
  barcode?: string;
  organizationName?: string;
  /** ISO 8601 with offset. */
  departure?: string;
  arrival?: string;
  /** Fields the pass shows, by group: `{ auxiliaryFields: [{ key, label, value }] }`. */
  fields?: Record<string, { key: string; label: string; value: string }[]>;
  /** Write the manifest's hash of pass.json wrong (a pass altered after signing). */
  breakSignature?: boolean;
}

const hex = (bytes: Uint8Array): string => [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');

async function sha1(bytes: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-1', bytes.slice())));
}

/** A fixed modification time: zips record one, and the corpus must not change when rebuilt. */
const ZIP_TIME = new Date(Date.UTC(2027, 0, 1));

export async function buildWalletPass(pass: WalletPassFields): Promise<Uint8Array> {
  const json = {
    formatVersion: 1,
    passTypeIdentifier: 'pass.example.boardingpass',
    serialNumber: 'SAMPLE-1',
    teamIdentifier: 'EXAMPLE123',
    organizationName: pass.organizationName ?? 'Example Air',
    description: 'Boarding pass',
    ...(pass.barcode
      ? { barcodes: [{ format: 'PKBarcodeFormatAztec', message: pass.barcode, messageEncoding: 'iso-8859-1' }] }
      : {}),
    ...(pass.departure || pass.arrival
      ? {
          semantics: {
            ...(pass.departure ? { originalDepartureDate: pass.departure } : {}),
            ...(pass.arrival ? { originalArrivalDate: pass.arrival } : {}),
          },
        }
      : {}),
    boardingPass: { transitType: 'PKTransitTypeAir', ...(pass.fields ?? {}) },
  };
  const passJson = new TextEncoder().encode(JSON.stringify(json, null, 2));
  const icon = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const manifest = new TextEncoder().encode(
    JSON.stringify({
      'pass.json': pass.breakSignature ? '0'.repeat(40) : await sha1(passJson),
      'icon.png': await sha1(icon),
    }),
  );
  // The reader checks the manifest, not the PKCS #7 signature's certificates: a DER SEQUENCE stands in.
  const signature = Uint8Array.from([0x30, 0x80, 0x06, 0x09, ...latin1('samplesignature')]);
  return zipSync(
    { 'pass.json': passJson, 'manifest.json': manifest, signature, 'icon.png': icon },
    { mtime: ZIP_TIME, level: 6 },
  );
}

/** A zip of `entries` files of `entrySize` zeros each (a zip bomb when either is large). */
export function zipOf(
  entries: number,
  entrySize: number,
  nameOf: (index: number) => string = (index) => `file-${index}.bin`,
): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const content = new Uint8Array(entrySize);
  for (let index = 0; index < entries; index++) files[nameOf(index)] = content;
  return zipSync(files, { mtime: ZIP_TIME, level: 9 });
}

/** One leg of IATA BCBP text, padded as the barcode encodes it (boarding-pass.ts reads it). */
export function bcbp(leg: {
  name: string;
  code: string;
  from: string;
  to: string;
  carrier: string;
  flight: string;
  dayOfYear: number;
  compartment: string;
  seat: string;
  sequence: number;
}): string {
  return [
    'M1',
    leg.name.padEnd(20).slice(0, 20),
    'E',
    leg.code.padEnd(7),
    leg.from,
    leg.to,
    leg.carrier.padEnd(3),
    leg.flight.padStart(4, '0').padEnd(5),
    String(leg.dayOfYear).padStart(3, '0'),
    leg.compartment,
    leg.seat.padStart(4, '0'),
    String(leg.sequence).padStart(4, '0').padEnd(5),
    '1',
    '00',
  ].join('');
}
