// A small, forgiving HTML reader: enough of the HTML parsing rules for email markup (implied end
// tags of cells, rows and paragraphs, void and raw-text elements, entities) to build a tree for
// schema.org microdata and to render the visible text as lines. Malformed markup never throws;
// it only yields a flatter tree.

export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}
export type HtmlNode = HtmlElement | string;

const VOID_TAGS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const RAW_TEXT_TAGS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript']);
const MAX_DEPTH = 400;

const NAMED_ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  rsquo: '\u2019',
  lsquo: '\u2018',
  rdquo: '\u201d',
  ldquo: '\u201c',
  sbquo: '\u201a',
  bdquo: '\u201e',
  ndash: '\u2013',
  mdash: '\u2014',
  middot: '\u00b7',
  bull: '\u2022',
  hellip: '\u2026',
  rarr: '\u2192',
  larr: '\u2190',
  harr: '\u2194',
  rArr: '\u21d2',
  raquo: '\u00bb',
  laquo: '\u00ab',
  pound: '\u00a3',
  euro: '\u20ac',
  yen: '\u00a5',
  cent: '\u00a2',
  curren: '\u00a4',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  times: '\u00d7',
  deg: '\u00b0',
  plusmn: '\u00b1',
  sect: '\u00a7',
  para: '\u00b6',
  thinsp: ' ',
  ensp: ' ',
  emsp: ' ',
  zwnj: '',
  zwj: '',
  shy: '',
  iexcl: '\u00a1',
  iquest: '\u00bf',
  ordf: '\u00aa',
  ordm: '\u00ba',
  szlig: '\u00df',
  AElig: '\u00c6',
  aelig: '\u00e6',
  OElig: '\u0152',
  oelig: '\u0153',
  Oslash: '\u00d8',
  oslash: '\u00f8',
  Aring: '\u00c5',
  aring: '\u00e5',
  ETH: '\u00d0',
  eth: '\u00f0',
  THORN: '\u00de',
  thorn: '\u00fe',
  frac12: '\u00bd',
  frac14: '\u00bc',
  frac34: '\u00be',
  check: '\u2713',
  star: '\u2606',
  hearts: '\u2665',
  larrow: '\u2190',
  rarrow: '\u2192',
};
// Accented Latin letters: &Aacute; &egrave; &ouml; &ntilde; &ccedil; ...
const ACCENTS: Record<string, string> = {
  grave: '\u0300',
  acute: '\u0301',
  circ: '\u0302',
  tilde: '\u0303',
  uml: '\u0308',
  cedil: '\u0327',
};

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z][a-z0-9]{1,31});?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return whole;
      if (code === 0xa0) return ' ';
      try {
        return String.fromCodePoint(code);
      } catch {
        return whole;
      }
    }
    const named = NAMED_ENTITIES[body];
    if (named !== undefined) return named;
    const accent = /^([a-zA-Z])(grave|acute|circ|tilde|uml|cedil)$/.exec(body);
    if (accent && accent[1] && accent[2]) {
      return (accent[1] + (ACCENTS[accent[2]] ?? '')).normalize('NFC');
    }
    return whole;
  });
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(source)) !== null) {
    const name = (match[1] ?? '').toLowerCase();
    if (!name || name in attrs) continue;
    attrs[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attrs;
}

/** Tags whose opening closes an open element of the listed tags (within the same table/list). */
const IMPLIED_CLOSE: Record<string, string[]> = {
  td: ['td', 'th'],
  th: ['td', 'th'],
  tr: ['tr', 'td', 'th'],
  tbody: ['tbody', 'thead', 'tfoot', 'tr', 'td', 'th'],
  thead: ['tbody', 'thead', 'tfoot', 'tr', 'td', 'th'],
  tfoot: ['tbody', 'thead', 'tfoot', 'tr', 'td', 'th'],
  li: ['li'],
  p: ['p'],
  option: ['option'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
};
const SCOPE_BOUNDARY = new Set(['table', 'ul', 'ol', 'dl', 'select']);

/**
 * Where the tag that starts with its name at `from` ends (the index after its '>'), or -1 when the
 * document ends first. A quote opens an attribute value only right after '=' (as browsers read
 * it), and a value runs to its closing quote. One forward scan: the caller never scans the same
 * characters twice, which keeps parsing linear on hostile input (a document of unclosed '<a').
 */
function tagEnd(html: string, from: number): number {
  let i = from;
  while (i < html.length) {
    const char = html.charCodeAt(i);
    if (char === 62 /* > */) return i + 1;
    if (char === 61 /* = */) {
      i += 1;
      while (i < html.length && /\s/.test(html[i] ?? '')) i += 1;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close === -1) return -1;
        i = close + 1;
      }
      continue;
    }
    i += 1;
  }
  return -1;
}

