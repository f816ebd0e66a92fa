// Bounded DEFLATE decompression (fflate's streaming inflater) for the compressed streams of a PDF
// and the files of a zip: the input is fed a kilobyte at a time, so the output can pass the limit
// by at most ~1 MB (deflate expands a byte to at most 1,032) before reading stops. Nothing is kept
// unless asked for: measuring a bomb costs its limit in time, never in memory.
import { Inflate } from 'fflate';

const CHUNK_BYTES = 1024;
/**
 * Input read with no output at all: the stream ended (trailing bytes) or is made of empty blocks.
 * Real streams never go this long without output (a stored block is at most 64 KB), and stopping
 * here keeps the inflater from re-copying trailing input after its end on every push.
 */
const MAX_SILENT_INPUT = 128 * 1024;

export interface Inflated {
  /** Bytes of output produced (past the limit: somewhere up to ~1 MB beyond it). */
  size: number;
  overLimit: boolean;
  /** Input that was not DEFLATE data, or stopped making output long before its end. */
  broken: boolean;
  /** The output, when `keep` was asked for and it stayed within the limit. */
  bytes: Uint8Array | null;
}

/** `checkTime` runs between chunks (the budget's check: it may throw to stop). */
export function inflateWithin(data: Uint8Array, limit: number, keep = false, checkTime?: () => void): Inflated {
  let size = 0;
  let silent = 0;
  const kept: Uint8Array[] = [];
  const inflater = new Inflate((chunk: Uint8Array) => {
    size += chunk.length;
    if (keep && size <= limit) kept.push(chunk);
    if (chunk.length > 0) silent = 0;
  });
  let broken = false;
  for (let at = 0; at < data.length && size <= limit; at += CHUNK_BYTES) {
    checkTime?.();
    const end = Math.min(at + CHUNK_BYTES, data.length);
    silent += end - at;
    try {
      inflater.push(data.subarray(at, end), end === data.length);
    } catch {
      // not DEFLATE data from here on: what came out before is all a reader gets
      broken = size === 0;
      break;
    }
    if (silent > MAX_SILENT_INPUT) {
      broken = size === 0;
      break;
    }
  }
  const overLimit = size > limit;
  return { size, overLimit, broken, bytes: keep && !overLimit ? concat(kept, size) : null };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
