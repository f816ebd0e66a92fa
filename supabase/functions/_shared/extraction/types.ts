// The engine's public output (the truth format of the development corpus) and the internal
// draft shapes that the extraction layers hand to validation.

export const CABIN_CLASSES = ['Economy', 'Premium Economy', 'Business', 'First'] as const;
export type CabinClass = (typeof CABIN_CLASSES)[number];

export interface FlightSegment {
  /** Carrier code, one space, number without leading zeros: `DL 423`. */
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
  /** ISO 8601 local time with the airport's UTC offset on that date. */
  departureTime: string;
  arrivalTime: string;
  /** The cabin the mail states; null when it states none (a booking-class letter alone is not a cabin). */
  cabinClass: CabinClass | null;
  seatNumber: string | null;
}

export interface Money {
  amountCents: number;
  currency: string;
}

export interface FlightBooking {
  airline: string;
  airlineIata: string;
  bookingCode: string;
  passengerLastName: string;
  /** Every traveller on the booking once, as 'Given Family' (deduplicated by names.ts `mergeTravellers`). */
  passengers: string[];
  /**
   * How many travel on the booking (the party): the count the mail states ('2 Adults, 1 Infant')
   * or the travellers it names, whichever is more; null when it does neither.
   */
  passengerCount: number | null;
  segments: FlightSegment[];
  isRoundTrip: boolean;
  totalPrice: Money | null;
  fareType: string | null;
}

export interface ExtractionResult {
  isFlightBooking: boolean;
  bookings: FlightBooking[];
  /** Why the email was not read to the end (too large, or over the time budget: budget.ts). */
  gaveUp?: string;
  /** Attachments of a kind the extractor reads that it did not read, and why (budget.ts). */
  skippedAttachments?: SkippedAttachment[];
}

export interface SkippedAttachment {
  filename: string;
  /** Said after the file name: 'is encrypted', 'expands past 20 MB'. */
  reason: string;
}

/** An attachment the extractor reads: a PDF, or an Apple Wallet pass (.pkpass). */
export interface AttachedDocument {
  filename: string;
  kind: 'pdf' | 'wallet-pass';
  content: Uint8Array;
}

/** A local wall-clock time as printed in the email, before the airport's zone is known. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** One leg as a layer found it; validation turns it into a FlightSegment or drops it. */
export interface DraftSegment {
  carrier: string | null;
  number: string | null;
  departureAirport: string;
  arrivalAirport: string;
  /** Exact instant (UTC milliseconds) when the source gave an offset (schema.org), else null. */
  departureUtc: number | null;
  arrivalUtc: number | null;
  departureLocal: LocalDateTime | null;
  arrivalLocal: LocalDateTime | null;
  /** Days to add to the departure date for the arrival when only a time was printed. */
  arrivalDayOffset: number | null;
  /** The date was printed once for this and the previous leg (a connection): it may roll over. */
  departureDateShared?: boolean;
  cabinClass: CabinClass | null;
  seatNumber: string | null;
}

export interface DraftBooking {
  bookingCode: string;
  airlineIata: string | null;
  airlineName: string | null;
  passengers: string[];
  /** The number of travellers the mail states, when it states one (names may be fewer). */
  statedPassengerCount?: number | null;
  segments: DraftSegment[];
  totalPrice: Money | null;
  fareType: string | null;
}

/** What the MIME layer hands on: the parts of one message that extraction reads. */
export interface EmailMessage {
  fromName: string;
  fromAddress: string;
  subject: string;
  /** The Date header, or null when missing or unreadable. */
  date: Date | null;
  text: string;
  html: string;
  attachments: { filename: string; mimeType: string; size: number }[];
  /** The text of calendar attachments (.ics), for the legs they describe. */
  calendars: string[];
  /** PDFs and Wallet passes within the caps (budget.ts), in the message's order. */
  documents: AttachedDocument[];
  /** PDFs and Wallet passes past the caps: not read. */
  skippedAttachments: SkippedAttachment[];
}
