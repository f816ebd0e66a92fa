import { describe, expect, it } from 'vitest';
import {
  airlineLinks,
  airlineManageUrl,
  borderTone,
  creditFlights,
  eligibilityBadge,
  isMissedOpportunity,
  lastCheckedLabel,
  monitoredFlights,
  netSavingsView,
  rebookAction,
  rebookedFlights,
  rebookingPathLabel,
  savingsSummary,
  statusBadge,
  totalSavings,
} from './display';
import { buildAppliedRule, buildFlight } from '@/testing/factories';
import type { Flight } from '@shared/types/flights.ts';

describe('lastCheckedLabel', () => {
  const now = new Date('2027-03-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it('reads never without a check or with an unreadable timestamp', () => {
    expect(lastCheckedLabel(null, now)).toBe('never');
    expect(lastCheckedLabel(undefined, now)).toBe('never');
    expect(lastCheckedLabel('not a date', now)).toBe('never');
  });

  it.each([
    [0, '0 minutes ago'],
    [59_999, '0 minutes ago'],
    [60_000, '1 minute ago'],
    [119_999, '1 minute ago'],
    [5 * 60_000, '5 minutes ago'],
    [59 * 60_000 + 59_999, '59 minutes ago'],
  ])('counts whole minutes under an hour (%i ms -> %s)', (ms, label) => {
    expect(lastCheckedLabel(ago(ms), now)).toBe(label);
  });

  it('switches to hours at 60 minutes', () => {
    expect(lastCheckedLabel(ago(60 * 60_000), now)).toBe('1 hour ago');
    expect(lastCheckedLabel(ago(2 * 3_600_000 - 1), now)).toBe('1 hour ago');
    expect(lastCheckedLabel(ago(2 * 3_600_000), now)).toBe('2 hours ago');
    expect(lastCheckedLabel(ago(24 * 3_600_000 - 1), now)).toBe('23 hours ago');
  });

  it('switches to the date at 24 hours', () => {
    const checked = new Date(now.getTime() - 24 * 3_600_000);
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const expected = `${months[checked.getMonth()]} ${checked.getDate()}, ${checked.getFullYear()}`;
    expect(lastCheckedLabel(checked.toISOString(), now)).toBe(expected);
    expect(lastCheckedLabel('2026-12-25T12:00:00', now)).toBe('Dec 25, 2026');
  });

  it('treats a check slightly in the future (clock skew) as just made', () => {
    expect(lastCheckedLabel(new Date(now.getTime() + 30_000).toISOString(), now)).toBe('0 minutes ago');
  });
});

describe('savingsSummary', () => {
  it('is the potential saving with one-decimal percent before rebooking', () => {
    expect(savingsSummary(buildFlight({ originalPrice: 30000, currentPrice: 26300 }))).toEqual({
      savings: 3700,
      percent: 12.3,
    });
  });

  it('is 0 when the current price is not lower', () => {
    expect(savingsSummary(buildFlight({ currentPrice: 45000 }))).toEqual({ savings: 0, percent: 0 });
    expect(savingsSummary(buildFlight({ currentPrice: null }))).toEqual({ savings: 0, percent: 0 });
  });

  it('is the airline credit after rebooking', () => {
    const rebooked = buildFlight({ hasBeenRebooked: true, rebookingPrice: 35000, airlineCredit: 5000 });
    expect(savingsSummary(rebooked)).toEqual({ savings: 5000, percent: 12.5 });
  });
});

describe('statusBadge', () => {
  it('puts rebooked first, whatever the status', () => {
    const flight = buildFlight({ hasBeenRebooked: true, status: 'price_drop', airlineCredit: 5000 });
    expect(statusBadge(flight)).toEqual({ kind: 'rebooked', label: 'Successfully Rebooked', tone: 'green' });
  });

  it('shows the percentage with a price drop, eligible or not', () => {
    const drop = { status: 'price_drop' as const, originalPrice: 40000, currentPrice: 35000 };
    expect(statusBadge(buildFlight(drop)).label).toBe('12.5% Price Drop Found');
    expect(statusBadge(buildFlight({ ...drop, isEligibleForRebooking: false })).label).toBe('12.5% Price Drop Found');
  });

  it('reads Monitoring when eligible, Limited Monitoring otherwise', () => {
    expect(statusBadge(buildFlight()).label).toBe('Monitoring');
    expect(statusBadge(buildFlight({ isEligibleForRebooking: false, status: 'limited' })).label).toBe(
      'Limited Monitoring',
    );
  });
});

describe('eligibilityBadge', () => {
  it('says whether the fare can be rebooked', () => {
    expect(eligibilityBadge({ isEligibleForRebooking: true }).label).toBe('Eligible for rebooking');
    expect(eligibilityBadge({ isEligibleForRebooking: false }).label).toBe('Not eligible for rebooking');
  });
});