const TAG_NAME = /\/?([a-zA-Z][a-zA-Z0-9:-]*)/y;
const RAW_TEXT_END: Record<string, RegExp> = Object.fromEntries(
  [...RAW_TEXT_TAGS].map((tag) => [tag, new RegExp(`</${tag}`, 'gi')]),
);

/**
 * Builds the tree in one pass over the document. A tag, comment or declaration the document ends
 * inside is dropped with the rest of the document, as browsers do (HTML's "EOF in tag" rules); so
 * no character is read more than a bounded number of times, whatever the markup.
 */
export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const current = (): HtmlElement => stack[stack.length - 1] ?? root;
  let index = 0; // start of the text not yet added
  let search = 0; // where to look for the next '<'
  while (search < html.length) {
    const open = html.indexOf('<', search);
    if (open === -1) break;
    let end: number;
    let rawTag: string | undefined;
    let attributes = '';
    const next = html[open + 1];
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      end = close === -1 ? html.length : close + 3;
    } else if (next === '!' || next === '?') {
      const close = html.indexOf('>', open + 2);
      end = close === -1 ? html.length : close + 1;
    } else {
      TAG_NAME.lastIndex = open + 1;
      const name = TAG_NAME.exec(html);
      if (!name) {
        search = open + 1; // a '<' that starts no tag is text
        continue;
      }
      end = tagEnd(html, TAG_NAME.lastIndex);
      if (end === -1) end = html.length;
      else {
        rawTag = name[1];
        attributes = html.slice(TAG_NAME.lastIndex, end - 1);
      }
    }
    if (open > index) current().children.push(decodeEntities(html.slice(index, open)));
    index = search = end;
    if (!rawTag) continue; // comment, doctype, processing instruction, or a tag cut off by the end
    const tag = rawTag.toLowerCase();
    const closing = html[open + 1] === '/';
    if (closing) {
      for (let i = stack.length - 1; i > 0; i--) {
        const element = stack[i];
        if (element && element.tag === tag) {
          stack.length = i;
          break;
        }
        if (element && SCOPE_BOUNDARY.has(element.tag) && tag !== element.tag) break;
      }
      continue;
    }
    const implied = IMPLIED_CLOSE[tag];
    if (implied) {
      for (let i = stack.length - 1; i > 0; i--) {
        const element = stack[i];
        if (!element || SCOPE_BOUNDARY.has(element.tag)) break;
        if (implied.includes(element.tag)) {
          stack.length = i;
          break;
        }
        if (tag === 'p' && element.tag !== 'span' && element.tag !== 'b' && element.tag !== 'font') break;
      }
    }
    const element: HtmlElement = { tag, attrs: parseAttributes(attributes), children: [] };
    current().children.push(element);
    const selfClosing = attributes.trimEnd().endsWith('/');
    const rawEnd = RAW_TEXT_END[tag];
    if (rawEnd) {
      // the raw text runs to its end tag, found by a case-insensitive search from here (never
      // by lower-casing the document, which a document of many such tags would make quadratic)
      rawEnd.lastIndex = index;
      const found = rawEnd.exec(html);
      const stop = found ? found.index : html.length;
      element.children.push(
        tag === 'script' || tag === 'style' ? html.slice(index, stop) : decodeEntities(html.slice(index, stop)),
      );
      const close = found ? html.indexOf('>', stop) : -1;
      index = search = close === -1 ? html.length : close + 1;
      continue;
    }
    if (!VOID_TAGS.has(tag) && !selfClosing && stack.length < MAX_DEPTH) stack.push(element);
  }
  if (index < html.length) current().children.push(decodeEntities(html.slice(index)));
  return root;
}

