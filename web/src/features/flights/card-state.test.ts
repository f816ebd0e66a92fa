import { describe, expect, it } from 'vitest';
import { buildFlight } from '@/testing/factories';
import { CARD_STATE_RULES, cardState, localDate, type CardStateRule } from './card-state';

// Before the factory's departure (2027-03-14).
const now = new Date(2027, 2, 10, 12, 0);

describe('cardState', () => {
  it.each([
    ['cancelled', { status: 'cancelled' as const }, 'Cancelled by airline', 'red', true],
    ['departed', { status: 'departed' as const }, 'Departed', 'gray', true],
    ['rebooking', { status: 'rebooking' as const }, 'Rebooking in progress', 'blue', false],
    ['awaiting_approval', { awaitingApproval: true }, 'Awaiting your approval', 'purple', true],
  ])('gives %s its own badge and border, with the actions off and why', (kind, over, label, tone, canStop) => {
    const state = cardState({ ...buildFlight(), ...over }, now);
    expect(state).toMatchObject({ kind, badge: { label, tone }, border: tone, canStopMonitoring: canStop });
    expect(state.actionsOffReason).toEqual(expect.any(String));
  });

  it('reads a flight whose day has passed as departed before any job marks it', () => {
    const state = cardState(buildFlight({ status: 'monitoring', departureDate: '2027-03-09' }), now);
    expect(state.kind).toBe('departed');
    expect(cardState(buildFlight({ departureDate: '2027-03-10' }), now).kind).toBe('monitoring');
  });

  it('puts a cancellation before everything, a rebooking before a departure', () => {
    expect(cardState(buildFlight({ status: 'cancelled', hasBeenRebooked: true }), now).kind).toBe('cancelled');
    expect(cardState(buildFlight({ status: 'cancelled', departureDate: '2026-01-01' }), now).kind).toBe('cancelled');
    const rebooked = cardState(
      buildFlight({ status: 'rebooked', hasBeenRebooked: true, departureDate: '2026-01-01' }),
      now,
    );
    expect(rebooked).toMatchObject({ kind: 'rebooked', badge: { label: 'Successfully Rebooked' } });
    expect(rebooked.canStopMonitoring).toBe(false);
  });

  it('leaves the actions on for the fare states, with the spec badge and border', () => {
    expect(cardState(buildFlight(), now)).toMatchObject({
      kind: 'monitoring',
      badge: { label: 'Monitoring' },
      border: 'primary',
      actionsOffReason: null,
    });
    expect(
      cardState(buildFlight({ status: 'price_drop', originalPrice: 40000, currentPrice: 35000 }), now),
    ).toMatchObject({ kind: 'price_drop', badge: { label: '12.5% Price Drop Found' }, border: 'green' });
    expect(cardState(buildFlight({ status: 'limited', isEligibleForRebooking: false }), now)).toMatchObject({
      kind: 'limited',
      badge: { label: 'Limited Monitoring', tone: 'orange' },
      border: 'orange',
      actionsOffReason: null,
    });
  });

  it('takes another state as one more rule', () => {
    const party: CardStateRule = (flight) =>
      flight.passengerCount === 9
        ? {
            kind: 'limited',
            badge: { label: 'Party too large', tone: 'orange' },
            border: 'orange',
            actionsOffReason: 'x',
            canStopMonitoring: true,
          }
        : null;
    const rules = [party, ...CARD_STATE_RULES];
    expect(cardState(buildFlight({ passengerCount: 9 }), now, rules).badge.label).toBe('Party too large');
    expect(cardState(buildFlight(), now, rules).badge.label).toBe('Monitoring');
  });

  it("compares with the viewer's local date", () => {
    expect(localDate(new Date(2027, 0, 5, 23, 59))).toBe('2027-01-05');
  });
});
