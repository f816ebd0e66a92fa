// How a monitored flight reads on the dashboard's flight card: last-checked wording, status and
// eligibility badges, the side border colour, airline links and which footer action a card
// offers. Pure functions over the api's Flight shape, so the rules are unit-tested here and the
// React components only lay them out. The api never needs them: they are display rules only.
import type { Flight } from '@shared/types/flights.ts';
import { canRebook, flightSavings, roundPercent, savingsPercent } from '@shared/flights/rules.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * 'never', 'N minutes ago', 'N hours ago', or a date ('MMM d, yyyy'); minutes switch to
 * hours at 60 minutes and hours to the date at 24 hours. Counts are whole units rounded down.
 * Decided here: a count of one is singular ('1 minute ago', '1 hour ago'); a check under a minute
 * old reads '0 minutes ago' (the same form, no extra wording); a timestamp slightly in the
 * future (clock skew between server and browser) counts as now. The date is the viewer's local
 * calendar date of the check.
 */
export function lastCheckedLabel(lastChecked: string | null | undefined, now: Date): string {
  if (!lastChecked) return 'never';
  const checked = new Date(lastChecked);
  if (Number.isNaN(checked.getTime())) return 'never';
  const elapsed = Math.max(0, now.getTime() - checked.getTime());
  if (elapsed < HOUR_MS) return plural(Math.floor(elapsed / MINUTE_MS), 'minute');
  if (elapsed < DAY_MS) return plural(Math.floor(elapsed / HOUR_MS), 'hour');
  return `${MONTHS[checked.getMonth()]} ${checked.getDate()}, ${checked.getFullYear()}`;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

type SavingsFields = Pick<
  Flight,
  'originalPrice' | 'currentPrice' | 'hasBeenRebooked' | 'rebookingPrice' | 'airlineCredit'
>;

/** Savings (cents) and percent of the original price rounded to one decimal, as the card shows them. */
export function savingsSummary(flight: SavingsFields): { savings: number; percent: number } {
  const savings = flightSavings(flight);
  return { savings, percent: roundPercent(savingsPercent(savings, flight.originalPrice)) };
}

export type BadgeTone = 'green' | 'orange' | 'brand' | 'gray';

export interface NetSavingsView {
  /** Fare difference minus the change fee, cents (negative when the fee is larger). */
  amount: number;
  /** The change fee the fare source reported, cents (0 when it reported none). */
  fee: number;
  qualifies: boolean;
  badge: string;
  tone: BadgeTone;
  /** The api's sentence: why the drop does or does not qualify (private.rebooking_verdict). */
  reason: string;
}

/**
 * The net figure of a drop still to be claimed: what the traveller would get back after the
 * airline's change fee, and whether it meets their rebooking thresholds. Null when there is no
 * drop to show (no check yet, not below the price paid, already rebooked).
 */
export function netSavingsView(
  flight: Pick<
    Flight,
    'hasBeenRebooked' | 'currentPrice' | 'originalPrice' | 'rebookingVerdict' | 'isEligibleForRebooking'
  >,
): NetSavingsView | null {
  const verdict = flight.rebookingVerdict;
  if (
    flight.hasBeenRebooked ||
    !verdict ||
    flight.currentPrice === null ||
    flight.currentPrice >= flight.originalPrice
  ) {
    return null;
  }
  const fee = verdict.changePenalty ?? 0;
  // The first reason that stops a rebooking is the one shown: a fare that cannot be changed is
  // never 'below your threshold', however large the drop.
  const [badge, tone]: [string, BadgeTone] = verdict.qualifies
    ? ['Meets your rebooking threshold', 'green']
    : !flight.isEligibleForRebooking
      ? ['Fare cannot be changed', 'gray']
      : verdict.netSavings <= 0
        ? ['Change fee exceeds the drop', 'gray']
        : ['Below your rebooking threshold', 'orange'];
  return { amount: verdict.netSavings, fee, qualifies: verdict.qualifies, badge, tone, reason: verdict.reason };
}

export interface StatusBadge {
  kind: 'rebooked' | 'price_drop' | 'monitoring' | 'limited';
  label: string;
  tone: BadgeTone;
}

type BadgeFields = SavingsFields & Pick<Flight, 'status' | 'isEligibleForRebooking'>;

/**
 * By priority: rebooked -> 'Successfully Rebooked'; status price_drop -> the
 * percentage plus 'Price Drop Found'; eligible -> 'Monitoring'; otherwise 'Limited Monitoring'.
 */
export function statusBadge(flight: BadgeFields): StatusBadge {
  if (flight.hasBeenRebooked) return { kind: 'rebooked', label: 'Successfully Rebooked', tone: 'green' };
  if (flight.status === 'price_drop') {
    const { percent } = savingsSummary(flight);
    return { kind: 'price_drop', label: `${percent.toFixed(1)}% Price Drop Found`, tone: 'green' };
  }
  if (flight.isEligibleForRebooking) return { kind: 'monitoring', label: 'Monitoring', tone: 'brand' };
  return { kind: 'limited', label: 'Limited Monitoring', tone: 'orange' };
}

export function eligibilityBadge(flight: Pick<Flight, 'isEligibleForRebooking'>): { label: string; tone: BadgeTone } {
  return flight.isEligibleForRebooking
    ? { label: 'Eligible for rebooking', tone: 'green' }
    : { label: 'Not eligible for rebooking', tone: 'gray' };
}

/** The fare-type line under the card's eligibility badge. */
/** What FareBack does on a drop, by the airline rule's mode (the api's rebookingMode). */
const MODE_SENTENCES: Record<Flight['rebookingMode'], string> = {
  automatic: 'can be changed, so FareBack can rebook it when the price drops.',
  approval: 'can be changed, and FareBack rebooks it when the price drops once you approve the change.',
  assisted: 'can be changed with the airline; FareBack shows you what to ask for when the price drops.',
  none: 'is not refundable or changeable, so FareBack can alert you to price drops but cannot rebook it.',
};

/** The card's eligibility text: what the airline rulebook allows, quoting the rule applied. */
export function eligibilityExplanation(
  flight: Pick<Flight, 'fareType' | 'isEligibleForRebooking'> &
    Partial<Pick<Flight, 'rebookingMode' | 'rebookingRule'>>,
): string {
  const fare = flight.fareType ?? 'This fare';
  const mode = flight.rebookingMode ?? (flight.isEligibleForRebooking ? 'automatic' : 'none');
  const rule = flight.rebookingRule?.explanation;
  return `${fare} ${MODE_SENTENCES[mode]}${rule ? ` ${rule}.` : ''}`;
}

export type BorderTone = 'orange' | 'green' | 'primary' | 'gray';

/**
 * Status limited is orange; otherwise green when rebooked or a price drop was found,
 * the primary colour when eligible, else grey.
 */
export function borderTone(flight: Pick<Flight, 'status' | 'hasBeenRebooked' | 'isEligibleForRebooking'>): BorderTone {
  if (flight.status === 'limited') return 'orange';
  if (flight.hasBeenRebooked || flight.status === 'rebooked' || flight.status === 'price_drop') return 'green';
  if (flight.isEligibleForRebooking) return 'primary';
  return 'gray';
}

export type RebookingPath = 'source' | 'assisted';

/**
 * Which of the two rebooking paths a flight is on, in the card's words. FareBack rebooks on its
 * own only for a premium traveller who switched automatic rebooking on; on Free (or with it off)
 * it rebooks when the traveller clicks.
 */
export function rebookingPathLabel(method: RebookingPath, autoRebooking: boolean): string {
  if (method === 'assisted') return 'You change it with the airline; we guide you';
  return autoRebooking ? 'FareBack rebooks this for you' : 'FareBack rebooks it when you click Rebook at Lower Price';
}

interface AirlineSite {
  /** Matched against the airline's name, e.g. 'Delta Air Lines', 'Delta'. */
  pattern: RegExp;
  name: string;
  website: string;
  flightStatus: (flightNumber: string, date: string) => string;
  manageBooking: string;
}

/** Digits of a flight number ('UA1234' -> '1234'), which airline status pages ask for. */
function flightDigits(flightNumber: string): string {
  return flightNumber.replace(/^([A-Z]{2}|[A-Z]\d|\d[A-Z])(?=\d)/i, '').replace(/\D/g, '') || flightNumber;
}

// Flight status and manage booking links for these six airlines; other airlines get a search
// link. The status pages take the flight number (and date where the page reads one from the URL).
const AIRLINE_SITES: readonly AirlineSite[] = [
  {
    pattern: /\bdelta\b/i,
    name: 'Delta',
    website: 'https://www.delta.com/',
    flightStatus: (n, d) => `https://www.delta.com/flightstatus/search?flightNumber=${flightDigits(n)}&flightDate=${d}`,
    manageBooking: 'https://www.delta.com/mytrips/',
  },
  {
    pattern: /\bunited\b/i,
    name: 'United',
    website: 'https://www.united.com/',
    flightStatus: (n, d) => `https://www.united.com/en/us/flightstatus/details/${flightDigits(n)}/${d}`,
    manageBooking: 'https://www.united.com/en/us/manageres/mytrips',
  },
  {
    pattern: /\bamerican\b/i,
    name: 'American',
    website: 'https://www.aa.com/',
    flightStatus: (n) => `https://www.aa.com/travelInformation/flights/status?flightNumber=${flightDigits(n)}`,
    manageBooking: 'https://www.aa.com/reservation/view/find-your-trip',
  },
  {
    pattern: /\bsouthwest\b/i,
    name: 'Southwest',
    website: 'https://www.southwest.com/',
    flightStatus: (n) => `https://www.southwest.com/air/flight-status/?flightNumber=${flightDigits(n)}`,
    manageBooking: 'https://www.southwest.com/air/manage-reservation/',
  },
  {
    pattern: /\bjet ?blue\b/i,
    name: 'JetBlue',
    website: 'https://www.jetblue.com/',
    flightStatus: (n) => `https://www.jetblue.com/flight-tracker?flightNumber=${flightDigits(n)}`,
    manageBooking: 'https://www.jetblue.com/manage-trips',
  },
  {
    pattern: /\balaska\b/i,
    name: 'Alaska',
    website: 'https://www.alaskaair.com/',
    flightStatus: (n, d) => `https://www.alaskaair.com/status/${flightDigits(n)}/${d}`,
    manageBooking: 'https://www.alaskaair.com/booking/reservation-lookup',
  },
];

export type AirlineLinks =
  | { kind: 'airline'; airline: string; flightStatusUrl: string; manageBookingUrl: string; websiteUrl: string }
  | { kind: 'search'; searchUrl: string };

export function airlineLinks(flight: Pick<Flight, 'airline' | 'flightNumber' | 'departureDate'>): AirlineLinks {
  const site = AIRLINE_SITES.find((candidate) => candidate.pattern.test(flight.airline));
  if (!site) {
    const query = `${flight.airline} ${flight.flightNumber} flight status`;
    return { kind: 'search', searchUrl: `https://www.google.com/search?q=${encodeURIComponent(query)}` };
  }
  return {
    kind: 'airline',
    airline: site.name,
    flightStatusUrl: site.flightStatus(flight.flightNumber, flight.departureDate),
    manageBookingUrl: site.manageBooking,
    websiteUrl: site.website,
  };
}

/** Where the traveller checks a credit or changes a booking: the airline's manage-booking page, else a search. */
export function airlineManageUrl(flight: Pick<Flight, 'airline' | 'flightNumber' | 'departureDate'>): string {
  const links = airlineLinks(flight);
  if (links.kind === 'airline') return links.manageBookingUrl;
  return `https://www.google.com/search?q=${encodeURIComponent(`${flight.airline} manage booking`)}`;
}

export const NOT_ELIGIBLE_EXPLANATION =
  'Basic Economy and other non-refundable tickets cannot be changed automatically, so this price drop cannot be rebooked.';

export type RebookAction =
  | { kind: 'details'; label: 'View Rebooking Details' }
  | { kind: 'rebook'; label: 'Rebook at Lower Price' | 'Approve rebooking'; method: RebookingPath }
  | { kind: 'explanation'; text: string }
  | { kind: 'none'; label: 'No Price Drop' };

/**
 * The footer action after 'Check Now': a rebooked flight shows its details;
 * a price drop on an eligible fare can be rebooked (on the flight's path); a price drop on a
 * non-eligible fare explains why not; anything else is a disabled 'No Price Drop'.
 */
export function rebookAction(
  flight: Pick<Flight, 'status' | 'hasBeenRebooked' | 'isEligibleForRebooking' | 'rebookingMethod'> &
    Partial<Pick<Flight, 'rebookingMode'>>,
): RebookAction {
  if (flight.hasBeenRebooked) return { kind: 'details', label: 'View Rebooking Details' };
  if (canRebook(flight) && flight.rebookingMode === 'approval') {
    // the airline needs the traveller's approval (American Airlines): the button is that approval
    return { kind: 'rebook', label: 'Approve rebooking', method: flight.rebookingMethod };
  }
  if (canRebook(flight)) return { kind: 'rebook', label: 'Rebook at Lower Price', method: flight.rebookingMethod };
  if (flight.status === 'price_drop') return { kind: 'explanation', text: NOT_ELIGIBLE_EXPLANATION };
  return { kind: 'none', label: 'No Price Drop' };
}

/** The Missed Opportunity notice: a price drop found on a ticket that cannot be rebooked. */
export function isMissedOpportunity(
  flight: Pick<Flight, 'status' | 'hasBeenRebooked' | 'isEligibleForRebooking'>,
): boolean {
  return flight.status === 'price_drop' && !flight.isEligibleForRebooking && !flight.hasBeenRebooked;
}

/** Rebooking History's total-savings card: credits summed, as a percent of the original prices summed. */
export function totalSavings(flights: readonly Pick<Flight, 'airlineCredit' | 'originalPrice'>[]): {
  credits: number;
  originalTotal: number;
  percent: number;
} {
  const credits = flights.reduce((sum, f) => sum + Math.max(0, f.airlineCredit ?? 0), 0);
  const originalTotal = flights.reduce((sum, f) => sum + f.originalPrice, 0);
  return { credits, originalTotal, percent: roundPercent(savingsPercent(credits, originalTotal)) };
}

/** Tab 0 lists flights not yet rebooked; tab 1 the rebooked ones; tab 2 those with a credit above 0. */
export function monitoredFlights<F extends Pick<Flight, 'hasBeenRebooked'>>(flights: readonly F[]): F[] {
  return flights.filter((f) => !f.hasBeenRebooked);
}

export function rebookedFlights<F extends Pick<Flight, 'hasBeenRebooked'>>(flights: readonly F[]): F[] {
  return flights.filter((f) => f.hasBeenRebooked);
}

export function creditFlights<F extends Pick<Flight, 'hasBeenRebooked' | 'airlineCredit'>>(flights: readonly F[]): F[] {
  return flights.filter((f) => f.hasBeenRebooked && (f.airlineCredit ?? 0) > 0);
}
