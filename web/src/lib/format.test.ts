import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, formatPercent, percentOf } from './format';

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
