// Scores the engine over a directory of NN.eml files with their NN.json truth, as eval:extract
// does, for the corpus tests.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from '../evaluation.ts';
import { extractFlightBookings } from '../index.ts';
import type { ExtractionResult } from '../types.ts';

export interface CorpusScore {
  emails: number;
  negatives: number;
  falseBookings: number;
  f1: number;
}

export async function scoreCorpus(directory: string): Promise<CorpusScore> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.eml'));
  const totals = emptyCounts();
  let falseBookings = 0;
  let negatives = 0;
  for (const name of names) {
    const truth = JSON.parse(
      await readFile(join(directory, name.replace(/\.eml$/, '.json')), 'utf8'),
    ) as ExtractionResult;
    if (!truth.isFlightBooking) negatives++;
    const predicted = await extractFlightBookings(new Uint8Array(await readFile(join(directory, name))));
    const score = scoreEmail(truth, predicted);
    addCounts(totals, score.counts);
    falseBookings += score.falseBookings;
  }
  return { emails: names.length, negatives, falseBookings, f1: f1(totalCounts(totals)).f1 };
}
