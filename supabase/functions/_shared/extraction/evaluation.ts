// Field-level scoring of extraction results against truth files (the corpus README's format).
// Every field of every truth booking and segment is one slot, null values included; predicted
// bookings are matched to truth bookings by booking code (else by order), segments by flight
// number and departure date (else by order). A slot counts as a true positive when both sides
// hold it and agree, a false negative when the truth holds it and the prediction misses or
// contradicts it, a false positive when the prediction holds it and the truth does not agree.
// Names compare case-insensitively. A predicted booking whose code is not in the truth is a
// false booking.
import type { ExtractionResult, FlightBooking, FlightSegment } from './types.ts';

export const BOOKING_FIELDS = [
  'airline',
  'airlineIata',
  'bookingCode',
  'passengerLastName',
  'passengers',
  'isRoundTrip',
  'totalPrice',
  'fareType',
] as const;
/** Scored only where the truth states them: truth files older than the field say nothing of it. */
export const OPTIONAL_BOOKING_FIELDS = ['passengerCount'] as const;
export const SEGMENT_FIELDS = [
  'flightNumber',
  'departureAirport',
  'arrivalAirport',
  'departureTime',
  'arrivalTime',
  'cabinClass',
  'seatNumber',
] as const;
export const ALL_FIELDS = [
  'isFlightBooking',
  ...BOOKING_FIELDS,
  ...OPTIONAL_BOOKING_FIELDS,
  ...SEGMENT_FIELDS,
] as const;
export type FieldName = (typeof ALL_FIELDS)[number];

export interface FieldCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface FieldError {
  field: FieldName;
  where: string;
  expected: unknown;
  actual: unknown;
}

export interface EmailScore {
  counts: Record<FieldName, FieldCounts>;
  errors: FieldError[];
  falseBookings: number;
}

const CASE_INSENSITIVE = new Set<FieldName>(['airline', 'passengerLastName', 'fareType']);

function emptyCounts(): Record<FieldName, FieldCounts> {
  return Object.fromEntries(ALL_FIELDS.map((field) => [field, { tp: 0, fp: 0, fn: 0 }])) as Record<
    FieldName,
    FieldCounts
  >;
}

function equal(field: FieldName, expected: unknown, actual: unknown): boolean {
  if (field === 'passengers') {
    const normal = (value: unknown): string[] =>
      Array.isArray(value) ? value.map((name) => String(name).toLowerCase().replace(/\s+/g, ' ').trim()).sort() : [];
    return JSON.stringify(normal(expected)) === JSON.stringify(normal(actual));
  }
  if (CASE_INSENSITIVE.has(field) && typeof expected === 'string' && typeof actual === 'string') {
    return expected.toLowerCase() === actual.toLowerCase();
  }
  return JSON.stringify(expected ?? null) === JSON.stringify(actual ?? null);
}

function record(
  score: EmailScore,
  field: FieldName,
  where: string,
  expected: unknown,
  actual: unknown,
  hasTruth: boolean,
  hasPrediction: boolean,
): void {
  const counts = score.counts[field];
  if (hasTruth && hasPrediction && equal(field, expected, actual)) {
    counts.tp++;
    return;
  }
  if (hasTruth) counts.fn++;
  if (hasPrediction) counts.fp++;
  score.errors.push({
    field,
    where,
    expected: hasTruth ? expected : '(none)',
    actual: hasPrediction ? actual : '(none)',
  });
}

function matchSegments(
  truth: FlightSegment[],
  predicted: FlightSegment[],
): [FlightSegment | null, FlightSegment | null][] {
  const pairs: [FlightSegment | null, FlightSegment | null][] = [];
  const used = new Set<number>();
  for (const segment of truth) {
    let index = predicted.findIndex(
      (candidate, i) =>
        !used.has(i) &&
        candidate.flightNumber === segment.flightNumber &&
        candidate.departureTime.slice(0, 10) === segment.departureTime.slice(0, 10),
    );
    if (index === -1)
      index = predicted.findIndex((candidate, i) => !used.has(i) && candidate.flightNumber === segment.flightNumber);
    if (index === -1) index = predicted.findIndex((_, i) => !used.has(i) && i === truth.indexOf(segment));
    if (index === -1) {
      pairs.push([segment, null]);
    } else {
      used.add(index);
      pairs.push([segment, predicted[index] ?? null]);
    }
  }
  predicted.forEach((segment, i) => {
    if (!used.has(i)) pairs.push([null, segment]);
  });
  return pairs;
}

export function scoreEmail(truth: ExtractionResult, predicted: ExtractionResult): EmailScore {
  const score: EmailScore = { counts: emptyCounts(), errors: [], falseBookings: 0 };
  record(score, 'isFlightBooking', 'email', truth.isFlightBooking, predicted.isFlightBooking, true, true);
  const used = new Set<number>();
  const pairs: [FlightBooking | null, FlightBooking | null][] = [];
  truth.bookings.forEach((booking, position) => {
    let index = predicted.bookings.findIndex(
      (candidate, i) => !used.has(i) && candidate.bookingCode === booking.bookingCode,
    );
    if (index === -1 && !used.has(position) && predicted.bookings[position]) index = position;
    if (index === -1) {
      pairs.push([booking, null]);
    } else {
      used.add(index);
      pairs.push([booking, predicted.bookings[index] ?? null]);
    }
  });
  predicted.bookings.forEach((booking, i) => {
    if (!used.has(i)) pairs.push([null, booking]);
  });
  for (const [expected, actual] of pairs) {
    if (actual && !truth.bookings.some((booking) => booking.bookingCode === actual.bookingCode)) score.falseBookings++;
    const where = `booking ${expected?.bookingCode ?? actual?.bookingCode ?? '?'}`;
    for (const field of BOOKING_FIELDS) {
      record(score, field, where, expected?.[field], actual?.[field], expected !== null, actual !== null);
    }
    for (const field of OPTIONAL_BOOKING_FIELDS) {
      if (expected && field in expected) record(score, field, where, expected[field], actual?.[field], true, !!actual);
    }
    for (const [segmentTruth, segmentActual] of matchSegments(expected?.segments ?? [], actual?.segments ?? [])) {
      const segmentWhere = `${where} ${segmentTruth?.flightNumber ?? segmentActual?.flightNumber ?? '?'}`;
      for (const field of SEGMENT_FIELDS) {
        record(
          score,
          field,
          segmentWhere,
          segmentTruth?.[field],
          segmentActual?.[field],
          segmentTruth !== null,
          segmentActual !== null,
        );
      }
    }
  }
  return score;
}

export function addCounts(total: Record<FieldName, FieldCounts>, part: Record<FieldName, FieldCounts>): void {
  for (const field of ALL_FIELDS) {
    total[field].tp += part[field].tp;
    total[field].fp += part[field].fp;
    total[field].fn += part[field].fn;
  }
}

export function f1(counts: FieldCounts): { precision: number; recall: number; f1: number } {
  const precision = counts.tp + counts.fp === 0 ? 1 : counts.tp / (counts.tp + counts.fp);
  const recall = counts.tp + counts.fn === 0 ? 1 : counts.tp / (counts.tp + counts.fn);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

export function totalCounts(counts: Record<FieldName, FieldCounts>): FieldCounts {
  const total = { tp: 0, fp: 0, fn: 0 };
  for (const field of ALL_FIELDS) {
    total.tp += counts[field].tp;
    total.fp += counts[field].fp;
    total.fn += counts[field].fn;
  }
  return total;
}

export { emptyCounts };
