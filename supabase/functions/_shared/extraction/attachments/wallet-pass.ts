// Apple Wallet boarding passes (.pkpass): a zip (zip.ts) whose pass.json holds the barcode
// message (IATA BCBP text, read by boarding-pass.ts) and the fields the pass shows (flight,
// times, seat), with manifest.json (each file's SHA-1) signed by `signature`. A pass whose
// pass.json does not match its manifest, or that lacks the manifest or the signature, was altered
// or broken on the way and is not read; the signature's certificate chain to Apple is not checked
// (no Apple root is at hand, and who sent the email is judged by the import's sender rules).
// The barcode gives names, the booking code, the flight, airports and seat; the clock times come
// from the pass's semantic tags or its departure and arrival fields, else the leg only completes
// one the body prints.
import { findDatedBoardingPasses } from '../boarding-pass.ts';
import { parseIsoDateTime } from '../airports.ts';
import { mergeTravellers } from '../names.ts';
import { MAX_EXPANDED_BYTES, MAX_ZIP_ENTRIES, SKIPPED } from '../budget.ts';
import type { DraftBooking, DraftSegment, LocalDateTime } from '../types.ts';
import { readZip } from './zip.ts';

export type PassReading = { draft: DraftBooking } | { skipped: string };

interface PassField {
  key?: unknown;
  label?: unknown;
  value?: unknown;
}

interface PassJson {
  organizationName?: unknown;
  relevantDate?: unknown;
  barcodes?: { message?: unknown }[];
  barcode?: { message?: unknown };
  boardingPass?: Record<string, PassField[] | unknown>;
  semantics?: {
    currentDepartureDate?: unknown;
    originalDepartureDate?: unknown;
    currentArrivalDate?: unknown;
    originalArrivalDate?: unknown;
  };
}

const PASS_FILES = new Set(['pass.json', 'manifest.json', 'signature']);
const ZIP_REFUSALS = {
  unreadable: SKIPPED.unreadable,
  'too-many-entries': SKIPPED.tooManyEntries,
  'expands-too-far': SKIPPED.expandsTooFar,
  'expands-past-declared': SKIPPED.expandsPastDeclared,
} as const;
const DEPARTURE_FIELD = /depart|abflug|d[ée]part|salida|boarding\s*time|^std$/i;
const ARRIVAL_FIELD = /arriv|ankunft|llegada|^sta$/i;

type Moment = { utcMillis: number } | { local: LocalDateTime } | { time: { hour: number; minute: number } };

export async function readWalletPass(bytes: Uint8Array, sent: Date | null): Promise<PassReading> {
  const zip = readZip(bytes, (name) => PASS_FILES.has(name), {
    maxEntries: MAX_ZIP_ENTRIES,
    maxExpandedBytes: MAX_EXPANDED_BYTES,
  });
  if ('refused' in zip) return { skipped: ZIP_REFUSALS[zip.refused] };
  const passBytes = zip.files.get('pass.json');
  if (!passBytes) return { skipped: SKIPPED.unreadable };
  if (!(await matchesManifest(passBytes, zip.files.get('manifest.json'), zip.files.get('signature'))))
    return { skipped: SKIPPED.brokenSignature };
  let pass: PassJson;
  try {
    pass = JSON.parse(new TextDecoder().decode(passBytes)) as PassJson;
  } catch {
    return { skipped: SKIPPED.unreadable };
  }
  if (typeof pass !== 'object' || pass === null) return { skipped: SKIPPED.unreadable };
  const messages = [...(Array.isArray(pass.barcodes) ? pass.barcodes : []), pass.barcode]
    .map((barcode) => barcode?.message)
    .filter((message): message is string => typeof message === 'string');
  const boarding = findDatedBoardingPasses(messages.join('\n'))[0];
  const legs = boarding?.legs ?? [];
  const first = legs[0];
  if (!boarding || !first) return { skipped: SKIPPED.noBarcode };

  const fields = passFields(pass);
  const semantics = pass.semantics ?? {};
  const departure =
    isoMoment(semantics.currentDepartureDate) ??
    isoMoment(semantics.originalDepartureDate) ??
    fieldMoment(fields, DEPARTURE_FIELD);
  const arrival =
    isoMoment(semantics.currentArrivalDate) ??
    isoMoment(semantics.originalArrivalDate) ??
    fieldMoment(fields, ARRIVAL_FIELD);
  const reference = isoMoment(pass.relevantDate);
  const referenceMillis = reference && 'utcMillis' in reference ? reference.utcMillis : (sent?.getTime() ?? null);
  const day = flightDay(first.dayOfYear, referenceMillis);
  const segments: DraftSegment[] = legs.map((leg, index) => ({
    carrier: leg.carrier,
    number: leg.number,
    departureAirport: leg.from,
    arrivalAirport: leg.to,
    // a pass's times belong to its first leg
    departureUtc: index === 0 ? utcOf(departure) : null,
    arrivalUtc: index === 0 ? utcOf(arrival) : null,
    departureLocal: index === 0 ? localOf(departure, day) : null,
    arrivalLocal: index === 0 ? localOf(arrival, day) : null,
    arrivalDayOffset: null,
    cabinClass: leg.cabin,
    seatNumber: leg.seat,
  }));
  return {
    draft: {
      bookingCode: first.pnr,
      airlineIata: first.carrier.length === 2 ? first.carrier : null,
      airlineName: typeof pass.organizationName === 'string' ? pass.organizationName : null,
      passengers: mergeTravellers([boarding.name]),
      segments,
      totalPrice: null,
      fareType: null,
    },
  };
}