describe('borderTone', () => {
  it('is orange for limited, before anything else', () => {
    expect(borderTone({ status: 'limited', hasBeenRebooked: false, isEligibleForRebooking: false })).toBe('orange');
  });

  it('is green when rebooked or a price drop was found', () => {
    expect(borderTone({ status: 'rebooked', hasBeenRebooked: true, isEligibleForRebooking: true })).toBe('green');
    expect(borderTone({ status: 'monitoring', hasBeenRebooked: true, isEligibleForRebooking: true })).toBe('green');
    expect(borderTone({ status: 'price_drop', hasBeenRebooked: false, isEligibleForRebooking: false })).toBe('green');
  });

  it('is the primary colour when eligible, else grey', () => {
    expect(borderTone({ status: 'monitoring', hasBeenRebooked: false, isEligibleForRebooking: true })).toBe('primary');
    expect(borderTone({ status: 'monitoring', hasBeenRebooked: false, isEligibleForRebooking: false })).toBe('gray');
  });
});

describe('airlineLinks', () => {
  it.each([
    ['Delta Air Lines', 'delta.com'],
    ['United Airlines', 'united.com'],
    ['American Airlines', 'aa.com'],
    ['Southwest Airlines', 'southwest.com'],
    ['JetBlue Airways', 'jetblue.com'],
    ['Alaska Airlines', 'alaskaair.com'],
  ])('links %s flight status and manage booking on its own site', (airline, host) => {
    const links = airlineLinks({ airline, flightNumber: 'XX100', departureDate: '2027-03-14' });
    expect(links.kind).toBe('airline');
    if (links.kind !== 'airline') return;
    expect(new URL(links.flightStatusUrl).hostname).toBe(`www.${host}`);
    expect(new URL(links.manageBookingUrl).hostname).toBe(`www.${host}`);
    expect(links.flightStatusUrl).toContain('100');
  });

  it('passes the flight number without its carrier code', () => {
    const links = airlineLinks({ airline: 'Delta', flightNumber: 'DL1234', departureDate: '2027-03-14' });
    expect(links.kind === 'airline' && links.flightStatusUrl).toContain('flightNumber=1234&');
    const jetblue = airlineLinks({ airline: 'JetBlue', flightNumber: 'B6915', departureDate: '2027-03-14' });
    expect(jetblue.kind === 'airline' && jetblue.flightStatusUrl).toContain('flightNumber=915');
  });

  it('gives other airlines a search link', () => {
    const links = airlineLinks({ airline: 'Spirit Airlines', flightNumber: 'NK201', departureDate: '2027-03-14' });
    expect(links).toEqual({
      kind: 'search',
      searchUrl: 'https://www.google.com/search?q=Spirit%20Airlines%20NK201%20flight%20status',
    });
    expect(airlineManageUrl({ airline: 'Spirit Airlines', flightNumber: 'NK201', departureDate: '2027-03-14' })).toBe(
      'https://www.google.com/search?q=Spirit%20Airlines%20manage%20booking',
    );
  });
});

describe('rebookAction', () => {
  it('offers the details of a rebooked flight', () => {
    expect(rebookAction(buildFlight({ hasBeenRebooked: true, status: 'rebooked' }))).toEqual({
      kind: 'details',
      label: 'View Rebooking Details',
    });
  });

  it('offers rebooking for a price drop on an eligible fare, on the flight path', () => {
    expect(rebookAction(buildFlight({ status: 'price_drop' }))).toEqual({
      kind: 'rebook',
      label: 'Rebook at Lower Price',
      method: 'source',
    });
    expect(rebookAction(buildFlight({ status: 'price_drop', rebookingMethod: 'assisted' }))).toMatchObject({
      method: 'assisted',
    });
  });

  it('explains a price drop on a non-eligible fare', () => {
    const action = rebookAction(buildFlight({ status: 'price_drop', isEligibleForRebooking: false }));
    expect(action.kind).toBe('explanation');
    expect(action.kind === 'explanation' && action.text).toContain('tickets cannot be changed automatically');
  });

  it('is No Price Drop otherwise', () => {
    expect(rebookAction(buildFlight())).toEqual({ kind: 'none', label: 'No Price Drop' });
    expect(rebookAction(buildFlight({ status: 'limited', isEligibleForRebooking: false }))).toEqual({
      kind: 'none',
      label: 'No Price Drop',
    });
  });
});

