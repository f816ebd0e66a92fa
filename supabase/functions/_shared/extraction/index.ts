// Itinerary extraction: one raw RFC 822 email in, the flight bookings it confirms out.
//
// Layers, in the order kitinerary taught the field: MIME decoding (postal-mime) -> forwarded
// message unwrapping -> schema.org FlightReservation markup (JSON-LD, microdata) -> the generic
// multilingual extractor, tuned per airline by the sender's domain or the airline code ->
// calendar attachments (.ics) merged in -> boarding-pass barcode text (BCBP) completing names,
// code and flights -> validation against the airport database (time zones,
// plausible legs, merged duplicates).
// Markup, when present, is the backbone; the text fills in what markup leaves out (fare brand,
// seats, total). The function never throws: unreadable input is simply not a booking.
import { parseEmail, type ParsedEmail, type RawEmailInput } from './mime.ts';
import {
  breakOverlongLines,
  htmlToLines,
  parseHtml,
  splitLongLines,
  textToLines,
  type HtmlElement,
  type TextLine,
} from './html.ts';
import { unwrapForwarded } from './forward.ts';
import { extractSchemaOrg } from './schema-org.ts';
import { airportCandidates, documentCabin, dropCancelledSections, extractGeneric } from './generic.ts';
import { lookupAirports, warmUpAirports } from './airports.ts';
import { airportNamesLoaded, loadAirportNames } from './airport-names.ts';
import { airlineBySender, type AirlineProfile } from './airlines.ts';
import { finalizeBooking, mergeBookings } from './validate.ts';
import { applyBoardingPasses, findBoardingPasses } from './boarding-pass.ts';
import { readName } from './names.ts';
import { calendarLegs, mergeCalendarLegs, parseCalendar, type CalendarEvent } from './calendar.ts';
import type { NumericDateOrder } from './dates.ts';
import type {
  CabinClass,
  DraftBooking,
  DraftSegment,
  EmailMessage,
  ExtractionResult,
  FlightBooking,
  SkippedAttachment,
} from './types.ts';
import {
  ATTACHMENTS_BUDGET_MS,
  ExtractionBudget,
  ExtractionGaveUp,
  GAVE_UP,
  MAX_BODY_CHARS,
  MAX_RAW_EMAIL_BYTES,
} from './budget.ts';
import { joinAttachmentBookings, readAttachments } from './attachments.ts';

export type { ExtractionResult, FlightBooking, FlightSegment, Money, CabinClass, SkippedAttachment } from './types.ts';
export type { RawEmailInput } from './mime.ts';
export { warmUpAirports };
export { EXTRACTION_BUDGET_MS, MAX_BODY_CHARS, MAX_RAW_EMAIL_BYTES } from './budget.ts';

const NOT_A_BOOKING: ExtractionResult = { isFlightBooking: false, bookings: [] };

export interface ExtractionOptions {
  /** The extractor's own time for this email (default EXTRACTION_BUDGET_MS; budget.ts). */
  budgetMs?: number;
}

const rawSize = (raw: RawEmailInput): number => (typeof raw === 'string' ? raw.length : raw.byteLength);

/**
 * Never throws. An email over the size caps, or whose reading outlasts the time budget, is not a
 * booking and says why (`gaveUp`); between stages the worker's other requests run.
 */
export async function extractFlightBookings(
  raw: RawEmailInput,
  options: ExtractionOptions = {},
): Promise<ExtractionResult> {
  return (await readFlightBookings(raw, options)).result;
}

/**
 * The message as parsed (null when it is over the byte cap or no message) and the bookings in it,
 * for a caller that also needs the message's headers: the message is decoded once.
 */
