// The files of a zip (an Apple Wallet .pkpass), read from its central directory: the entry count
// and the sizes the directory declares are checked before anything is decompressed, and only the
// files asked for are decompressed, each bounded by what it declared (inflate.ts), so a zip bomb
// (declared or lying) is refused before it costs more than its caps.
import { inflateWithin } from './inflate.ts';

export type ZipReading =
  | { files: Map<string, Uint8Array> }
  | { refused: 'unreadable' | 'too-many-entries' | 'expands-too-far' | 'expands-past-declared' };

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

export function readZip(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limits: { maxEntries: number; maxExpandedBytes: number },
): ZipReading {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => (at >= 0 && at + 4 <= bytes.length ? view.getUint32(at, true) : -1);
  const u16 = (at: number) => (at >= 0 && at + 2 <= bytes.length ? view.getUint16(at, true) : -1);
  // the end record sits in the last 22 bytes plus a comment of at most 65,535
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (u32(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return { refused: 'unreadable' };
  const count = u16(end + 10);
  if (count > limits.maxEntries) return { refused: 'too-many-entries' };
  const entries: Entry[] = [];
  let declared = 0;
  let at = u32(end + 16);
  for (let index = 0; index < count; index++) {
    if (u32(at) !== DIRECTORY_ENTRY) return { refused: 'unreadable' };
    const nameLength = u16(at + 28);
    const entry: Entry = {
      method: u16(at + 10),
      compressedSize: u32(at + 20),
      size: u32(at + 24),
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      localHeader: u32(at + 42),
    };
    // sizes of 0xFFFFFFFF mean zip64, which no pass needs
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) return { refused: 'unreadable' };
    declared += entry.size;
    if (declared > limits.maxExpandedBytes) return { refused: 'expands-too-far' };
    entries.push(entry);
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
  }
  const files = new Map<string, Uint8Array>();
  for (const entry of entries) {
    if (!wanted(entry.name)) continue;
    if (u32(entry.localHeader) !== LOCAL_HEADER) return { refused: 'unreadable' };
    const start = entry.localHeader + 30 + u16(entry.localHeader + 26) + u16(entry.localHeader + 28);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === STORED) {
      files.set(entry.name, data.slice(0, entry.size));
      continue;
    }
    if (entry.method !== DEFLATED) return { refused: 'unreadable' };
    // a file may not expand past what the directory declared for it (already within the caps)
    const inflated = inflateWithin(data, entry.size, true);
    if (inflated.overLimit) return { refused: 'expands-past-declared' };
    if (!inflated.bytes || inflated.size !== entry.size) return { refused: 'unreadable' };
    files.set(entry.name, inflated.bytes);
  }
  return { files };
}