describe('rebookingPathLabel and isMissedOpportunity', () => {
  it('names the two paths', () => {
    expect(rebookingPathLabel('source', true)).toBe('FareBack rebooks this for you');
    expect(rebookingPathLabel('assisted', true)).toBe('You change it with the airline; we guide you');
    expect(rebookingPathLabel('assisted', false)).toBe('You change it with the airline; we guide you');
  });

  it('does not promise a rebooking without a click unless automatic rebooking is on', () => {
    expect(rebookingPathLabel('source', false)).toBe('FareBack rebooks it when you click Rebook at Lower Price');
  });

  it('flags a price drop on a ticket that cannot be rebooked', () => {
    expect(isMissedOpportunity(buildFlight({ status: 'price_drop', isEligibleForRebooking: false }))).toBe(true);
    expect(isMissedOpportunity(buildFlight({ status: 'price_drop' }))).toBe(false);
    expect(isMissedOpportunity(buildFlight({ status: 'limited', isEligibleForRebooking: false }))).toBe(false);
  });
});

describe('tab lists and total savings', () => {
  const waiting = buildFlight();
  const rebookedWithCredit = buildFlight({ hasBeenRebooked: true, airlineCredit: 5000, originalPrice: 40000 });
  const rebookedNoCredit = buildFlight({ hasBeenRebooked: true, airlineCredit: 0, originalPrice: 20000 });
  const all = [waiting, rebookedWithCredit, rebookedNoCredit];

  it('splits flights between the tabs', () => {
    expect(monitoredFlights(all)).toEqual([waiting]);
    expect(rebookedFlights(all)).toEqual([rebookedWithCredit, rebookedNoCredit]);
    expect(creditFlights(all)).toEqual([rebookedWithCredit]);
  });

  it('sums credits as a one-decimal percent of the original prices', () => {
    expect(totalSavings([rebookedWithCredit, rebookedNoCredit])).toEqual({
      credits: 5000,
      originalTotal: 60000,
      percent: 8.3,
    });
    expect(totalSavings([])).toEqual({ credits: 0, originalTotal: 0, percent: 0 });
  });
});

describe('netSavingsView', () => {
  const verdict = (over: Partial<Flight['rebookingVerdict']>): Flight['rebookingVerdict'] => ({
    netSavings: 0,
    changePenalty: null,
    refundForm: 'credit',
    qualifies: false,
    international: false,
    minNetSavings: 5000,
    reason: 'r',
    rebookingMode: 'automatic',
    rule: buildAppliedRule(),
    ...over,
  });

  it('shows the net figure after the change fee and that it qualifies', () => {
    const flight = buildFlight({
      originalPrice: 40000,
      currentPrice: 30000,
      status: 'price_drop',
      rebookingVerdict: verdict({
        netSavings: 10000,
        qualifies: true,
        reason: 'Saves $100.00 (25.0%) as airline credit, which meets your rebooking threshold of $50.00 or 15%.',
      }),
    });
    expect(netSavingsView(flight)).toEqual({
      amount: 10000,
      fee: 0,
      qualifies: true,
      badge: 'Meets your rebooking threshold',
      tone: 'green',
      reason: 'Saves $100.00 (25.0%) as airline credit, which meets your rebooking threshold of $50.00 or 15%.',
    });
  });

  it('says when a fee eats the drop or leaves too little', () => {
    const base = { originalPrice: 40000, currentPrice: 30000, status: 'price_drop' as const };
    const eaten = netSavingsView(
      buildFlight({ ...base, rebookingVerdict: verdict({ netSavings: -2000, changePenalty: 12000 }) }),
    );
    expect(eaten).toMatchObject({ amount: -2000, fee: 12000, badge: 'Change fee exceeds the drop', tone: 'gray' });
    const small = netSavingsView(
      buildFlight({ ...base, rebookingVerdict: verdict({ netSavings: 2500, changePenalty: 7500 }) }),
    );
    expect(small).toMatchObject({
      amount: 2500,
      fee: 7500,
      qualifies: false,
      badge: 'Below your rebooking threshold',
      tone: 'orange',
    });
  });

  it('names the fare that cannot be changed as the reason, however large the drop', () => {
    const basic = netSavingsView(
      buildFlight({
        originalPrice: 45500,
        currentPrice: 36400,
        status: 'price_drop',
        fareType: 'Basic Economy',
        isEligibleForRebooking: false,
        rebookingVerdict: verdict({
          netSavings: 9100,
          reason: 'Saves $91.00 (20.0%) as airline credit if changed, but this fare cannot be changed automatically.',
        }),
      }),
    );
    expect(basic).toMatchObject({ amount: 9100, qualifies: false, badge: 'Fare cannot be changed', tone: 'gray' });
    expect(basic?.badge).not.toMatch(/threshold/);
  });

  it('shows nothing without a drop or once rebooked', () => {
    expect(netSavingsView(buildFlight({ originalPrice: 40000, currentPrice: 41000 }))).toBeNull();
    expect(netSavingsView(buildFlight({ currentPrice: null }))).toBeNull();
    expect(
      netSavingsView(
        buildFlight({
          originalPrice: 40000,
          currentPrice: 30000,
          hasBeenRebooked: true,
          rebookingVerdict: verdict({ netSavings: 10000, qualifies: true }),
        }),
      ),
    ).toBeNull();
  });
});