export function* walkElements(node: HtmlElement): Generator<HtmlElement> {
  const pending: HtmlElement[] = [node];
  while (pending.length > 0) {
    const element = pending.pop();
    if (!element) break;
    yield element;
    for (let i = element.children.length - 1; i >= 0; i--) {
      const child = element.children[i];
      if (child !== undefined && typeof child !== 'string') pending.push(child);
    }
  }
}

export function textContent(node: HtmlNode): string {
  if (typeof node === 'string') return node;
  if (node.tag === 'script' || node.tag === 'style') return '';
  let text = '';
  for (const child of node.children) text += textContent(child);
  return text;
}

// ---- rendering the visible text as lines ----

/** One visual line; table rows keep their cells and the header row of their table. */
export interface TextLine {
  text: string;
  cells: string[];
  headers: string[] | null;
}

const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'caption',
  'td',
  'th',
]);
const SKIPPED_TAGS = new Set(['script', 'style', 'head', 'title', 'noscript', 'template', 'del', 's', 'strike']);

function isHidden(element: HtmlElement): boolean {
  const style = (element.attrs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('line-through') || element.attrs.hidden !== undefined;
}

export function normalizeSpaces(text: string): string {
  return text
    .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000\t\f\v]/g, ' ')
    .replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

const SOFT_BREAK = '\uE000';
// Each pattern that starts with a run of spaces starts only where the run starts ((?<!...)): tried
// at every position inside a long run, each attempt would read to the run's end (quadratic).
const SOFT_BREAK_RUN = /(?<!\s)\s*\uE000[\s\uE000]*|\uE000[\s\uE000]*/g;
const SOFT_BREAK_BEFORE_LABEL =
  /(?<![\s\uE000])\s*\uE000[\s\uE000]*(?=\p{L}[\p{L}'’ ./]{0,30}(?:\([^()]{1,20}\))?\s?:\s)/gu;

const isSoftSpace = (char: string | undefined): boolean => char === SOFT_BREAK || (!!char && /\s/.test(char));

/** The text without spaces and soft breaks at either end (a scan from each end: linear). */
function trimSoftBreaks(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSoftSpace(text[start])) start += 1;
  while (end > start && isSoftSpace(text[end - 1])) end -= 1;
  return text.slice(start, end);
}

class LineWriter {
  lines: TextLine[] = [];
  private current = '';

  constructor(private readonly inCell: boolean) {}

  text(value: string): void {
    this.current += value.replace(/[\r\n]+/g, ' ');
  }

  breakLine(soft: boolean): void {
    if (soft && this.inCell) {
      // A <br> inside a cell before a label ('Fare: Saver<br>Total: $120') separates values like a
      // cell border; elsewhere ('JFK<br>08:05') it is a space.
      this.current += SOFT_BREAK;
      return;
    }
    const text = normalizeSpaces(
      trimSoftBreaks(this.current).replace(SOFT_BREAK_BEFORE_LABEL, ' | ').replace(SOFT_BREAK_RUN, ' '),
    );
    if (text) this.lines.push({ text, cells: [text], headers: null });
    this.current = '';
  }

  push(line: TextLine): void {
    this.breakLine(false);
    this.lines.push(line);
  }
}

function renderNode(node: HtmlNode, writer: LineWriter, depth: number): void {
  if (typeof node === 'string') {
    writer.text(node);
    return;
  }
  if (depth > MAX_DEPTH || SKIPPED_TAGS.has(node.tag) || isHidden(node)) return;
  if (node.tag === 'br') {
    writer.breakLine(true);
    return;
  }
  if (node.tag === 'table') {
    writer.breakLine(false);
    renderTable(node, writer, depth);
    writer.breakLine(false);
    return;
  }
  if (node.tag === 'pre') {
    // Preformatted text keeps its lines and its columns, as a plain-text body does: a ticket's
    // fixed-width table of legs is one row per line.
    const parts: string[] = [];
    preformattedText(node, parts, depth);
    for (const line of textToLines(parts.join(''))) writer.push(line);
    return;
  }
  const block = BLOCK_TAGS.has(node.tag);
  if (block) writer.breakLine(false);
  for (const child of node.children) renderNode(child, writer, depth + 1);
  if (block) writer.breakLine(false);
}

function preformattedText(node: HtmlElement, parts: string[], depth: number): void {
  for (const child of node.children) {
    if (typeof child === 'string') parts.push(child);
    else if (child.tag === 'br') parts.push('\n');
    else if (depth < MAX_DEPTH && !SKIPPED_TAGS.has(child.tag) && !isHidden(child))
      preformattedText(child, parts, depth + 1);
  }
}

function collectRows(table: HtmlElement, rows: HtmlElement[], depth: number): void {
  for (const child of table.children) {
    if (typeof child === 'string' || depth > MAX_DEPTH) continue;
    if (child.tag === 'tr') rows.push(child);
    else if (child.tag === 'tbody' || child.tag === 'thead' || child.tag === 'tfoot')
      collectRows(child, rows, depth + 1);
  }
}

function renderTable(table: HtmlElement, writer: LineWriter, depth: number): void {
  const rows: HtmlElement[] = [];
  collectRows(table, rows, depth);
  let headers: string[] | null = null;
  for (const row of rows) {
    if (isHidden(row)) continue;
    const cells: { lines: TextLine[]; header: boolean }[] = [];
    for (const cell of row.children) {
      if (typeof cell === 'string' || (cell.tag !== 'td' && cell.tag !== 'th')) continue;
      if (isHidden(cell)) {
        cells.push({ lines: [], header: false });
        continue;
      }
      const cellWriter = new LineWriter(true);
      for (const child of cell.children) renderNode(child, cellWriter, depth + 2);
      cellWriter.breakLine(false);
      cells.push({ lines: cellWriter.lines, header: cell.tag === 'th' });
    }
    if (cells.length === 0) continue;
    const simple = cells.every((cell) => cell.lines.length <= 1);
    if (!simple) {
      for (const cell of cells) for (const line of cell.lines) writer.push(line);
      continue;
    }
    const texts = cells.map((cell) => cell.lines[0]?.text ?? '');
    if (cells.every((cell) => cell.header) && texts.some((text) => text !== '')) {
      headers = texts.map((text) => text.toLowerCase());
    }
    const text = texts.filter((value) => value !== '').join(' | ');
    if (text) writer.push({ text, cells: texts, headers });
  }
}

export function htmlToLines(root: HtmlElement): TextLine[] {
  const writer = new LineWriter(false);
  renderNode(root, writer, 0);
  writer.breakLine(false);
  return writer.lines;
}

/**
 * Column separators: a pipe with the spaces around it, tabs, three or more spaces. The pipe's
 * leading spaces are matched only from the start of their run ((?<!\s)): tried at every position
 * of a long run of other white space (no-break spaces), each attempt would read to its end.
 */
const CELL_SEPARATOR = /(?<!\s)\s*\|\s*|\|\s*|\t+| {3,}/;

export function textCells(raw: string): string[] {
  return raw
    .split(CELL_SEPARATOR)
    .map((cell) => normalizeSpaces(cell))
    .filter((cell, index) => cell !== '' || index > 0);
}

/** Plain text to lines; ' | ', tab and wide-space separated columns become cells. */
export function textToLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  for (const raw of text.split(/\r?\n|\r/)) {
    const normalized = normalizeSpaces(raw);
    if (!normalized) continue;
    lines.push({ text: normalized, cells: textCells(raw), headers: null });
  }
  return lines;
}

