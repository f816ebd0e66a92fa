// Hostile inputs: each one the shape that made a step of the extractor quadratic (issue 21: one
// 800 KB email held the api for 101 s). hostile.test.ts runs each at its size and simply needs it
// to finish (quadratic code takes minutes there, linear code milliseconds, so the test runner's
// timeout is the bound); `npm run -s bench:extract` times each at its size and at half of it, so
// linear shows as a ratio near 2.
import { extractFlightBookings, MAX_BODY_CHARS } from '../index.ts';
import { htmlToLines, parseHtml, splitLongLines, textToLines } from '../html.ts';
import { buildEmail } from './email-factory.ts';

export interface HostileInput {
  /** The step and the shape that once made it quadratic. */
  name: string;
  /** The size it is run at (characters of the hostile part). */
  size: number;
  run(size: number): Promise<unknown> | unknown;
}

const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/**
 * The whole extractor with the time budget off, on an airline's confirmation carrying `body`: the
 * stages after the HTML reader pair tokens across the document, so they are measured whole. The
 * size is the most a stage can meet within the budget's reach (a larger email gives up earlier).
 */
const PIPELINE_SIZE = 100_000;
function extractWhole(body: (size: number) => { text?: string; html?: string }) {
  return (size: number) =>
    extractFlightBookings(
      buildEmail({
        from: 'Delta <DeltaAirLines@t.delta.com>',
        subject: 'Your flight confirmation',
        ...body(size),
      }),
      { budgetMs: Number.POSITIVE_INFINITY },
    );
}
const ITINERARY = 'Confirmation #: GZK4WQ\nFlight DL 423 JFK 8:05 LAX 11:10\n';

export const HOSTILE_INPUTS: readonly HostileInput[] = [
  {
    name: "html.ts textCells: a run of no-break spaces (split's '\\s*\\|')",
    size: MAX_BODY_CHARS,
    run: (size) => textToLines(`a${fill('\u00a0', size)}b`),
  },
  {
    name: 'html.ts textCells: spaces and tabs',
    size: MAX_BODY_CHARS,
    run: (size) => textToLines(`a${fill(' \u00a0', size)}b`),
  },
  {
    name: 'html.ts soft-break edges: a long space run in a cell',
    size: MAX_BODY_CHARS,
    run: (size) => htmlToLines(parseHtml(`<table><tr><td>a<br>${fill(' ', size)}x</td></tr></table>`)),
  },
  {
    name: 'html.ts soft-break runs: spaces and <br> in a cell',
    size: MAX_BODY_CHARS,
    run: (size) => htmlToLines(parseHtml(`<table><tr><td>a${fill(' <br>', size)} x</td></tr></table>`)),
  },
  {
    name: 'html.ts tags: unclosed tags',
    size: MAX_BODY_CHARS,
    run: (size) => parseHtml(fill('<a', size)),
  },
  {
    name: 'html.ts tags: unclosed declarations',
    size: MAX_BODY_CHARS,
    run: (size) => parseHtml(fill('<!', size)),
  },
  {
    name: 'html.ts tags: unclosed attribute quotes',
    size: MAX_BODY_CHARS,
    run: (size) => parseHtml(fill('<a x="', size)),
  },
  {
    name: 'html.ts raw text: many script tags (the document lower-cased per tag)',
    size: MAX_BODY_CHARS,
    run: (size) => parseHtml(fill('<script>x</script>', size)),
  },
  {
    name: 'html.ts long lines: labels and clock times on one line',
    size: MAX_BODY_CHARS,
    run: (size) => splitLongLines(textToLines(`08:05 11:10 ${fill('Gate A: 1 ', size)}`)),
  },
  {
    name: 'legs: airport codes on one line (unpaired airports matched by scanning all)',
    size: PIPELINE_SIZE,
    run: extractWhole((size) => ({ text: `${ITINERARY}${fill('JFK ', size)}` })),
  },
  {
    name: 'legs: one airport code per line',
    size: PIPELINE_SIZE,
    run: extractWhole((size) => ({ text: `${ITINERARY}${fill('JFK\n', size)}` })),
  },
  {
    name: 'legs: routes (JFK-JFK-...)',
    size: PIPELINE_SIZE,
    run: extractWhole((size) => ({ text: `${ITINERARY}${fill('JFK-', size)}` })),
  },
  {
    name: 'legs and seats: itinerary rows (a date and a seat looked up per leg)',
    size: PIPELINE_SIZE,
    run: extractWhole((size) => ({
      text: `${ITINERARY}${fill('SUN 14 MAR 2027 | DL 423 | JFK 8:05am | LAX 11:10am | 14C\n', size)}`,
    })),
  },
  {
    name: 'fare: labels in a table cell (a brand pattern compiled per line)',
    size: PIPELINE_SIZE,
    run: extractWhole((size) => ({
      html: `<p>${ITINERARY}</p><table><tr><td>DL 423 JFK 8:05 LAX 11:10</td><td>${fill('A: ', size)}</td></tr></table>`,
    })),
  },
  {
    name: 'passengers: name words',
    size: PIPELINE_SIZE,
    run: extractWhole((size) => ({ text: `${ITINERARY}${fill('Passenger ', size)}` })),
  },
];

/**
 * The whole extractor, budget on, on hostile bodies at the size cap: it gives up (or finishes)
 * within the budget, whatever the shape.
 */
export const HOSTILE_EMAILS_AT_CAP: readonly { name: string; raw: string }[] = [
  {
    name: 'airport codes',
    raw: buildEmail({ subject: 'Your flight confirmation', text: fill('JFK ', MAX_BODY_CHARS - 100) }),
  },
  {
    name: 'itinerary rows',
    raw: buildEmail({
      subject: 'Your flight confirmation',
      text: `${ITINERARY}${fill('SUN 14 MAR 2027 | DL 423 | JFK 8:05am | LAX 11:10am | 14C\n', MAX_BODY_CHARS - 200)}`,
    }),
  },
  {
    name: 'unclosed tags and white space',
    raw: buildEmail({
      subject: 'Your flight confirmation',
      html: `<table><tr><td>a<br>${fill(' ', MAX_BODY_CHARS / 2)}</td></tr></table>${fill('<a', MAX_BODY_CHARS / 2 - 100)}`,
    }),
  },
];