export async function readFlightBookings(
  raw: RawEmailInput,
  options: ExtractionOptions = {},
): Promise<{ email: ParsedEmail | null; result: ExtractionResult }> {
  if (rawSize(raw) > MAX_RAW_EMAIL_BYTES)
    return { email: null, result: { ...NOT_A_BOOKING, gaveUp: GAVE_UP.rawTooLarge } };
  const budget = new ExtractionBudget(options.budgetMs);
  let email: ParsedEmail;
  try {
    email = await parseEmail(raw);
  } catch {
    return { email: null, result: NOT_A_BOOKING };
  }
  try {
    await budget.pause('decoding the message');
    const skipped: SkippedAttachment[] = [];
    const withSkipped = (result: ExtractionResult): ExtractionResult =>
      skipped.length > 0 ? { ...result, skippedAttachments: skipped } : result;
    // An attached original (forward as attachment) is read before the wrapper around it.
    // one budget for all the attachments of the email, whichever message carries them
    const attachmentBudget = ExtractionBudget.forPart(ATTACHMENTS_BUDGET_MS);
    for (const message of [...email.attachedMessages, email]) {
      const { bookings, skippedAttachments } = await extractFromMessage(message, budget, attachmentBudget);
      skipped.push(...skippedAttachments);
      if (bookings.length > 0) return { email, result: withSkipped({ isFlightBooking: true, bookings }) };
    }
    return { email, result: withSkipped(NOT_A_BOOKING) };
  } catch (error) {
    if (error instanceof ExtractionGaveUp) return { email, result: { ...NOT_A_BOOKING, gaveUp: error.reason } };
    return { email, result: NOT_A_BOOKING };
  }
}

function numericDateOrder(text: string, airline: AirlineProfile | null): NumericDateOrder {
  for (const match of text.matchAll(/(?<![\d/])(\d{1,2})\/(\d{1,2})\/\d{2,4}(?![\d/])/g)) {
    if (Number(match[1]) > 12) return 'DMY';
    if (Number(match[2]) > 12) return 'MDY';
  }
  if (airline) return ['USD', 'CAD'].includes(airline.currency) && airline.iata !== 'EK' ? 'MDY' : 'DMY';
  return /\$/.test(text) ? 'MDY' : 'DMY';
}

const NON_FLIGHT_SUBJECT =
  /\b(hotel|room|your stay|check-?out|car rental|rental car|mietwagen|location de voiture|alquiler de coche|vacation rental|cruise|train|rail|bahn|bus ticket|lounge|parking|parkplatz|insurance|versicherung|assurance|seguro|policy|gift\s?cards?|gutschein)\b/i;
const FLIGHT_SUBJECT =
  /\b(flight|flug|flüge|vol|vols|vuelo|airline|e-?ticket|boarding|itinerary|reiseplan|itin[ée]raire|pnr)\b/i;

/** Promotions, price alerts and check-in reminders name flights, codes and prices but confirm nothing. */
const NOT_A_CONFIRMATION_SUBJECT =
  /\b(?:sale|deals?|offers?|newsletter|price\s+alert|prices?\s+(?:dropped|drop|fell|are\s+down)|angebote?|rabatt|sparen|promo(?:tion)?s?|soldes|ofertas?)\b|\b(?:from|ab|d[èe]s|desde|[àa]\s+partir\s+de)\s+(?:EUR|USD|GBP|CAD|AUD|[$€£])?\s?\d[\d.,]*\s?(?:€|EUR\b)?(?=[\s!.,;:–-]|$)(?<=[$€£]\s?\d[\d.,]*|\d\s?(?:€|EUR)|(?:EUR|USD|GBP|CAD|AUD)\s?\d[\d.,]*)|\d+\s?%\s+(?:off|rabatt|de\s+r[ée]duction)\b/i;
/** Reminders, upsells and surveys about a booked trip: the booking was confirmed elsewhere. */
const ABOUT_A_BOOKED_TRIP_SUBJECT =
  /\b(?:check[- ]?in\s+(?:now|is\s+(?:now\s+)?open|opens?)|time\s+to\s+check[- ]?in|jetzt\s+einchecken|check-?in\s+ist\s+ge[öo]ffnet|enregistrez-vous|enregistrement\s+(?:est\s+)?ouvert|haz\s+(?:el\s+)?check-?in|coming\s+up|days?\s+to\s+go|get\s+ready\s+for|how\s+was\s+your|rate\s+your|tell\s+us\s+about|feedback|survey|complete\s+your\s+trip|add\s+(?:a\s+)?(?:hotel|car|bags?|seats?|extras?)|upgrade\s+(?:your|to))\b/i;
