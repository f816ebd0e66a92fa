import { describe, expect, it } from '../extraction/testing/harness.ts';
import {
  canRebook,
  creditExpiryDate,
  creditPlausibility,
  flightSavings,
  isEligibleFareType,
  roundPercent,
  savingsPercent,
} from './rules.ts';

describe('isEligibleFareType', () => {
  it('accepts the five supported fare types in any case', () => {
    for (const fare of ['Refundable Economy', 'Flexible Economy', 'Premium Economy', 'Business Class', 'first class']) {
      expect(isEligibleFareType(fare)).toBe(true);
    }
  });

  it('refuses Basic Economy and other no-change fares even when a source calls them changeable', () => {
    for (const fare of ['Basic Economy', 'basic', 'Economy Light', 'Blue Basic', 'Non-refundable Saver', 'Lite']) {
      expect(isEligibleFareType(fare, true)).toBe(false);
    }
  });

  it("decides other fare brands by the source's changeability, and refuses when unknown", () => {
    expect(isEligibleFareType('Main Cabin', true)).toBe(true);
    expect(isEligibleFareType('Main Cabin', false)).toBe(false);
    expect(isEligibleFareType('Main Cabin')).toBe(false);
    expect(isEligibleFareType(null, true)).toBe(true);
    expect(isEligibleFareType('  ')).toBe(false);
  });
});

describe('flightSavings and percent', () => {
  const flight = {
    originalPrice: 50000,
    currentPrice: 42500,
    hasBeenRebooked: false,
    rebookingPrice: null,
    airlineCredit: null,
  };

  it('is the potential saving when the current price is lower, else 0', () => {
    expect(flightSavings(flight)).toBe(7500);
    expect(flightSavings({ ...flight, currentPrice: 50000 })).toBe(0);
    expect(flightSavings({ ...flight, currentPrice: 60000 })).toBe(0);
    expect(flightSavings({ ...flight, currentPrice: null })).toBe(0);
  });

  it('is the airline credit once rebooked, else original minus rebooking price', () => {
    const rebooked = { ...flight, hasBeenRebooked: true, rebookingPrice: 41000, airlineCredit: 9000 };
    expect(flightSavings(rebooked)).toBe(9000);
    expect(flightSavings({ ...rebooked, airlineCredit: null })).toBe(9000);
    expect(flightSavings({ ...rebooked, airlineCredit: 0, rebookingPrice: 45000 })).toBe(5000);
    expect(flightSavings({ ...rebooked, airlineCredit: null, rebookingPrice: null })).toBe(0);
  });

  it('is a share of the original price, rounded to one decimal for display', () => {
    expect(savingsPercent(7500, 50000)).toBe(15);
    expect(roundPercent(savingsPercent(1, 3))).toBe(33.3);
    expect(roundPercent(savingsPercent(2, 3))).toBe(66.7);
    expect(savingsPercent(100, 0)).toBe(0);
  });
});

describe('canRebook', () => {
  it('only for a price drop on an eligible fare that is not rebooked', () => {
    const f = { status: 'price_drop', isEligibleForRebooking: true, hasBeenRebooked: false };
    expect(canRebook(f)).toBe(true);
    expect(canRebook({ ...f, isEligibleForRebooking: false })).toBe(false);
    expect(canRebook({ ...f, hasBeenRebooked: true })).toBe(false);
    expect(canRebook({ ...f, status: 'monitoring' })).toBe(false);
    expect(canRebook({ ...f, status: 'limited' })).toBe(false);
  });
});

describe('creditExpiryDate', () => {
  it('is one year after the rebooking', () => {
    expect(creditExpiryDate(new Date('2026-11-22T15:00:00Z'))).toBe('2027-11-22');
    expect(creditExpiryDate(new Date('2028-02-29T00:00:00Z'))).toBe('2029-03-01');
  });
});

describe("creditPlausibility (a guided rebooking's declared credit)", () => {
  it('ranges from half the net drop found to the fare difference declared; flags below 90% of it', () => {
    // paid $500, found $410, no fee: $90 expected
    expect(creditPlausibility({ pricePaid: 50_000, foundPrice: 41_000, changePenalty: 0, newPrice: 41_000 })).toEqual({
      expected: 9000,
      min: 4500,
      max: 9000,
      reviewBelow: 8100,
    });
    // a change fee comes off what the airline gives back
    expect(
      creditPlausibility({ pricePaid: 50_000, foundPrice: 41_000, changePenalty: 3000, newPrice: 41_000 }),
    ).toEqual({ expected: 6000, min: 3000, max: 9000, reviewBelow: 5400 });
  });

  it('asks at least a cent when the fee eats the drop or no fare was found', () => {
    expect(
      creditPlausibility({ pricePaid: 50_000, foundPrice: 49_000, changePenalty: 5000, newPrice: 49_000 }),
    ).toEqual({ expected: 0, min: 1, max: 1000, reviewBelow: 0 });
    expect(creditPlausibility({ pricePaid: 50_000, foundPrice: null, changePenalty: null, newPrice: 40_000 }).min).toBe(
      1,
    );
  });

  it('leaves no room when the declared new price is far above the fare found', () => {
    const range = creditPlausibility({ pricePaid: 50_000, foundPrice: 41_000, changePenalty: 0, newPrice: 49_900 });
    expect(range.max).toBeLessThan(range.min);
  });
});
