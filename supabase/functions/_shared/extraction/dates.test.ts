import { describe, expect, it } from './testing/harness.ts';
import { findDates, findTimes, parseLooseDate, resolveYear } from './dates.ts';

const first = (text: string, order: 'MDY' | 'DMY' = 'MDY') => {
  const token = findDates(text, order)[0];
  return token ? [token.year, token.month, token.day] : null;
};

describe('findDates', () => {
  it.each([
    ['Sat, 14 Mar 2027', [2027, 3, 14]],
    ['SUN 14 MAR 2027', [2027, 3, 14]],
    ['Thu, Apr 22, 2027', [2027, 4, 22]],
    ['Sunday, April 11, 2027', [2027, 4, 11]],
    ['14MAR27', [2027, 3, 14]],
    ['FRI, 06AUG2027', [2027, 8, 6]],
    ['Fri, 02APR27  UA1749', [2027, 4, 2]],
    ['14. März 2027', [2027, 3, 14]],
    ['Fr., 12.03.2027', [2027, 3, 12]],
    ['jeudi 12 août 2027', [2027, 8, 12]],
    ['viernes, 10 de septiembre de 2027', [2027, 9, 10]],
    ['Thu, 11 Feb 27', [2027, 2, 11]],
    ['2027-03-14', [2027, 3, 14]],
    ['MON 22 MAR', [null, 3, 22]],
    ['[1] 2027/08/14 JL062', [2027, 8, 14]],
    ['Thu 15-Apr-2027', [2027, 4, 15]],
    ['09MAR   AA 2314', [null, 3, 9]],
  ] as const)('reads %s', (text, expected) => {
    expect(first(text)).toEqual(expected);
  });

  it('reads slashed dates month first or day first as told, and by the impossible field', () => {
    expect(first('DEPART: 05/27/27')).toEqual([2027, 5, 27]);
    expect(first('03/04/27', 'MDY')).toEqual([2027, 3, 4]);
    expect(first('03/04/27', 'DMY')).toEqual([2027, 4, 3]);
    expect(first('27/05/2027', 'MDY')).toEqual([2027, 5, 27]);
  });

  it('does not take a clock time for a two-digit year', () => {
    expect(first('MON 22 MAR 10:30')).toEqual([null, 3, 22]);
  });

  it('rejects impossible days', () => {
    expect(findDates('31 Feb 2027')).toEqual([]);
  });
});

describe('findTimes', () => {
  const read = (text: string) => findTimes(text).map((time) => [time.hour, time.minute]);
  it.each([
    ['8:05am', [[8, 5]]],
    ['10:30pm', [[22, 30]]],
    [
      '9:10a | 1:25p',
      [
        [9, 10],
        [13, 25],
      ],
    ],
    ['12:15 AM', [[0, 15]]],
    ['12:30 PM', [[12, 30]]],
    ['ab 07:15 Uhr', [[7, 15]]],
    ['07h15', [[7, 15]]],
    ['7.15 Uhr', [[7, 15]]],
    ['6 PM', [[18, 0]]],
    ['22:50', [[22, 50]]],
  ])('reads %s', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it('ignores durations, prices and impossible times', () => {
    expect(read('Travel time 4h 15m, 1 hr 35 min, $35.00, 25:10, 9:75')).toEqual([]);
  });
});

describe('resolveYear', () => {
  it('takes the next occurrence after the sent date', () => {
    const sent = new Date('2027-11-20T10:00:00Z');
    expect(resolveYear(12, 5, sent)).toBe(2027);
    expect(resolveYear(1, 10, sent)).toBe(2028);
  });
});

describe('parseLooseDate', () => {
  it('reads forwarded header dates', () => {
    expect(parseLooseDate('Fri, Feb 19, 2027 at 8:02 PM')?.getUTCFullYear()).toBe(2027);
    expect(parseLooseDate('19. Februar 2027 um 20:02')?.getUTCMonth()).toBe(1);
  });
});

describe('findTimes with spaced French hours', () => {
  it('reads 19 h 00 but not a duration', () => {
    expect(findTimes('Montréal (YUL) 19 h 00').map((t) => [t.hour, t.minute])).toEqual([[19, 0]]);
    expect(findTimes('(4h 50m, non-stop)')).toEqual([]);
    expect(findTimes('durée 7 h 05 min')).toEqual([]);
  });
});

describe('findTimes: receipt times', () => {
  it('reads four-digit times with an A/P suffix, and nothing else as one', () => {
    expect(findTimes('ATLANTA 0805A DETROIT 0455P').map((t) => [t.hour, t.minute])).toEqual([
      [8, 5],
      [16, 55],
    ]);
    expect(findTimes('Flight 1822 row 23B code X1234P')).toEqual([]);
  });

  it('reads three- and four-digit times with an A/P suffix', () => {
    expect(findTimes('03OCT27  DL1146  600A  928A').map((t) => [t.hour, t.minute])).toEqual([
      [6, 0],
      [9, 28],
    ]);
    expect(findTimes('1045P  631A+1').map((t) => [t.hour, t.minute])).toEqual([
      [22, 45],
      [6, 31],
    ]);
  });
});

describe('Swedish, Dutch and Italian dates and times', () => {
  it.each([
    ['torsdag 14 oktober 2027', [2027, 10, 14]],
    ['tors 14 okt. 2027', [2027, 10, 14]],
    ['zondag 21 maart 2027', [2027, 3, 21]],
    ['vr 4 mei 2027', [2027, 5, 4]],
    ['domenica 21 marzo 2027', [2027, 3, 21]],
    ['giovedì 3 giugno 2027', [2027, 6, 3]],
    ['12 januari 2027', [2027, 1, 12]],
  ] as const)('reads %s', (text, expected) => {
    expect(first(text, 'DMY')).toEqual(expected);
  });

  it("reads 'kl. 07.05', '18.35 uur' and 'ore 07.05'", () => {
    expect(findTimes('Avgång kl. 07.05, ankomst kl 09.15').map((t) => [t.hour, t.minute])).toEqual([
      [7, 5],
      [9, 15],
    ]);
    expect(findTimes('Amsterdam 18.35 uur').map((t) => [t.hour, t.minute])).toEqual([[18, 35]]);
    expect(findTimes('Partenza ore 07.05').map((t) => [t.hour, t.minute])).toEqual([[7, 5]]);
    expect(findTimes('Totalt 2.184 kr, 12.50 EUR')).toEqual([]);
  });
});

describe('a weekday with day and month only', () => {
  it("reads 'Do, 21.03.' and 'zo 21/03' day first, and not a weekday before a full date or a price", () => {
    expect(first('Hinflug Do, 21.03. 07:05 Uhr', 'MDY')).toEqual([null, 3, 21]);
    expect(first('zo 21/03 18.35 uur', 'MDY')).toEqual([null, 3, 21]);
    expect(first('Do, 21.03.2027', 'MDY')).toEqual([2027, 3, 21]);
    expect(findDates('Sa 12.50 EUR')).toEqual([]);
  });
});
