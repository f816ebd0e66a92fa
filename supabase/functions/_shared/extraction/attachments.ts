// Attachments: PDF e-tickets and itinerary receipts (attachments/pdf.ts: their text as lines, read
// by the same layers as a body) and Apple Wallet boarding passes (attachments/wallet-pass.ts).
// Each is checked against the caps before it is parsed (budget.ts); one past a cap, unreadable,
// or left when the attachments' own time budget runs out is skipped with the reason, and the
// body's bookings stand whatever happens to an attachment.
//
// An attachment's booking joins the body's booking with the same code (a body without a code and
// one attachment booking are the same booking): it fills what the body leaves out (legs the body
// does not print, times, seats, cabins, flight numbers, the total, the fare brand) and never
// overrides what the body states; its travellers join the party (names.ts mergeTravellers). One whose code the body does not
// have stands alone.
import { ExtractionBudget, ExtractionGaveUp, SKIPPED } from './budget.ts';
import type { TextLine } from './html.ts';
import { mergeTravellers } from './names.ts';
import { readPdf } from './attachments/pdf.ts';
import { readWalletPass } from './attachments/wallet-pass.ts';
import type { DraftBooking, DraftSegment, EmailMessage, LocalDateTime, SkippedAttachment } from './types.ts';

export interface AttachmentReading {
  /** The bookings the readable attachments state, in the message's order (not yet validated). */
  drafts: DraftBooking[];
  skipped: SkippedAttachment[];
}

/**
 * Reads the message's PDFs (their lines through `readLines`, the layers that read a body) and
 * Wallet passes. Past the budget, the attachment being read and those after it are skipped.
 */
export async function readAttachments(
  message: EmailMessage,
  budget: ExtractionBudget,
  readLines: (lines: TextLine[]) => Promise<DraftBooking[]>,
): Promise<AttachmentReading> {
  const reading: AttachmentReading = { drafts: [], skipped: [...message.skippedAttachments] };
  let outOfTime = false;
  for (const document of message.documents) {
    const skip = (reason: string) => reading.skipped.push({ filename: document.filename, reason });
    if (outOfTime) {
      skip(SKIPPED.tooSlow);
      continue;
    }
    try {
      if (document.kind === 'pdf') {
        const pdf = await readPdf(document.content, budget);
        if ('skipped' in pdf) skip(pdf.skipped);
        else reading.drafts.push(...(await readLines(pdf.lines)));
      } else {
        const pass = await readWalletPass(document.content, message.date);
        if ('skipped' in pass) skip(pass.skipped);
        else reading.drafts.push(pass.draft);
        await budget.pause('reading a Wallet pass');
      }
    } catch (error) {
      outOfTime = error instanceof ExtractionGaveUp;
      skip(outOfTime ? SKIPPED.tooSlow : SKIPPED.unreadable);
    }
  }
  return reading;
}

const dayOf = (segment: DraftSegment): string | null => {
  const local: LocalDateTime | null = segment.departureLocal;
  if (local) return `${local.year}-${local.month}-${local.day}`;
  return segment.departureUtc === null ? null : new Date(segment.departureUtc).toISOString().slice(0, 10);
};

/** The same flight: the same airports, and the same flight number and day where both know them. */
function sameLeg(first: DraftSegment, second: DraftSegment): boolean {
  if (first.departureAirport !== second.departureAirport || first.arrivalAirport !== second.arrivalAirport)
    return false;
  if (first.number && second.number && Number(first.number) !== Number(second.number)) return false;
  // local and UTC days can differ by one around midnight: compare days only when both are local
  if (first.departureLocal && second.departureLocal) return dayOf(first) === dayOf(second);
  return true;
}

function fillLeg(body: DraftSegment, extra: DraftSegment): DraftSegment {
  const bodyTimed = body.departureUtc !== null || body.departureLocal !== null;
  const bodyArrives = body.arrivalUtc !== null || body.arrivalLocal !== null;
  return {
    ...body,
    carrier: body.carrier ?? extra.carrier,
    number: body.number ?? extra.number,
    departureUtc: bodyTimed ? body.departureUtc : extra.departureUtc,
    departureLocal: bodyTimed ? body.departureLocal : extra.departureLocal,
    arrivalUtc: bodyArrives ? body.arrivalUtc : extra.arrivalUtc,
    arrivalLocal: bodyArrives ? body.arrivalLocal : extra.arrivalLocal,
    arrivalDayOffset: bodyArrives ? body.arrivalDayOffset : extra.arrivalDayOffset,
    cabinClass: body.cabinClass ?? extra.cabinClass,
    seatNumber: body.seatNumber ?? extra.seatNumber,
  };
}

/** What an attachment's booking adds to the body's booking with its code. */
export function joinBooking(body: DraftBooking, extra: DraftBooking): DraftBooking {
  const segments = body.segments.map((segment) => {
    const match = extra.segments.find((candidate) => sameLeg(segment, candidate));
    return match ? fillLeg(segment, match) : segment;
  });
  const missing = extra.segments.filter((candidate) => !body.segments.some((segment) => sameLeg(segment, candidate)));
  return {
    bookingCode: body.bookingCode || extra.bookingCode,
    airlineIata: body.airlineIata ?? extra.airlineIata,
    airlineName: body.airlineName ?? extra.airlineName,
    passengers: mergeTravellers(body.passengers, extra.passengers),
    statedPassengerCount: body.statedPassengerCount ?? extra.statedPassengerCount ?? null,
    segments: [...segments, ...missing],
    totalPrice: body.totalPrice ?? extra.totalPrice,
    fareType: body.fareType ?? extra.fareType,
  };
}

const sameCode = (first: string, second: string): boolean =>
  first !== '' && first.toUpperCase() === second.toUpperCase();

/**
 * The body's bookings with the attachments' joined in, in the body's order, then the attachments'
 * own bookings (those whose code the body does not have) in the attachments' order.
 */
export function joinAttachmentBookings(body: DraftBooking[], attachments: DraftBooking[]): DraftBooking[] {
  const joined = body.map((booking) => ({ ...booking }));
  const alone: DraftBooking[] = [];
  const codeless = joined.filter((booking) => booking.bookingCode === '');
  const distinctCodes = new Set(attachments.map((booking) => booking.bookingCode.toUpperCase()));
  for (const extra of attachments) {
    const index = joined.findIndex((booking) => sameCode(booking.bookingCode, extra.bookingCode));
    const target =
      index >= 0
        ? index
        : codeless.length === 1 && distinctCodes.size === 1
          ? joined.indexOf(codeless[0] as DraftBooking)
          : -1;
    if (target >= 0) {
      joined[target] = joinBooking(joined[target] as DraftBooking, extra);
      continue;
    }
    const own = alone.findIndex((booking) => sameCode(booking.bookingCode, extra.bookingCode));
    if (own >= 0) alone[own] = joinBooking(alone[own] as DraftBooking, extra);
    else alone.push(extra);
  }
  return [...joined, ...alone];
}
