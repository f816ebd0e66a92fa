// PDF attachments (e-tickets, itinerary receipts) to lines, through unpdf: the serverless build of
// Mozilla's pdf.js, plain JavaScript that runs the same under Deno and Node. pdf.js hands over
// text pieces with their positions; pieces on one baseline are one line, left to right, and a wide
// gap between two pieces starts a new cell, so a table's row keeps its cells together as an HTML
// table row does (html.ts), with the header row's labels when the columns line up under them.
//
// How it fails: a file pdf.js cannot open, or that throws while a page is read, is skipped as
// unreadable; before pdf.js sees a byte, checkPdf (pdf-streams.ts) refuses an encrypted file and
// one whose streams expand past the caps, and the page count is checked before any page is read.
// pdf.js runs on the caller's thread; its text comes in pieces, and the budget is checked at each
// (past it, pdf.js is told to stop and the document is destroyed), so the longest stretch nothing
// can stop is interpreting operators that show no text, bounded by the content cap.
import type { TextLine } from '../html.ts';
import { breakOverlongLines, splitLongLines } from '../html.ts';
import {
  type ExtractionBudget,
  ExtractionGaveUp,
  MAX_EXPANDED_BYTES,
  MAX_PDF_CONTENT_BYTES,
  MAX_PDF_PAGES,
  SKIPPED,
} from '../budget.ts';
import { checkPdf } from './pdf-streams.ts';

export type PdfReading = { lines: TextLine[] } | { skipped: string };

interface PlacedText {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

interface PdfTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
}

/** Baselines closer than this share a line (fraction of the font size). */
const SAME_LINE = 0.4;
/** A gap wider than this starts a new cell (fraction of the font size): about three spaces. */
const NEW_CELL = 0.9;
/** A gap wider than this is a space between words. */
const NEW_WORD = 0.12;
/** Rows of one table are at most this far apart (baseline to baseline, in font sizes). */
const TABLE_ROW_GAP = 2;

/**
 * Wall-clock time any one step of pdf.js may take to settle. The budget bounds pdf.js's work; this
 * bounds a promise of it that would never settle (a bug on some input), which would otherwise hold
 * the import's job for ever.
 */
const PDF_STEP_DEADLINE_MS = 15_000;

class PdfStepDeadline extends Error {}

