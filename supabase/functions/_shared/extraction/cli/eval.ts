// `npm run -s eval:extract -- DIR`: runs the engine on every N.eml in DIR against its N.json
// truth and prints per-field precision, recall and F1, the emails with any wrong field, the
// attachments (PDFs, Wallet passes) read and those skipped with the reason, and on the last line
// the overall field-level F1 and the number of false bookings.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { extractFlightBookings } from '../index.ts';
import { parseEmail } from '../mime.ts';
import { addCounts, ALL_FIELDS, emptyCounts, f1, scoreEmail, totalCounts, type EmailScore } from '../evaluation.ts';
import type { ExtractionResult } from '../types.ts';

const directory = process.argv[2];
if (!directory) {
  process.stderr.write('usage: npm run -s eval:extract -- DIR\n');
  process.exit(2);
}
const names = (await readdir(directory)).filter((name) => name.endsWith('.eml')).sort();
const totals = emptyCounts();
let falseBookings = 0;
let evaluated = 0;
const failures: { name: string; score: EmailScore }[] = [];
let withAttachments = 0;
let attachments = 0;
const skipped: string[] = [];
for (const name of names) {
  const truthPath = join(directory, name.replace(/\.eml$/, '.json'));
  let truth: ExtractionResult;
  try {
    truth = JSON.parse(await readFile(truthPath, 'utf8')) as ExtractionResult;
  } catch {
    continue; // no truth file: not part of the evaluation
  }
  const raw = new Uint8Array(await readFile(join(directory, name)));
  const predicted = await extractFlightBookings(raw);
  const parsed = await parseEmail(raw);
  const count = [parsed, ...parsed.attachedMessages].reduce(
    (sum, message) => sum + message.documents.length + message.skippedAttachments.length,
    0,
  );
  attachments += count;
  if (count > 0) withAttachments++;
  for (const skip of predicted.skippedAttachments ?? []) skipped.push(`  ${name}: ${skip.filename} ${skip.reason}`);
  const score = scoreEmail(truth, predicted);
  addCounts(totals, score.counts);
  falseBookings += score.falseBookings;
  evaluated++;
  if (score.errors.length > 0) failures.push({ name, score });
}

const percent = (value: number): string => value.toFixed(3);
const lines: string[] = [];
lines.push(`emails evaluated: ${evaluated}`);
lines.push('field                precision  recall  f1     (tp/fp/fn)');
for (const field of ALL_FIELDS) {
  const counts = totals[field];
  const { precision, recall, f1: score } = f1(counts);
  lines.push(
    `${field.padEnd(20)} ${percent(precision).padStart(9)}  ${percent(recall).padStart(6)}  ${percent(score)}  (${counts.tp}/${counts.fp}/${counts.fn})`,
  );
}
lines.push('');
lines.push(failures.length === 0 ? 'emails with wrong fields: none' : `emails with wrong fields: ${failures.length}`);
for (const { name, score } of failures) {
  lines.push(
    `  ${name}${score.falseBookings > 0 ? ` (${score.falseBookings} false booking${score.falseBookings > 1 ? 's' : ''})` : ''}`,
  );
  for (const error of score.errors.slice(0, 12)) {
    lines.push(
      `    ${error.field} @ ${error.where}: expected ${JSON.stringify(error.expected)}, got ${JSON.stringify(error.actual)}`,
    );
  }
  if (score.errors.length > 12) lines.push(`    ... ${score.errors.length - 12} more`);
}
lines.push(
  `attachments (PDF, Wallet pass): ${attachments} in ${withAttachments} emails, ${skipped.length} not read${skipped.length > 0 ? ':' : ''}`,
);
lines.push(...skipped.slice(0, 20));
if (skipped.length > 20) lines.push(`  ... ${skipped.length - 20} more`);
const overall = f1(totalCounts(totals));
lines.push(
  `overall field-level F1 ${overall.f1.toFixed(4)} (precision ${percent(overall.precision)}, recall ${percent(overall.recall)}), false bookings ${falseBookings}`,
);
process.stdout.write(`${lines.join('\n')}\n`);
