// What a PDF's compressed streams expand to, measured before the PDF reader sees the file: pdf.js
// decodes a stream whole, into memory, when a page's text needs it, with no cap of its own, so a
// few kilobytes of zeros deflated a thousandfold (a decompression bomb) would become gigabytes.
// Each stream (the bytes between `stream` and `endstream`) is decoded through its filter chain:
// the first FlateDecode stage for real (inflate.ts, bounded), every other stage at its worst-case
// ratio, and image codecs not at all (reading text never decodes images, so image streams are
// not measured). Encrypted streams cannot be measured, so an encrypted PDF is not read at all.
//
// Two caps: everything pdf.js may decode (fonts, page content, object streams) together, and the
// part it interprets operator by operator (page content, forms, object streams), which costs far
// more per byte: pdf.js reads a page's text at a few hundred kilobytes a second, and between two
// of its text pieces nothing can stop it.
import { inflateWithin } from './inflate.ts';

export type PdfVerdict = 'readable' | 'not-a-pdf' | 'encrypted' | 'expands-too-far' | 'too-much-content';

export interface PdfLimits {
  /** All decoded streams but images. */
  maxExpandedBytes: number;
  /** Decoded page content, forms and object streams. */
  maxContentBytes: number;
}

/** Streams pdf.js decodes but does not interpret: font programs; and never decodes for text: images, metadata, files. */
const FONT_PROGRAM = /\/Length[123]\b|\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)\b/;
const NOT_DECODED = /\/Subtype\s*\/(?:Image|XML)\b|\/Type\s*\/(?:EmbeddedFile|Metadata)\b/;

/** How many times larger a stage's output can be than its input, at worst. */
const WORST_RATIO: Record<string, number> = {
  FlateDecode: 1032,
  Fl: 1032,
  // 12-bit codes, each at most the ~3,840-byte longest string of a full table
  LZWDecode: 2731,
  LZW: 2731,
  RunLengthDecode: 64,
  RL: 64,
  ASCIIHexDecode: 0.5,
  AHx: 0.5,
  // 'z' stands for four zero bytes
  ASCII85Decode: 4,
  A85: 4,
};
/** Images: decoded only to draw a page, never for its text. */
const IMAGE_CODECS = new Set(['DCTDecode', 'DCT', 'JPXDecode', 'CCITTFaxDecode', 'CCF', 'JBIG2Decode']);

const STREAM_START = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
/** The trailer (or cross-reference stream) entry that marks an encrypted file. */
const ENCRYPT_ENTRY = /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/;
const DICTIONARY_LOOKBACK = 4096;

function filtersOf(dictionary: string): string[] {
  const found = [...dictionary.matchAll(/\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/g)].at(-1)?.[1] ?? '';
  return [...found.matchAll(/\/([A-Za-z0-9]+)/g)].map((match) => match[1] ?? '');
}

/** Bytes the stream's filter chain can produce, at most (measured where it can be). */
function expandedSize(data: Uint8Array, filters: string[], limit: number, checkTime?: () => void): number {
  let size = data.length;
  for (const [index, filter] of filters.entries()) {
    if (IMAGE_CODECS.has(filter)) break;
    if (index === 0 && (filter === 'FlateDecode' || filter === 'Fl')) {
      // a zlib header (2 bytes) before the DEFLATE data
      const inflated = inflateWithin(data.subarray(2), limit, false, checkTime);
      size = inflated.size;
      continue;
    }
    const ratio = WORST_RATIO[filter];
    // a filter pdf.js does not know makes the stream unreadable: nothing more comes out
    if (ratio === undefined) break;
    size = size * ratio;
  }
  return size;
}

/**
 * Whether the PDF may be handed to the reader. Linear in the file: one pass over its bytes, each
 * stream's data read once (the search resumes after its `endstream`); `checkTime` runs while a
 * stream is decoded (the budget's check: it may throw to stop).
 */
export function checkPdf(bytes: Uint8Array, limits: PdfLimits, checkTime?: () => void): PdfVerdict {
  // one character per byte, so offsets in the text are offsets in the file
  const text = new TextDecoder('latin1').decode(bytes);
  if (!text.slice(0, 1024).includes('%PDF-')) return 'not-a-pdf';
  if (ENCRYPT_ENTRY.test(text)) return 'encrypted';
  let total = 0;
  let content = 0;
  let previousEnd = 0;
  STREAM_START.lastIndex = 0;
  for (let match = STREAM_START.exec(text); match; match = STREAM_START.exec(text)) {
    const dictionaryStart = Math.max(previousEnd, match.index - DICTIONARY_LOOKBACK);
    const before = text.slice(dictionaryStart, match.index);
    const objectStart = before.lastIndexOf(' obj');
    const dictionary = objectStart >= 0 ? before.slice(objectStart) : before;
    const dataStart = match.index + match[0].length;
    const endIndex = text.indexOf('endstream', dataStart);
    const dataEnd = endIndex < 0 ? text.length : endIndex;
    previousEnd = dataEnd;
    STREAM_START.lastIndex = dataEnd;
    if (NOT_DECODED.test(dictionary)) continue;
    const interpreted = !FONT_PROGRAM.test(dictionary);
    const room = interpreted
      ? Math.min(limits.maxExpandedBytes - total, limits.maxContentBytes - content)
      : limits.maxExpandedBytes - total;
    const size = expandedSize(bytes.subarray(dataStart, dataEnd), filtersOf(dictionary), room, checkTime);
    total += size;
    if (interpreted) content += size;
    if (total > limits.maxExpandedBytes) return 'expands-too-far';
    if (content > limits.maxContentBytes) return 'too-much-content';
  }
  return 'readable';
}