async function withDeadline<T>(step: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PdfStepDeadline('pdf.js did not answer')), PDF_STEP_DEADLINE_MS);
  });
  try {
    return await Promise.race([step, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

type Unpdf = typeof import('unpdf');
let unpdf: Promise<Unpdf> | null = null;
/** pdf.js is 1.6 MB of code: loaded on the first PDF, once per process (like the airport data). */
const loadUnpdf = (): Promise<Unpdf> => (unpdf ??= import('unpdf'));

export async function readPdf(bytes: Uint8Array, budget: ExtractionBudget): Promise<PdfReading> {
  const verdict = checkPdf(
    bytes,
    { maxExpandedBytes: MAX_EXPANDED_BYTES, maxContentBytes: MAX_PDF_CONTENT_BYTES },
    () => budget.check('checking a PDF'),
  );
  if (verdict === 'encrypted') return { skipped: SKIPPED.encrypted };
  if (verdict === 'expands-too-far') return { skipped: SKIPPED.expandsTooFar };
  if (verdict === 'too-much-content') return { skipped: SKIPPED.tooMuchContent };
  if (verdict === 'not-a-pdf') return { skipped: SKIPPED.unreadable };
  await budget.pause('checking a PDF');
  const { getDocumentProxy } = await budget.wait(loadUnpdf);
  let document;
  try {
    // a copy: the reader may take over the buffer it is given
    document = await withDeadline(
      getDocumentProxy(bytes.slice(), { verbosity: 0, stopAtErrors: true, disableFontFace: true }),
    );
  } catch {
    return { skipped: SKIPPED.unreadable };
  }
  try {
    if (document.numPages > MAX_PDF_PAGES) return { skipped: SKIPPED.tooManyPages };
    const lines: TextLine[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await withDeadline(document.getPage(number));
      const items: PdfTextItem[] = [];
      const reader = page.streamTextContent().getReader();
      try {
        for (let chunk = await withDeadline(reader.read()); !chunk.done; chunk = await withDeadline(reader.read())) {
          for (const item of chunk.value.items as PdfTextItem[]) items.push(item);
          budget.check('reading a PDF page');
        }
      } catch (error) {
        // stops pdf.js's work on the page (pdf.js wants an Error as the reason)
        await withDeadline(reader.cancel(error instanceof Error ? error : new Error(String(error)))).catch(
          () => undefined,
        );
        throw error;
      }
      for (const line of pageLines(items)) lines.push(line);
      page.cleanup();
      await budget.pause('reading a PDF page');
    }
    return { lines: breakOverlongLines(splitLongLines(lines)) };
  } catch (error) {
    if (error instanceof ExtractionGaveUp) throw error;
    return { skipped: SKIPPED.unreadable };
  } finally {
    await withDeadline(document.loadingTask.destroy()).catch(() => undefined);
  }
}

function placed(item: PdfTextItem): PlacedText | null {
  const text = item.str ?? '';
  const [a = 0, b = 0, , , x = 0, y = 0] = item.transform ?? [];
  if (!text.trim() || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  const size = Math.hypot(a, b) || item.height || 10;
  return { text, x, y, width: item.width ?? 0, size };
}

/** One page's text pieces to lines: by baseline from the top, each left to right. */
export function pageLines(items: PdfTextItem[]): TextLine[] {
  const pieces = items.map(placed).filter((piece): piece is PlacedText => piece !== null);
  pieces.sort((first, second) => second.y - first.y || first.x - second.x);
  const rows: PlacedText[][] = [];
  for (const piece of pieces) {
    const row = rows.at(-1);
    const anchor = row?.[0];
    if (row && anchor && Math.abs(anchor.y - piece.y) <= SAME_LINE * Math.max(anchor.size, piece.size)) row.push(piece);
    else rows.push([piece]);
  }
  const lines: TextLine[] = [];
  let table: { headers: string[]; starts: number[] } | null = null;
  let previousY = Infinity;
  for (const row of rows) {
    row.sort((first, second) => first.x - second.x);
    const cells = rowCells(row);
    const texts = cells.map((cell) => cell.text);
    const size = row[0]?.size ?? 10;
    // a table ends at a blank line, or at a row that does not fill half its columns
    const inTable =
      table !== null && previousY - (row[0]?.y ?? 0) <= TABLE_ROW_GAP * size && cells.length * 2 >= table.starts.length;
    previousY = row[0]?.y ?? 0;
    const aligned = table && inTable ? alignToColumns(cells, table.starts) : null;
    if (table && aligned) {
      lines.push({ text: rowText(texts), cells: aligned, headers: table.headers });
      continue;
    }
    table = isHeaderRow(texts)
      ? { headers: texts.map((text) => text.toLowerCase()), starts: cells.map((cell) => cell.x) }
      : null;
    lines.push({ text: rowText(texts), cells: texts, headers: table ? table.headers : null });
  }
  return lines;
}

/** Cells as an HTML table row reads them ('LH 180 | Frankfurt (FRA)'), a label with its value. */
function rowText(cells: string[]): string {
  return cells.reduce(
    (text, cell, index) => (index === 0 ? cell : `${text}${/:$/.test(text) ? ' ' : ' | '}${cell}`),
    '',
  );
}

function rowCells(row: PlacedText[]): { text: string; x: number }[] {
  const cells: { text: string; x: number; end: number }[] = [];
  for (const piece of row) {
    const cell = cells.at(-1);
    const gap = cell ? piece.x - cell.end : Infinity;
    if (cell && gap <= NEW_CELL * piece.size) {
      cell.text += gap > NEW_WORD * piece.size && !/\s$/.test(cell.text) ? ` ${piece.text}` : piece.text;
      cell.end = Math.max(cell.end, piece.x + piece.width);
    } else {
      cells.push({ text: piece.text, x: piece.x, end: piece.x + piece.width });
    }
  }
  return cells
    .map((cell) => ({ text: cell.text.replace(/\s+/g, ' ').trim(), x: cell.x }))
    .filter((cell) => cell.text !== '');
}

/** Column labels: several short cells, none with a digit. */
function isHeaderRow(texts: string[]): boolean {
  return texts.length >= 3 && texts.every((text) => text.length <= 30 && !/\d/.test(text));
}

/** A row's cells placed under the header's columns, or null when two fall in one column. */
function alignToColumns(cells: { text: string; x: number }[], starts: number[]): string[] | null {
  const out = starts.map(() => '');
  const tolerance = 4;
  for (const cell of cells) {
    let column = -1;
    for (const [index, start] of starts.entries()) if (cell.x >= start - tolerance) column = index;
    if (column < 0 || out[column] !== '') return null;
    out[column] = cell.text;
  }
  return out;
}
