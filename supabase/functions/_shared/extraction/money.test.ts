import { describe, expect, it } from './testing/harness.ts';
import { currenciesMentioned, findAmounts, parseAmount } from './money.ts';

describe('parseAmount', () => {
  it.each([
    ['1,287.64', 1287.64],
    ['289,46', 289.46],
    ['1.146,20', 1146.2],
    ['312,480', 312480],
    ['1 146,20', 1146.2],
    ["1'146.20", 1146.2],
    ['58.99', 58.99],
  ])('reads %s', (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });
});

describe('findAmounts', () => {
  it('reads codes and symbols on either side', () => {
    expect(findAmounts('$452.10 USD')[0]).toMatchObject({ amount: 452.1, currency: 'USD', dollarSign: true });
    expect(findAmounts('EUR 1,287.64')[0]).toMatchObject({ amount: 1287.64, currency: 'EUR' });
    expect(findAmounts('289,46 EUR')[0]).toMatchObject({ amount: 289.46, currency: 'EUR' });
    expect(findAmounts('£1,146.20')[0]).toMatchObject({ amount: 1146.2, currency: 'GBP' });
    expect(findAmounts('$219.00')[0]).toMatchObject({ amount: 219, currency: null, dollarSign: true });
  });

  it('ignores bare integers', () => {
    expect(findAmounts('2 adults, 4 nights')).toEqual([]);
  });
});

describe('currenciesMentioned', () => {
  it('counts codes and currency names', () => {
    expect(currenciesMentioned('Price details (CAD) ... Total (CAD)')[0]).toBe('CAD');
    expect(currenciesMentioned('All prices in US Dollars')[0]).toBe('USD');
  });
});

describe('kr amounts', () => {
  it("marks 'kr' amounts as money without naming the currency", () => {
    expect(findAmounts('Total price (SEK) 6 845 kr')).toEqual([
      { amount: 6845, currency: null, dollarSign: true, index: 18 },
    ]);
  });
});
