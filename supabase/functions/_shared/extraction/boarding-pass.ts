// IATA bar-coded boarding pass data (BCBP, Resolution 792) printed as text under the barcode:
// 'M1SOLBERG/MINA MS    EQZP4TW FRATXLLH 0180 080Y012A0023 100'. The mandatory part of each leg
// is fixed-width: format 'M', number of legs, name (20), e-ticket flag, operating carrier's
// record locator (7), from, to, carrier (3), flight number (5), Julian day of the flight (3),
// compartment, seat (4), check-in sequence (5), status, then the size of the optional part. Mail
// renders often collapse the padding spaces, so the reader also accepts single spaces between the
// fields. It carries names, the booking code, flights and airports, but no clock time: it
// completes legs the body prints, never makes one.
import { mergeTravellers } from './names.ts';
import type { CabinClass, DraftBooking } from './types.ts';

export interface BoardingPassLeg {
  pnr: string;
  from: string;
  to: string;
  carrier: string;
  number: string;
  cabin: CabinClass | null;
  seat: string | null;
}

export interface BoardingPass {
  /** The name as encoded: 'SURNAME/GIVEN TITLE'. */
  name: string;
  legs: BoardingPassLeg[];
}

/** A pass with each leg's day of the year (the barcode's Julian date, 1-366): a Wallet pass's date. */
export interface DatedBoardingPass extends BoardingPass {
  legs: (BoardingPassLeg & { dayOfYear: number })[];
}

const FIRST_LEG =
  /(?<![A-Za-z0-9])M([1-4])([A-Z][A-Z'’ -]{0,19}\/[A-Z'’ -]{0,19}?)\s*(E?)([A-Z0-9]{5,7})\s+([A-Z]{3})([A-Z]{3})([A-Z0-9]{2}[A-Z ]?)\s*(\d{3,4}[A-Z ]?)\s*(\d{3})([A-Z])\s*(\d{1,3}[A-Z]|INF |GATE|STBY)?/g;
const NEXT_LEG =
  /(?<![A-Za-z0-9])([A-Z0-9]{5,7})\s+([A-Z]{3})([A-Z]{3})([A-Z0-9]{2}[A-Z ]?)\s*(\d{3,4}[A-Z ]?)\s*(\d{3})([A-Z])\s*(\d{1,3}[A-Z]|INF |GATE|STBY)?/g;

const COMPARTMENTS: [RegExp, CabinClass][] = [
  [/^[FAP]$/, 'First'],
  [/^[JCDIZR]$/, 'Business'],
  [/^[WEO]$/, 'Premium Economy'],
  [/^[YBHKLMNQSTUVGX]$/, 'Economy'],
];

function leg(fields: (string | undefined)[]): (BoardingPassLeg & { dayOfYear: number }) | null {
  const [pnr = '', from = '', to = '', carrier = '', flight = '', day = '', compartment = '', seat = ''] = fields;
  const number = /^0*(\d{1,4})/.exec(flight.trim())?.[1] ?? '';
  const dayOfYear = Number(day);
  if (!/[A-Z]/.test(pnr) || from === to || !number || Number(number) === 0 || dayOfYear < 1 || dayOfYear > 366)
    return null;
  const seatMatch = /^0*(\d{1,2}[A-K])$/.exec(seat.trim());
  return {
    pnr,
    from,
    to,
    carrier: carrier.trim(),
    number: String(Number(number)),
    cabin: COMPARTMENTS.find(([pattern]) => pattern.test(compartment))?.[1] ?? null,
    seat: seatMatch?.[1] ?? null,
    dayOfYear,
  };
}

/** Every boarding-pass string in `text`, with up to four legs each. */
export function findBoardingPasses(text: string): BoardingPass[] {
  return findDatedBoardingPasses(text).map((pass) => ({
    name: pass.name,
    legs: pass.legs.map(({ dayOfYear: _day, ...entry }) => entry),
  }));
}

export function findDatedBoardingPasses(text: string): DatedBoardingPass[] {
  const passes: DatedBoardingPass[] = [];
  for (const match of text.matchAll(FIRST_LEG)) {
    const count = Number(match[1]);
    // 'EQZP4TW': the e-ticket flag glued to a six-character locator.
    const token = `${match[3] ?? ''}${match[4] ?? ''}`;
    const pnr = token.length === 7 && token.startsWith('E') ? token.slice(1) : (match[4] ?? '');
    const first = leg([pnr, ...match.slice(5, 12)]);
    if (!first) continue;
    const legs = [first];
    const end = (match.index ?? 0) + match[0].length;
    const rest = text.slice(end, end + 400);
    for (const next of rest.matchAll(NEXT_LEG)) {
      if (legs.length >= count) break;
      const parsed = leg(next.slice(1, 9));
      if (parsed) legs.push(parsed);
    }
    passes.push({ name: (match[2] ?? '').trim().replace(/\s+/g, ' '), legs });
    if (passes.length >= 9) break;
  }
  return passes;
}

/**
 * What boarding passes add to the bookings read from the body: the booking code when the body
 * names none, the travellers the body does not name, and for each leg the body printed between the
 * same airports, its flight number, seat and cabin where the body left them out.
 */
export function applyBoardingPasses(
  drafts: DraftBooking[],
  passes: BoardingPass[],
  readName: (text: string) => string | null,
): DraftBooking[] {
  if (passes.length === 0) return drafts;
  return drafts.map((draft, index) => {
    const own = passes.filter((pass) => pass.legs.some((entry) => entry.pnr === draft.bookingCode));
    const relevant = own.length > 0 ? own : index === 0 ? passes : [];
    if (relevant.length === 0) return draft;
    const names = relevant.map((pass) => readName(pass.name)).filter((name): name is string => !!name);
    const firstLegs = relevant[0]?.legs ?? [];
    return {
      ...draft,
      bookingCode: draft.bookingCode || (firstLegs[0]?.pnr ?? ''),
      passengers: mergeTravellers(draft.passengers, names),
      segments: draft.segments.map((segment) => {
        const match = firstLegs.find(
          (entry) => entry.from === segment.departureAirport && entry.to === segment.arrivalAirport,
        );
        if (!match) return segment;
        return {
          ...segment,
          carrier: segment.carrier ?? match.carrier,
          number: segment.number ?? match.number,
          seatNumber: segment.seatNumber ?? match.seat,
          cabinClass: segment.cabinClass ?? match.cabin,
        };
      }),
    };
  });
}