async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes.slice()));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function matchesManifest(
  passJson: Uint8Array,
  manifest: Uint8Array | undefined,
  signature: Uint8Array | undefined,
): Promise<boolean> {
  // a detached PKCS #7 signature is a DER SEQUENCE
  if (!manifest || !signature || signature.length < 16 || signature[0] !== 0x30) return false;
  let hashes: unknown;
  try {
    hashes = JSON.parse(new TextDecoder().decode(manifest));
  } catch {
    return false;
  }
  const expected = (hashes as Record<string, unknown> | null)?.['pass.json'];
  return typeof expected === 'string' && expected.toLowerCase() === (await sha1Hex(passJson));
}

function passFields(pass: PassJson): PassField[] {
  const groups = pass.boardingPass && typeof pass.boardingPass === 'object' ? Object.values(pass.boardingPass) : [];
  return groups.filter(Array.isArray).flat() as PassField[];
}

function isoMoment(value: unknown): Moment | null {
  return typeof value === 'string' ? parseIsoDateTime(value) : null;
}

/** The first field labelled as a departure (or arrival) whose value is a date-time or a clock time. */
function fieldMoment(fields: PassField[], label: RegExp): Moment | null {
  for (const field of fields) {
    const name = `${typeof field.key === 'string' ? field.key : ''} ${typeof field.label === 'string' ? field.label : ''}`;
    if (!label.test(name) || typeof field.value !== 'string') continue;
    const iso = parseIsoDateTime(field.value);
    if (iso) return iso;
    const clock = /^(\d{1,2})[:.h](\d{2})$/.exec(field.value.trim());
    if (clock && Number(clock[1]) < 24 && Number(clock[2]) < 60)
      return { time: { hour: Number(clock[1]), minute: Number(clock[2]) } };
  }
  return null;
}

/** The date of a BCBP day of the year: the one nearest the pass's relevant date (or the email's). */
function flightDay(
  dayOfYear: number | null,
  reference: number | null,
): { year: number; month: number; day: number } | null {
  if (dayOfYear === null || reference === null) return null;
  const year = new Date(reference).getUTCFullYear();
  let best: Date | null = null;
  for (const candidate of [year - 1, year, year + 1]) {
    const date = new Date(Date.UTC(candidate, 0, dayOfYear));
    if (date.getUTCFullYear() !== candidate) continue;
    if (!best || Math.abs(date.getTime() - reference) < Math.abs(best.getTime() - reference)) best = date;
  }
  return best ? { year: best.getUTCFullYear(), month: best.getUTCMonth() + 1, day: best.getUTCDate() } : null;
}

const utcOf = (moment: Moment | null): number | null => (moment && 'utcMillis' in moment ? moment.utcMillis : null);

function localOf(
  moment: Moment | null,
  day: { year: number; month: number; day: number } | null,
): LocalDateTime | null {
  if (!moment) return null;
  if ('local' in moment) return moment.local;
  if ('time' in moment && day) return { ...day, ...moment.time };
  return null;
}