/** A line this long with several clock times is an itinerary whose line breaks were lost. */
const LONG_LINE = 250;
const CLOCK_TIME = /(?<![\d:])\d{1,2}[:.h]\d{2}(?![\d:])/g;
const CAPITALISED = /^\p{Lu}/u;
const ALL_CAPS = /^\p{Lu}[\p{Lu}.'’]*$/u;

/**
 * Where the labels of a line start ('... 2027 Booking reference: QX7PLM Passenger: ...'): before
 * each ': ', the last capitalised word among the four before it ('Booking reference', 'Date of
 * issue', 'Flight 2'), or a run of up to three words in capitals ('BOOKING REF').
 */
function labelStarts(text: string): number[] {
  const starts: number[] = [];
  for (const colon of text.matchAll(/\s?:\s/g)) {
    const end = colon.index ?? 0;
    const from = Math.max(0, end - 60);
    const words = [...text.slice(from, end).matchAll(/\S+/g)];
    let pick = -1;
    for (let k = words.length - 1; k >= Math.max(0, words.length - 4); k--) {
      if (CAPITALISED.test(words[k]?.[0] ?? '')) {
        pick = k;
        break;
      }
    }
    if (pick < 0) continue;
    while (
      pick > words.length - 3 &&
      ALL_CAPS.test(words[pick]?.[0] ?? '') &&
      ALL_CAPS.test(words[pick - 1]?.[0] ?? '')
    )
      pick--;
    const start = from + (words[pick]?.index ?? 0);
    if (start > 0) starts.push(start);
  }
  return starts;
}

/**
 * Breaks a very long line back into lines at its labels ('... Booking reference: QX7PLM
 * Passenger: ...'), so that each label and each leg is read on its own line as it was printed.
 */
export function splitLongLines(lines: TextLine[]): TextLine[] {
  if (!lines.some((line) => line.text.length > LONG_LINE)) return lines;
  const out: TextLine[] = [];
  for (const line of lines) {
    if (line.text.length <= LONG_LINE || (line.text.match(CLOCK_TIME)?.length ?? 0) < 2) {
      out.push(line);
      continue;
    }
    let previous = 0;
    for (const start of [...labelStarts(line.text), line.text.length]) {
      const piece = line.text.slice(previous, start);
      const text = normalizeSpaces(piece);
      if (text) out.push({ text, cells: textCells(piece), headers: null });
      previous = start;
    }
  }
  return out;
}

/**
 * The longest line the extractor reads. The generic stages pair every token of a line with the
 * others (airports with times, labels with values), so a line's cost grows with the square of its
 * tokens; a printed itinerary line is far shorter than this, even one splitLongLines could not
 * break at labels.
 */
export const MAX_LINE_CHARS = 1_000;

/** Cuts lines longer than MAX_LINE_CHARS into pieces (at a space where there is one). */
export function breakOverlongLines(lines: TextLine[]): TextLine[] {
  if (!lines.some((line) => line.text.length > MAX_LINE_CHARS)) return lines;
  const out: TextLine[] = [];
  for (const line of lines) {
    if (line.text.length <= MAX_LINE_CHARS) {
      out.push(line);
      continue;
    }
    let rest = line.text;
    while (rest.length > 0) {
      let cut = rest.length <= MAX_LINE_CHARS ? rest.length : rest.lastIndexOf(' ', MAX_LINE_CHARS);
      if (cut <= 0) cut = Math.min(rest.length, MAX_LINE_CHARS);
      const piece = rest.slice(0, cut);
      const text = normalizeSpaces(piece);
      if (text) out.push({ text, cells: textCells(piece), headers: null });
      rest = rest.slice(cut);
    }
  }
  return out;
}
