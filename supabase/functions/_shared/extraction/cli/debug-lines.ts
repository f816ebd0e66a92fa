// Developer aid: prints the lines the generic extractor reads for one email (after HTML
// rendering, forward unwrapping and change-email filtering).
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { parseEmail } from '../mime.ts';
import { htmlToLines, parseHtml, textToLines } from '../html.ts';
import { unwrapForwarded } from '../forward.ts';
import { dropCancelledSections } from '../generic.ts';

const file = process.argv[2] ?? '';
const useText = process.argv[3] === 'text';
const email = await parseEmail(new Uint8Array(await readFile(file)));
const lines = email.html && !useText ? htmlToLines(parseHtml(email.html)) : textToLines(email.text);
const unwrapped = unwrapForwarded(lines, email.subject);
process.stdout.write(
  `from ${unwrapped.fromAddress ?? email.fromAddress} date ${String(unwrapped.date ?? email.date)}\n`,
);
for (const line of dropCancelledSections(unwrapped.lines)) {
  process.stdout.write(`${line.text}${line.headers ? `   [headers: ${line.headers.join(', ')}]` : ''}\n`);
}
