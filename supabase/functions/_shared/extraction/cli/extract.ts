// `npm run -s extract -- FILE.eml`: prints the extraction result of one email as JSON, and
// nothing else on stdout.
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { extractFlightBookings } from '../index.ts';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run -s extract -- FILE.eml\n');
  process.exit(2);
}
const raw = new Uint8Array(await readFile(file));
const result = await extractFlightBookings(raw);
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
