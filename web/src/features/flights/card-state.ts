// The one story a flight card tells: which state the flight is in, the badge and side border that
// say so, and whether the card's actions (Check Now, the rebook action, Stop monitoring) can be
// used, with the sentence saying why not. The states are an ordered list of rules, the first that
// matches wins: life-cycle states (cancelled, rebooked, departed, being rebooked, awaiting
// approval) before the fare states the spec orders (price drop, monitoring, limited). Another
// state (an approval step, a party price) plugs in as one more rule in CARD_STATE_RULES, not as
// another condition inside the card. Pure functions, unit-tested in card-state.test.ts.
import type { Flight } from '@shared/types/flights.ts';
import { borderTone, statusBadge, type BadgeTone, type BorderTone } from './display';

export type CardTone = BadgeTone | BorderTone | 'red' | 'purple' | 'blue';

/** Chakra colour tokens of the card's side border. */
export const CARD_BORDER_COLOURS: Record<CardTone, string> = {
  orange: 'orange.500',
  green: 'green.500',
  brand: 'brand.solid',
  primary: 'brand.solid',
  gray: 'gray.300',
  red: 'red.500',
  purple: 'purple.500',
  blue: 'blue.500',
};

export type CardStateKind =
  'cancelled' | 'rebooked' | 'departed' | 'rebooking' | 'awaiting_approval' | 'price_drop' | 'monitoring' | 'limited';

export interface CardState {
  kind: CardStateKind;
  badge: { label: string; tone: CardTone };
  border: CardTone;
  /**
   * Null while the fare is still FareBack's to watch and act on; otherwise why Check Now and the
   * rebook action are off, shown on the card beside the disabled buttons.
   */
  actionsOffReason: string | null;
  /** Whether 'Stop monitoring' can be pressed (the api refuses it while a rebooking runs). */
  canStopMonitoring: boolean;
}

/**
 * The approval flow (issue 24) marks a flight whose cheaper fare waits for the traveller's yes.
 * Until its field lands in the api's Flight, the card reads it when present.
 */
export type CardStateInput = Flight & { awaitingApproval?: boolean };

export type CardStateRule = (flight: CardStateInput, today: string) => CardState | null;

/** The viewer's local calendar date, 'YYYY-MM-DD', which a departure date is compared with. */
export function localDate(now: Date): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

const cancelled: CardStateRule = (flight) =>
  flight.status === 'cancelled'
    ? {
        kind: 'cancelled',
        badge: { label: 'Cancelled by airline', tone: 'red' },
        border: 'red',
        actionsOffReason:
          'The airline cancelled this flight, so there is no fare to check or rebook. Ask the airline for a refund or a new flight.',
        canStopMonitoring: true,
      }
    : null;

const rebooked: CardStateRule = (flight) =>
  flight.hasBeenRebooked || flight.status === 'rebooked'
    ? {
        kind: 'rebooked',
        badge: { label: 'Successfully Rebooked', tone: 'green' },
        border: 'green',
        actionsOffReason: 'Rebooked flights are no longer price-checked.',
        // History keeps a rebooked flight with its credit; there is nothing to stop.
        canStopMonitoring: false,
      }
    : null;

// A flight whose day has passed has departed, whether or not a job has marked it yet (the api
// stops watching it the same day: private.flight_is_watched).
const departed: CardStateRule = (flight, today) =>
  flight.status === 'departed' || flight.departureDate < today
    ? {
        kind: 'departed',
        badge: { label: 'Departed', tone: 'gray' },
        border: 'gray',
        actionsOffReason: 'This flight has departed, so its fare can no longer be checked or rebooked.',
        canStopMonitoring: true,
      }
    : null;

const rebooking: CardStateRule = (flight) =>
  flight.status === 'rebooking'
    ? {
        kind: 'rebooking',
        badge: { label: 'Rebooking in progress', tone: 'blue' },
        border: 'blue',
        actionsOffReason: 'FareBack is rebooking this flight now. This card updates when the airline confirms.',
        canStopMonitoring: false,
      }
    : null;

const awaitingApproval: CardStateRule = (flight) =>
  flight.awaitingApproval === true
    ? {
        kind: 'awaiting_approval',
        badge: { label: 'Awaiting your approval', tone: 'purple' },
        border: 'purple',
        actionsOffReason:
          'A cheaper fare is waiting for your approval. FareBack rebooks only after you approve it from the email we sent.',
        canStopMonitoring: true,
      }
    : null;

// The spec's status badge (price drop, monitoring, limited monitoring) and border.
const fareState: CardStateRule = (flight) => {
  const status = statusBadge(flight);
  return {
    kind: status.kind === 'rebooked' ? 'price_drop' : status.kind,
    badge: { label: status.label, tone: status.tone },
    border: borderTone(flight),
    actionsOffReason: null,
    canStopMonitoring: true,
  };
};

/** In priority order; the last rule always matches. */
export const CARD_STATE_RULES: readonly CardStateRule[] = [
  cancelled,
  rebooked,
  departed,
  rebooking,
  awaitingApproval,
  fareState,
];

export function cardState(
  flight: CardStateInput,
  now: Date,
  rules: readonly CardStateRule[] = CARD_STATE_RULES,
): CardState {
  const today = localDate(now);
  for (const rule of rules) {
    const state = rule(flight, today);
    if (state) return state;
  }
  throw new Error('cardState: no rule matched; the last rule must always match');
}
