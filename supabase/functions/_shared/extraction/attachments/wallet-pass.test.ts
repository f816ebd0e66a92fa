// Apple Wallet passes: the barcode and the pass's times to a booking; zip bombs, a broken
// signature and a pass without a barcode are skipped with the reason.
import { describe, expect, it } from '../testing/harness.ts';
import { buildWalletPass, zipOf } from '../testing/attachment-factory.ts';
import { MAX_EXPANDED_BYTES, MAX_ZIP_ENTRIES, SKIPPED } from '../budget.ts';
import { readWalletPass } from './wallet-pass.ts';
import { readZip } from './zip.ts';

const BARCODE = 'M1SOLBERG/MINA MS     EQZP4TW FRABERLH 0180 080Y012A0023 100';
const SENT = new Date('2027-03-02T10:00:00Z');
const read = (bytes: Uint8Array) => readWalletPass(bytes, SENT);
const limits = { maxEntries: MAX_ZIP_ENTRIES, maxExpandedBytes: MAX_EXPANDED_BYTES };

describe('readWalletPass', () => {
  it('reads the barcode and the semantic departure and arrival', async () => {
    const pass = await buildWalletPass({
      barcode: BARCODE,
      organizationName: 'Lufthansa',
      departure: '2027-03-21T07:05+01:00',
      arrival: '2027-03-21T08:10+01:00',
    });
    expect(await read(pass)).toEqual({
      draft: {
        bookingCode: 'QZP4TW',
        airlineIata: 'LH',
        airlineName: 'Lufthansa',
        passengers: ['Mina Solberg'],
        segments: [
          {
            carrier: 'LH',
            number: '180',
            departureAirport: 'FRA',
            arrivalAirport: 'BER',
            departureUtc: Date.UTC(2027, 2, 21, 6, 5),
            arrivalUtc: Date.UTC(2027, 2, 21, 7, 10),
            departureLocal: null,
            arrivalLocal: null,
            arrivalDayOffset: null,
            cabinClass: 'Economy',
            seatNumber: '12A',
          },
        ],
        totalPrice: null,
        fareType: null,
      },
    });
  });

  it('takes clock times from the fields it shows, on the barcode’s day', async () => {
    const pass = await buildWalletPass({
      barcode: BARCODE,
      fields: {
        auxiliaryFields: [
          { key: 'departs', label: 'DEPARTS', value: '07:05' },
          { key: 'arrives', label: 'ARRIVES', value: '08:10' },
        ],
      },
    });
    const reading = await read(pass);
    expect('draft' in reading && reading.draft.segments[0]).toMatchObject({
      departureLocal: { year: 2027, month: 3, day: 21, hour: 7, minute: 5 },
      arrivalLocal: { year: 2027, month: 3, day: 21, hour: 8, minute: 10 },
    });
  });

  it('skips a pass whose pass.json does not match its signed manifest', async () => {
    const pass = await buildWalletPass({ barcode: BARCODE, breakSignature: true });
    expect(await read(pass)).toEqual({ skipped: SKIPPED.brokenSignature });
  });

  it('skips a pass with no barcode, or one that is not a boarding pass', async () => {
    expect(await read(await buildWalletPass({}))).toEqual({ skipped: SKIPPED.noBarcode });
    expect(await read(await buildWalletPass({ barcode: 'https://example.com/loyalty/123456' }))).toEqual({
      skipped: SKIPPED.noBarcode,
    });
  });

  it('skips what is not a zip, or a zip without pass.json', async () => {
    expect(await read(new TextEncoder().encode('not a zip at all'))).toEqual({ skipped: SKIPPED.unreadable });
    expect(await read(zipOf(2, 10))).toEqual({ skipped: SKIPPED.unreadable });
  });
});

describe('readZip', () => {
  it('refuses a zip of more than 1,000 files before decompressing any', () => {
    expect(readZip(zipOf(MAX_ZIP_ENTRIES + 1, 1), () => true, limits)).toEqual({ refused: 'too-many-entries' });
  });

  it('refuses a zip bomb by the sizes it declares', () => {
    const bomb = zipOf(1, MAX_EXPANDED_BYTES + 1);
    expect(bomb.length).toBeLessThan(100_000);
    expect(readZip(bomb, () => true, limits)).toEqual({ refused: 'expands-too-far' });
  });

  it('refuses a zip bomb that declares less than it holds, stopping at what it declared', () => {
    const bomb = zipOf(1, 4 * 1024 * 1024);
    // the central directory's uncompressed size of the one file: 1 KB
    const directory = bomb.length - 22 - (46 + 'file-0.bin'.length);
    new DataView(bomb.buffer, bomb.byteOffset).setUint32(directory + 24, 1024, true);
    expect(readZip(bomb, () => true, limits)).toEqual({ refused: 'expands-past-declared' });
  });

  it('gives the files asked for', () => {
    const reading = readZip(zipOf(3, 5), (name) => name === 'file-1.bin', limits);
    expect('files' in reading && [...reading.files.keys()]).toEqual(['file-1.bin']);
  });
});