const STRICT_CONFIRMATION_SUBJECT =
  /\b(?:confirm(?:ed|ation)|receipt|e-?ticket|bestätigung|confirmaci[óo]n|schedule\s+change|(?:has|have)\s+changed)\b/i;
const CONFIRMATION_SUBJECT =
  /\b(?:confirm(?:ed|ation)?|receipt|e-?ticket|itinerary|booking|booked|reservation|purchase|bestätigung|buchung|réservation|confirmaci[óo]n|reserva(?:ci[óo]n)?|schedule|change[ds]?|your\s+trip)\b/i;

const CHECK_IN_OPEN =
  /^\s*(?:(?:online|mobile|web)\s+)?check-?in\s+(?:is\s+)?(?:now\s+)?open\b|^\s*(?:it['’]s\s+)?time\s+to\s+check\s+in\b|^\s*check\s+in\s+now\b|^\s*(?:der\s+)?online-check-in\s+ist\s+(?:jetzt\s+)?ge[öo]ffnet|^\s*l['’]enregistrement\s+(?:en\s+ligne\s+)?est\s+ouvert|^\s*(?:el\s+)?check-?in\s+(?:online\s+)?(?:ya\s+)?est[áa]\s+abierto/i;
const CONFIRMATION_WORDS =
  /\bconfirm(?:ed|ation)\b|\breceipt\b|\bthank\s+you\s+for\s+(?:your\s+)?(?:booking|purchase)|\btotal\b|\bbestätig|\bconfirmaci[óo]n\b|\bconfirm[ée]e?\b|\bgesamt(?:preis|betrag)\b|\bmontant\b/i;

/** Newsletter fine print: the recipient subscribed to offers, nothing was bought. */
const MARKETING_FOOTER =
  /\bunsubscribe\b|\byou\s+(?:are\s+)?receiv(?:e|ed|ing)\s+this\s+(?:e-?mail|newsletter|message)\s+because\s+you\s+(?:subscribed|signed\s+up|opted\s+in)|\bnewsletter\s+abbestellen\b|\babmelden\b|\bse\s+d[ée]sabonner\b|\bd[ée]sinscri|\bdarse\s+de\s+baja\b|\bcancelar\s+(?:la\s+)?suscripci[óo]n\b/i;

/** A cancelled trip (not one flight replaced by another) is no longer a booking. */
const CANCELLED_BOOKING =
  /\b(?:your|this|the)\s+(?:trip|booking|reservation|itinerary)\s+(?:has\s+been|was|is\s+now)\s+(?:fully\s+)?cancel+ed\b|\bwe(?:'ve|’ve|\s+have)\s+cancel+ed\s+(?:your|this)\s+(?:trip|booking|reservation|itinerary)\b|\bcancel+ation\s+confirm(?:ation|ed)\b|\bno\s+longer\s+booked\b|\b(?:buchung|reise)\s+(?:wurde|ist)\s+storniert\b|stornierungsbest[äa]tigung|\br[ée]servation\s+(?:a\s+[ée]t[ée]\s+|est\s+)annul[ée]e|confirmation\s+d['’]annulation|\breserva\s+(?:ha\s+sido\s+|fue\s+)cancelada|confirmaci[óo]n\s+de\s+(?:la\s+)?cancelaci[óo]n/i;
/** A new itinerary in the same email: a change or rebooking, still a booking. */
const REPLACEMENT_ITINERARY =
  /\b(?:new|updated|revised|rebooked)\s+(?:flights?|itinerary|trip|booking)\b|\bneue[rn]?\s+(?:flug|reiseverlauf)|\bnouvel(?:le)?\s+(?:vol|itin[ée]raire)|\bnuevo\s+(?:vuelo|itinerario)/i;
/** Abandoned carts, holds and quotes: the trip was priced but not bought. */
const NOT_PURCHASED =
  /\b(?:isn['’]t|is\s+not|not\s+yet|has\s+not\s+been|hasn['’]t\s+been)\s+(?:booked|purchased|ticketed|paid)\b|\b(?:prices?|fares?|availability)\b[^.]{0,40}\bnot\s+guaranteed\s+until\b|\bcomplete\s+your\s+(?:booking|purchase|reservation)\b(?!\s+with)|\bfinish\s+(?:your\s+)?booking\b|\bstill\s+thinking\s+about\b|\byou\s+left\s+something\s+behind\b/i;
/** Fine print of a real confirmation ('If your booking was cancelled ...') states conditions. */
const CONDITIONAL = /\b(?:if|when|whether|should|unless|in case|wenn|falls|sofern|si|lorsque|en caso)\b/i;

function notABookingAnyMore(subject: string, lines: TextLine[]): boolean {
  const statements = [subject, ...lines.map((line) => line.text)].filter(
    (text) => text.length <= 240 && !CONDITIONAL.test(text),
  );
  if (statements.some((text) => NOT_PURCHASED.test(text))) return true;
  return (
    statements.some((text) => CANCELLED_BOOKING.test(text)) &&
    !lines.some((line) => REPLACEMENT_ITINERARY.test(line.text))
  );
}

interface MessageBookings {
  bookings: FlightBooking[];
  skippedAttachments: SkippedAttachment[];
}

async function extractFromMessage(
  message: EmailMessage,
  budget: ExtractionBudget,
  attachmentBudget: ExtractionBudget,
): Promise<MessageBookings> {
  if (message.html.length > MAX_BODY_CHARS) throw new ExtractionGaveUp(GAVE_UP.bodyTooLarge('HTML'));
  if (message.text.length > MAX_BODY_CHARS) throw new ExtractionGaveUp(GAVE_UP.bodyTooLarge('text'));
  let tree: HtmlElement | null = null;
  const sources: TextLine[][] = [];
  if (message.html) {
    tree = parseHtml(message.html);
    await budget.pause('parsing the HTML');
    sources.push(breakOverlongLines(splitLongLines(htmlToLines(tree))));
    await budget.pause('rendering the HTML');
  }
  if (message.text) {
    sources.push(breakOverlongLines(splitLongLines(textToLines(message.text))));
    await budget.pause('reading the text');
  }
  // Markup that names airports without their codes needs the index of airport names.
  if (/FlightReservation/i.test(message.html) && !/iataCode/i.test(message.html)) await budget.wait(loadAirportNames);
  const structured = tree ? extractSchemaOrg(tree) : [];
  await budget.pause('reading schema.org markup');
  let firstRead: BodyDrafts | null = null;
  for (const lines of sources) {
    const read = await draftsFromLines(lines, message, structured, budget);
    if (!read) continue;
    firstRead ??= read;
    const bookings = await finalizeDrafts(read.drafts, read, budget);
    if (bookings.length === 0) continue;
    if (message.documents.length === 0) return { bookings, skippedAttachments: message.skippedAttachments };
    return await withAttachments(message, read, budget, attachmentBudget);
  }
  // every part of the body says it is no booking (a cancellation, an offer, a hotel): nor are its attachments
  if (sources.length > 0 && !firstRead) return { bookings: [], skippedAttachments: [] };
  if (message.documents.length === 0) return { bookings: [], skippedAttachments: message.skippedAttachments };
  return await withAttachments(message, firstRead, budget, attachmentBudget);
}

/**
 * The body's bookings (as drafts) with the attachments' joined in (attachments.ts). The
 * attachments have their own time (ATTACHMENTS_BUDGET_MS); the body's clock stops meanwhile.
 */
async function withAttachments(
  message: EmailMessage,
  body: BodyDrafts | null,
  budget: ExtractionBudget,
  attachmentBudget: ExtractionBudget,
): Promise<MessageBookings> {
  const origin = body ?? undefined;
  const reading = await budget.wait(() =>
    attachmentBudget.run(() =>
      readAttachments(
        message,
        attachmentBudget,
        async (lines) => (await draftsFromLines(lines, message, [], attachmentBudget, origin))?.drafts ?? [],
      ),
    ),
  );
  const drafts = joinAttachmentBookings(body?.drafts ?? [], reading.drafts);
  const context: BodyDrafts = body ?? {
    drafts,
    sender: airlineBySender(message.fromAddress),
    fromAddress: message.fromAddress,
    fromName: message.fromName,
    subject: message.subject,
    sent: message.date,
    marketing: false,
    structuredCodes: new Set(),
  };
  return { bookings: await finalizeDrafts(drafts, context, budget), skippedAttachments: reading.skipped };
}

/** A body read to bookings not yet validated, with what validation needs to know about it. */
interface BodyDrafts {
  drafts: DraftBooking[];
  sender: AirlineProfile | null;
  fromAddress: string;
  fromName: string;
  subject: string;
  sent: Date | null;
  /** The body has a marketing footer (unsubscribe...). */
  marketing: boolean;
  /** Codes of the bookings schema.org markup states. */
  structuredCodes: Set<string>;
}

/**
 * The bookings that lines (a body, or a PDF attachment's text) state, before validation; null when
 * the message is not a booking (an offer, a cancellation, a reminder, a hotel). `origin` is the
 * body an attachment came with: its (forwarded) sender, subject and date.
 */
async function draftsFromLines(
  lines: TextLine[],
  message: EmailMessage,
  structured: DraftBooking[],
  budget: ExtractionBudget,
  origin?: Pick<BodyDrafts, 'fromAddress' | 'fromName' | 'subject' | 'sent'>,
): Promise<BodyDrafts | null> {
  const unwrapped = unwrapForwarded(lines, origin?.subject ?? message.subject);
  const body = dropCancelledSections(unwrapped.lines);
  await budget.pause('unwrapping a forward');
  const fromAddress = unwrapped.fromAddress ?? origin?.fromAddress ?? message.fromAddress;
  const fromName = unwrapped.fromName ?? origin?.fromName ?? message.fromName;
  const subject = unwrapped.subject ?? origin?.subject ?? message.subject;
  const sender = airlineBySender(fromAddress);
  const text = body.map((line) => line.text).join('\n');

  if (notABookingAnyMore(subject, body)) return null;
  if (structured.length === 0 && NOT_A_CONFIRMATION_SUBJECT.test(subject) && !CONFIRMATION_SUBJECT.test(subject))
    return null;
  if (
    structured.length === 0 &&
    ABOUT_A_BOOKED_TRIP_SUBJECT.test(subject) &&
    !STRICT_CONFIRMATION_SUBJECT.test(subject)
  )
    return null;
  // 'Check-in is now open' as a heading, and no word of a confirmation or a price anywhere.
  if (
    structured.length === 0 &&
    body.some((line) => CHECK_IN_OPEN.test(line.text)) &&
    !CONFIRMATION_WORDS.test(subject) &&
    !body.some((line) => CONFIRMATION_WORDS.test(line.text))
  )
    return null;
  // Hotel, car and rail mail mentions airports, flight numbers and confirmation numbers; only
  // markup (or an airline sender) lets such a message through.
  if (structured.length === 0 && !sender && NON_FLIGHT_SUBJECT.test(subject) && !FLIGHT_SUBJECT.test(subject))
    return null;

  await budget.pause('reading the subject');
  await budget.wait(warmUpAirports);
  const events: CalendarEvent[] = message.calendars.flatMap(parseCalendar);
  const eventLines = events.flatMap((event) => event.lines.map((text) => ({ text, cells: [text], headers: null })));
  const codes = airportCandidates([...body, ...eventLines]);
  for (const booking of structured) {
    for (const segment of booking.segments) codes.add(segment.departureAirport).add(segment.arrivalAirport);
  }
  const airports = await budget.wait(() => lookupAirports(codes));
  if (events.length > 0) await budget.wait(loadAirportNames);
  const extraCarriers = new Set(
    structured.flatMap((booking) => booking.segments.map((segment) => segment.carrier ?? '')).filter(Boolean),
  );
  const sent = unwrapped.date ?? origin?.sent ?? message.date;
  const genericContext = {
    sent,
    dateOrder: numericDateOrder(text, sender),
    airline: sender,
    subject,
    airports,
    extraCarriers,
    budget,
  };
  await budget.pause('finding airports');
  const notes = { placeNamesWanted: false };
  let generic = extractGeneric(body, genericContext, notes);
  await budget.pause('reading the itinerary');
  // Places named without codes need the index of airport names, built on first need: read again.
  if (!airportNamesLoaded() && (notes.placeNamesWanted || generic.every((booking) => booking.segments.length === 0))) {
    await budget.wait(loadAirportNames);
    generic = extractGeneric(body, genericContext);
    await budget.pause('reading place names');
  }

  const drafts: DraftBooking[] = [];
  if (structured.length > 0) {
    const cabin = documentCabin(body, sender);
    for (const booking of structured) drafts.push(enrichFromText(booking, generic, cabin));
    for (const booking of generic) {
      if (booking.bookingCode && !structured.some((known) => known.bookingCode === booking.bookingCode)) {
        drafts.push(booking);
      }
    }
  } else {
    drafts.push(...generic);
  }
  const legs = events.length > 0 ? calendarLegs(events, new Set(airports.keys())) : [];
  if (legs.length > 0) drafts.splice(0, drafts.length, ...mergeCalendarLegs(drafts, legs));
  // Names, the code and flight numbers that only a boarding pass's barcode text carries.
  const passes = findBoardingPasses(text);
  if (passes.length > 0) {
    const completed = applyBoardingPasses(drafts, passes, (name) => readName(name)?.name ?? null);
    drafts.splice(0, drafts.length, ...completed);
  }
  await budget.pause('reading boarding passes');
  return {
    drafts,
    sender,
    fromAddress,
    fromName,
    subject,
    sent,
    marketing: body.some((line) => MARKETING_FOOTER.test(line.text)),
    structuredCodes: new Set(structured.map((booking) => booking.bookingCode)),
  };
}

async function finalizeDrafts(
  drafts: DraftBooking[],
  read: BodyDrafts,
  budget: ExtractionBudget,
): Promise<FlightBooking[]> {
  const context = { sender: read.sender, senderName: read.fromName || null };
  const finalized: FlightBooking[] = [];
  for (const draft of drafts) {
    budget.check('validating the bookings');
    const booking = await finalizeBooking(draft, context);
    if (!booking) continue;
    // Read from text alone in marketing mail, a booking with no traveller is an offer: its
    // 'code' is a discount code and its flights are the ones on sale.
    const fromText = !read.structuredCodes.has(booking.bookingCode);
    if (fromText && read.marketing && booking.passengers.length === 0) continue;
    finalized.push(booking);
  }
  return mergeBookings(finalized);
}

/** Markup lacks the fare brand and often seats or the total: take them from the text. */
function enrichFromText(booking: DraftBooking, generic: DraftBooking[], cabin: CabinClass | null): DraftBooking {
  const text =
    generic.find((candidate) => candidate.bookingCode === booking.bookingCode) ??
    (generic.length === 1 ? generic[0] : undefined);
  // Markup has no cabin: the one the text names, when the text has no leg of its own for it.
  const withCabin = (segment: DraftSegment): DraftSegment => ({ ...segment, cabinClass: segment.cabinClass ?? cabin });
  if (!text) return { ...booking, segments: booking.segments.map(withCabin) };
  const segments = booking.segments.map((segment) => {
    const match = text.segments.find(
      (candidate) =>
        candidate.departureAirport === segment.departureAirport && candidate.arrivalAirport === segment.arrivalAirport,
    );
    if (!match) return withCabin(segment);
    // Partial markup (a departure without an arrival): the text's times complete the leg.
    const timeless = segment.departureUtc === null && segment.departureLocal === null;
    const noArrival = segment.arrivalUtc === null && segment.arrivalLocal === null;
    return {
      ...segment,
      departureLocal: timeless ? match.departureLocal : segment.departureLocal,
      arrivalLocal: noArrival ? match.arrivalLocal : segment.arrivalLocal,
      arrivalDayOffset: noArrival ? match.arrivalDayOffset : segment.arrivalDayOffset,
      seatNumber: segment.seatNumber ?? match.seatNumber,
      cabinClass: segment.cabinClass ?? match.cabinClass,
      carrier: segment.carrier ?? match.carrier,
      number: segment.number ?? match.number,
    };
  });
  return {
    ...booking,
    segments,
    passengers: booking.passengers.length > 0 ? booking.passengers : text.passengers,
    totalPrice: text.totalPrice ?? booking.totalPrice,
    fareType: booking.fareType ?? text.fareType,
  };
}
