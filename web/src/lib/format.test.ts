import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMoneyInput,
  formatPercent,
  parseMoney,
  percentOf,
} from './format';

describe('formatMoney', () => {
  it('turns cents into en-US dollars with 2 decimals by default', () => {
    expect(formatMoney(123456)).toBe('$1,234.56');
    expect(formatMoney(2499)).toBe('$24.99');
    expect(formatMoney(5)).toBe('$0.05');
  });

  it('rounds to whole dollars for stat tiles', () => {
    expect(formatMoney(123456, 0)).toBe('$1,235');
    expect(formatMoney(5000, 0)).toBe('$50');
  });

  it('treats missing amounts as zero and keeps the sign', () => {
    expect(formatMoney(null)).toBe('$0.00');
    expect(formatMoney(undefined, 0)).toBe('$0');
    expect(formatMoney(-2500)).toBe('-$25.00');
  });
});

describe('parseMoney', () => {
  it.each([
    ['$1,234.50', 123450],
    ['1234.5', 123450],
    ['12.5', 1250],
    ['12.', 1200],
    ['.5', 50],
    ['0', 0],
    [' $ 40 ', 4000],
    ['1,000,000', 100000000],
    ['12.500', 1250],
  ])('reads %s as %i cents', (text, cents) => {
    expect(parseMoney(text)).toBe(cents);
  });

  it('keeps the sign of a negative amount, before or after the dollar sign', () => {
    expect(parseMoney('-12.50')).toBe(-1250);
    expect(parseMoney('-$12.50')).toBe(-1250);
    expect(parseMoney('$-1,234.5')).toBe(-123450);
    expect(parseMoney('-0.01')).toBe(-1);
  });

  it('answers undefined for an empty field', () => {
    expect(parseMoney('')).toBeUndefined();
    expect(parseMoney('   ')).toBeUndefined();
  });

  it('refuses amounts finer than a cent instead of rounding them', () => {
    expect(parseMoney('0.005')).toBeNaN();
    expect(parseMoney('12.345')).toBeNaN();
  });

  it.each([
    'abc',
    '$',
    '.',
    '-',
    '12a',
    '1.2.3',
    '1,23',
    '12,34.5',
    '--5',
    '-$-5',
    '$$5',
    '1e3',
    '0x10',
    '5 $',
    '9'.repeat(20),
  ])('refuses %s', (text) => {
    expect(parseMoney(text)).toBeNaN();
  });
});

describe('formatMoneyInput', () => {
  it('shows cents as dollars with two decimals and grouping, without a symbol', () => {
    expect(formatMoneyInput(25000)).toBe('250.00');
    expect(formatMoneyInput(123450)).toBe('1,234.50');
    expect(formatMoneyInput(5)).toBe('0.05');
    expect(formatMoneyInput(-1250)).toBe('-12.50');
  });

  it('leaves the field empty without an amount', () => {
    expect(formatMoneyInput(null)).toBe('');
    expect(formatMoneyInput(undefined)).toBe('');
    expect(formatMoneyInput(Number.NaN)).toBe('');
  });

  it('round-trips through parseMoney', () => {
    for (const cents of [0, 1, 99, 100, 123456789, -4250]) expect(parseMoney(formatMoneyInput(cents))).toBe(cents);
  });
});

describe('formatDate', () => {
  it("uses 'MMM d, yyyy'", () => {
    expect(formatDate('2025-03-07')).toBe('Mar 7, 2025');
    expect(formatDate('2024-12-25T15:30:00')).toBe('Dec 25, 2024');
    expect(formatDate(new Date(2026, 0, 31))).toBe('Jan 31, 2026');
  });

  it("answers 'N/A' when missing or invalid", () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate(undefined)).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
    expect(formatDate('not a date')).toBe('N/A');
  });
});

describe('formatPercent', () => {
  it('shows one decimal', () => {
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(25)).toBe('25.0%');
    expect(formatPercent(0.06)).toBe('0.1%');
  });

  it('shows 0.0% for missing or non-finite values', () => {
    expect(formatPercent(null)).toBe('0.0%');
    expect(formatPercent(Number.NaN)).toBe('0.0%');
  });

  it('pairs with percentOf for savings', () => {
    expect(formatPercent(percentOf(5000, 40000))).toBe('12.5%');
    expect(formatPercent(percentOf(100, 0))).toBe('0.0%');
  });
});

describe('formatDateTime', () => {
  it('shows the date and the time of day in the reader’s time zone', () => {
    expect(formatDateTime(new Date(2026, 10, 24, 7, 5))).toBe('Nov 24, 2026, 7:05 AM');
    expect(formatDateTime(new Date(2026, 0, 2, 19, 30).toISOString())).toBe('Jan 2, 2026, 7:30 PM');
  });

  it("says 'N/A' for a missing or invalid time", () => {
    expect(formatDateTime(null)).toBe('N/A');
    expect(formatDateTime('not a date')).toBe('N/A');
  });
});

describe('formatCount', () => {
  it('groups thousands and adds an s except for one', () => {
    expect(formatCount(1, 'flight')).toBe('1 flight');
    expect(formatCount(0, 'price drop')).toBe('0 price drops');
    expect(formatCount(1234, 'flight')).toBe('1,234 flights');
  });
});
