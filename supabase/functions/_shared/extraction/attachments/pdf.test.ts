// PDF attachments: text by baseline with table rows kept together, and the caps and bad files that
// are skipped before (or while) pdf.js reads them. Times are measured in bench:extract, not here.
import { describe, expect, it } from '../testing/harness.ts';
import { buildPdf, contentShowing, deflatedSpaces, pdfTable, rawPdf } from '../testing/attachment-factory.ts';
import { ExtractionBudget, MAX_EXPANDED_BYTES, MAX_PDF_CONTENT_BYTES, SKIPPED } from '../budget.ts';
import { checkPdf } from './pdf-streams.ts';
import { inflateWithin } from './inflate.ts';
import { readPdf } from './pdf.ts';

const budget = () => new ExtractionBudget(60_000);
const limits = { maxExpandedBytes: MAX_EXPANDED_BYTES, maxContentBytes: MAX_PDF_CONTENT_BYTES };

describe('readPdf', () => {
  it('keeps a table row together, under its header labels', async () => {
    const pdf = await buildPdf([
      [
        'Booking reference: QZP4TW',
        ...pdfTable(
          [40, 110, 220, 330, 450],
          [
            ['Flight', 'From', 'To', 'Departure', 'Seat'],
            ['LH 180', 'Frankfurt (FRA)', 'Berlin (BER)', '21 Mar 2027 07:05', '12A'],
          ],
        ),
      ],
    ]);
    const reading = await readPdf(pdf, budget());
    expect('lines' in reading && reading.lines).toEqual([
      { text: 'Booking reference: QZP4TW', cells: ['Booking reference: QZP4TW'], headers: null },
      {
        text: 'Flight | From | To | Departure | Seat',
        cells: ['Flight', 'From', 'To', 'Departure', 'Seat'],
        headers: ['flight', 'from', 'to', 'departure', 'seat'],
      },
      {
        text: 'LH 180 | Frankfurt (FRA) | Berlin (BER) | 21 Mar 2027 07:05 | 12A',
        cells: ['LH 180', 'Frankfurt (FRA)', 'Berlin (BER)', '21 Mar 2027 07:05', '12A'],
        headers: ['flight', 'from', 'to', 'departure', 'seat'],
      },
    ]);
  });

  it('reads a label and its value as one phrase, and every page in order', async () => {
    const pdf = await buildPdf([
      [
        [
          { x: 40, text: 'Passenger:' },
          { x: 160, text: 'SOLBERG/MINA MS' },
        ],
      ],
      [
        [
          { x: 40, text: 'Total:' },
          { x: 160, text: 'EUR 412.60' },
        ],
      ],
    ]);
    const reading = await readPdf(pdf, budget());
    expect('lines' in reading && reading.lines.map((line) => line.text)).toEqual([
      'Passenger: SOLBERG/MINA MS',
      'Total: EUR 412.60',
    ]);
  });

  it('skips a PDF of more than 50 pages before reading a page', async () => {
    const pdf = await buildPdf(Array.from({ length: 51 }, (_, index) => [`Page ${index + 1}`]));
    expect(await readPdf(pdf, budget())).toEqual({ skipped: SKIPPED.tooManyPages });
  });

  it('skips an encrypted PDF without opening it', async () => {
    const pdf = rawPdf({
      streamDictionary: '',
      streamData: contentShowing('Booking reference QZP4TW'),
      trailerExtra: '/Encrypt << /Filter /Standard /V 1 /R 2 /P -4 /O <00> /U <00> >> ',
    });
    expect(checkPdf(pdf, limits)).toBe('encrypted');
    expect(await readPdf(pdf, budget())).toEqual({ skipped: SKIPPED.encrypted });
  });

  it('skips a malformed PDF as unreadable', async () => {
    const garbage = new TextEncoder().encode(`%PDF-1.7\n${'1 0 obj << /Type /Catalog /Pages 9 0 R'.repeat(50)}\n%%EOF`);
    expect(await readPdf(garbage, budget())).toEqual({ skipped: SKIPPED.unreadable });
    const notAPdf = new TextEncoder().encode('<html>Your ticket</html>');
    expect(await readPdf(notAPdf, budget())).toEqual({ skipped: SKIPPED.unreadable });
  });

  it('reads a truncated PDF as far as it goes, or skips it: never throws', async () => {
    const pdf = await buildPdf([['Booking reference: QZP4TW']]);
    const reading = await readPdf(pdf.subarray(0, Math.floor(pdf.length * 0.7)), budget());
    expect('lines' in reading || reading.skipped === SKIPPED.unreadable).toBe(true);
  });

  it('skips a decompression bomb before pdf.js decodes it', async () => {
    const spaces = deflatedSpaces(MAX_EXPANDED_BYTES + 1024 * 1024);
    const fontBomb = rawPdf({ streamDictionary: '/Filter /FlateDecode /Length1 9', streamData: spaces });
    expect(fontBomb.length).toBeLessThan(100_000);
    expect(await readPdf(fontBomb, budget())).toEqual({ skipped: SKIPPED.expandsTooFar });
    const contentBomb = rawPdf({ streamDictionary: '/Filter /FlateDecode', streamData: spaces });
    expect(await readPdf(contentBomb, budget())).toEqual({ skipped: SKIPPED.tooMuchContent });
  });

  it('stops pdf.js mid-page when the budget runs out, and says so', async () => {
    const line = 'BT /F1 8 Tf 40 700 Td (LH 180 Frankfurt FRA 07:05 Berlin BER 08:10) Tj ET\n';
    const content = new TextEncoder().encode(line.repeat(Math.floor((MAX_PDF_CONTENT_BYTES - 1024) / line.length)));
    const pdf = rawPdf({ streamDictionary: '', streamData: content });
    // the page takes seconds to read whole; the budget stops it at a piece of text
    await expect(readPdf(pdf, new ExtractionBudget(50))).rejects.toThrow(/stopped at: reading a PDF page/);
  });

  it('counts a chain of filters at their worst ratio, and does not decode images', () => {
    const data = new Uint8Array(30_000);
    const chained = rawPdf({ streamDictionary: '/Filter [/ASCII85Decode /LZWDecode]', streamData: data });
    expect(checkPdf(chained, limits)).toBe('expands-too-far');
    const image = rawPdf({ streamDictionary: '/Subtype /Image /Filter /DCTDecode', streamData: data });
    expect(checkPdf(image, limits)).toBe('readable');
  });
});

describe('inflateWithin', () => {
  it('stops within a megabyte past the limit and keeps nothing of a bomb', () => {
    const bomb = deflatedSpaces(40 * 1024 * 1024).subarray(2);
    const inflated = inflateWithin(bomb, 5 * 1024 * 1024, true);
    expect(inflated.overLimit).toBe(true);
    expect(inflated.bytes).toBeNull();
    expect(inflated.size).toBeLessThan(6.1 * 1024 * 1024);
  });

  it('gives the bytes of a stream within the limit, and says when input is not DEFLATE data', () => {
    const text = new TextEncoder().encode('Booking reference QZP4TW');
    const inflated = inflateWithin(deflatedSpaces(0).subarray(2), 100, true);
    expect(inflated).toMatchObject({ size: 0, overLimit: false });
    expect(inflateWithin(text, 100).broken).toBe(true);
  });
});
