// Flight and dashboard shapes as the api returns them (in camelCase). Money is
// integer cents in `currency`; dates 'YYYY-MM-DD'; timestamps ISO 8601.
import type { RebookingMethod, RefundForm } from '../fare-source/types.ts';
import type { FlightStatus } from '../flights/rules.ts';

export type { FlightStatus, RebookingMethod, RefundForm };

/**
 * What a drop is worth and whether it qualifies for an automatic rebooking under the owner's
 * thresholds (private.rebooking_verdict, migration 20261122000600_rebooking.sql). Cents.
 */
/**
 * How FareBack may act on a flight under its airline rule (private.flight_rebooking_mode):
 * 'automatic' changes it itself, 'approval' only after the traveller approves, 'assisted' the
 * traveller changes it with the airline, 'none' nothing can be changed.
 */
export const REBOOKING_MODES = ['automatic', 'approval', 'assisted', 'none'] as const;
export type RebookingMode = (typeof REBOOKING_MODES)[number];

/** The airline rule applied to a flight (public.airline_rules), as the verdict quotes it. */
export interface AppliedAirlineRule {
  /** null when no rule is on file at all (the default row was removed). */
  id: number | null;
  airlineCode: string | null;
  /** 'Delta Main Cabin: no change fee; the difference comes back as an eCredit valid 1 year'. */
  explanation: string;
  /** The airline's public policy page the rule comes from, in words. */
  source: string | null;
  changeAllowed: boolean | null;
  /** The rule's fee in the flight's currency, cents; null when the rule leaves it to the quote. */
  changeFee: number | null;
  refundForm: 'credit' | 'cash' | 'none' | null;
  creditValidMonths: number | null;
  creditTransferable: boolean | null;
}

export interface RebookingVerdict {
  /** Original price - current fare - change penalty; negative when the fee exceeds the drop, 0 without a drop. */
  netSavings: number;
  changePenalty: number | null;
  refundForm: RefundForm | null;
  /** An eligible fare whose net savings meet the owner's thresholds. */
  qualifies: boolean;
  /** The route crosses a border (null without a drop). */
  international: boolean | null;
  /** The smallest net figure the thresholds accept (null without a drop). */
  minNetSavings: number | null;
  /** One sentence: why it does or does not qualify. */
  reason: string;
  rebookingMode: RebookingMode;
  rule: AppliedAirlineRule;
}

export interface FlightPricePoint {
  price: number;
  checkedAt: string;
}

export interface Flight {
  id: number;
  userId: string;
  airline: string;
  flightNumber: string;
  bookingCode: string;
  passengerLastName: string;
  departureAirport: string;
  arrivalAirport: string;
  departureDate: string;
  returnDate: string | null;
  isRoundTrip: boolean;
  returnFlightNumber: string | null;
  currency: string;
  originalPrice: number;
  currentPrice: number | null;
  lowestPrice: number | null;
  highestPrice: number | null;
  lastChecked: string | null;
  fareType: string | null;
  isEligibleForRebooking: boolean;
  hasBeenRebooked: boolean;
  rebookingDate: string | null;
  rebookingPrice: number | null;
  airlineCredit: number | null;
  creditExpiryDate: string | null;
  creditReferenceNumber: string | null;
  /** Commission charged on this flight's rebooking (premium: plan rate of the credit), cents. */
  commissionAmount: number | null;
  /** The rate (percent) that commission was charged at, kept with the rebooking; null before one. */
  commissionRate: number | null;
  status: FlightStatus;
  /** 'source': FareBack changes the booking itself; 'assisted': the traveller changes it with the airline. */
  rebookingMethod: RebookingMethod;
  /** The fare source's id for the booking (a Duffel order id), when it has one. */
  sourceReference: string | null;
  emailSource: Record<string, unknown> | null;
  isManualEntry: boolean;
  canCancel: boolean;
  /**
   * FareBack still watches this flight: not rebooked, departed or cancelled, its day not past
   * (private.flight_is_watched). What the plan's flight limit and its counter count.
   */
  isWatched: boolean;
  cancellationFee: number | null;
  seatNumber: string | null;
  /** Null when the booking's email named no cabin. */
  cabinClass: string | null;
  /** How many travel on the booking, as its email counted or named them; null when not known. */
  passengerCount: number | null;
  notes: string | null;
  createdAt: string;
  /** Price checks, oldest first (the last 30). */
  priceHistory: FlightPricePoint[];
  /** The change penalty the fare source reported with the last quote, cents (null: not said). */
  changePenalty: number | null;
  /** How a difference comes back for this fare: airline credit or cash. */
  refundForm: RefundForm | null;
  rebookingVerdict: RebookingVerdict;
  /**
   * The quotes that confirmed the flight's latest drop, oldest first (the first showed it, the
   * second, taken through the job queue, confirmed it); null before a confirmed drop.
   */
  dropQuotes: DropQuote[] | null;
  /** How FareBack may act on this flight (the verdict's rebookingMode). */
  rebookingMode: RebookingMode;
  /** The airline rule applied, with its explanation (the verdict's rule). */
  rebookingRule: AppliedAirlineRule;
}

/** One quote of a drop's proof. */
export interface DropQuote {
  /** When the source quoted it (ISO). */
  quotedAt: string;
  /** The fare source's name ('simulated', 'duffel'). */
  source: string;
  /** The source's offer id for the fare, when it has one. */
  offerId: string | null;
  /** The quoted fare, cents. */
  price: number;
  currency: string;
}

/** `GET /api/flights` */
export interface FlightsResponse {
  flights: Flight[];
}

/** `GET /api/dashboard/stats`: money in cents. */
export interface DashboardStats {
  monitoredFlights: number;
  priceDropsFound: number;
  potentialSavings: number;
  actualSavings: number;
}

/** `POST /api/flights/manual` (201) */
export interface AddFlightResponse {
  flight: Flight;
  message: string;
}

/** `POST /api/flights/{id}/check-price` */
export interface CheckPriceResponse {
  flight: Flight;
  priceDropped: boolean;
  message: string;
}

/** `POST /api/flights/{id}/rebook` and `POST /api/flights/{id}/confirm-rebooking` */
export interface RebookResponse {
  flight: Flight;
  /** Airline credit gained, cents. */
  savings: number;
  /** Savings as percent of the original price, one decimal. */
  percentSaved: number;
  /** Commission added to the user's balance, cents (0 on the free plan). */
  commission: number;
  message: string;
}

/** `POST /api/admin/run-price-check` */
export interface RunPriceCheckResponse {
  checkedCount: number;
  priceDropsFound: number;
  message: string;
}

/** One airline of the product's list (`GET /api/airlines`): the dataset's name and code, and what FareBack adds. */
export interface Airline {
  /** IATA code, e.g. 'LH'. */
  code: string;
  name: string;
  /** FareBack changes this airline's changeable fares itself when it can retrieve the booking; otherwise it guides. */
  automaticRebooking: boolean;
  /** Fare brands the itinerary form offers, cheapest first; empty when not known. */
  fareBrands: string[];
  manageBookingUrl: string | null;
  flightStatusUrl: string | null;
}

export interface AirlinesResponse {
  airlines: Airline[];
}

export interface AirportsResponse {
  airports: { code: string; name: string; countryCode: string }[];
}
