// Dates and clock times as airlines print them, in English, German, French, Spanish, Swedish,
// Dutch and Italian: 'Sat, 14 Mar 2027', 'Thu, Apr 22, 2027', '03/14/27', '14MAR27', '14. März
// 2027', '12.03.2027', '12 de agosto de 2027', 'tors 14 okt. 2027', 'zondag 21 maart 2027',
// 'domenica 21 marzo 2027', '8:05am', '9:10a', '22:50', '07:15 Uhr', '07h15', 'kl. 07.05',
// '07.05 uur', 'ore 07.05'.
// A date without a year is resolved later against the email's Date header.

export interface DateToken {
  start: number;
  end: number;
  year: number | null;
  month: number;
  day: number;
}

export interface TimeToken {
  start: number;
  end: number;
  hour: number;
  minute: number;
}

/** How to read 03/04/27: month first (US) or day first (everywhere else). */
export type NumericDateOrder = 'MDY' | 'DMY';

const MONTH_NAMES: [number, string[]][] = [
  [1, ['january', 'jan', 'januar', 'janner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'januari']],
  [2, ['february', 'feb', 'februar', 'fevrier', 'fevr', 'fev', 'febrero', 'febbraio', 'februari']],
  [3, ['march', 'mar', 'marz', 'maerz', 'mrz', 'mars', 'marzo', 'maart', 'mrt']],
  [4, ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile']],
  [5, ['may', 'mai', 'mayo', 'maj', 'mei', 'maggio', 'mag']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu']],
  [7, ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug']],
  [8, ['august', 'aug', 'aout', 'agosto', 'ago', 'augusti', 'augustus']],
  [9, ['september', 'sept', 'sep', 'septembre', 'septiembre', 'setiembre', 'set', 'settembre']],
  [10, ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott']],
  [11, ['november', 'nov', 'novembre', 'noviembre']],
  [12, ['december', 'dec', 'dezember', 'dez', 'decembre', 'diciembre', 'dic']],
];
const WEEKDAY_NAMES = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'mon',
  'tue',
  'tues',
  'wed',
  'thu',
  'thur',
  'thurs',
  'fri',
  'sat',
  'sun',
  'montag',
  'dienstag',
  'mittwoch',
  'donnerstag',
  'freitag',
  'samstag',
  'sonntag',
  'mo',
  'di',
  'mi',
  'do',
  'fr',
  'sa',
  'so',
  'lundi',
  'mardi',
  'mercredi',
  'jeudi',
  'vendredi',
  'samedi',
  'dimanche',
  'lun',
  'mar',
  'mer',
  'jeu',
  'ven',
  'sam',
  'dim',
  'lunes',
  'martes',
  'miercoles',
  'jueves',
  'viernes',
  'sabado',
  'domingo',
  'mie',
  'jue',
  'vie',
  'sab',
  'dom',
  'mandag',
  'tisdag',
  'onsdag',
  'torsdag',
  'fredag',
  'lordag',
  'sondag',
  'tis',
  'ons',
  'tors',
  'tor',
  'fre',
  'lor',
  'maandag',
  'dinsdag',
  'woensdag',
  'donderdag',
  'vrijdag',
  'zaterdag',
  'zondag',
  'wo',
  'vr',
  'za',
  'zo',
  'lunedi',
  'martedi',
  'mercoledi',
  'giovedi',
  'venerdi',
  'sabato',
  'domenica',
  'gio',
];

const MONTH_BY_NAME = new Map<string, number>();
for (const [month, names] of MONTH_NAMES) for (const name of names) MONTH_BY_NAME.set(name, month);

const FOLDED_LETTERS: Record<string, string> = {};
for (const [plain, accented] of [
  ['a', 'àáâãäå'],
  ['e', 'èéêë'],
  ['i', 'ìíîï'],
  ['o', 'òóôõö'],
  ['u', 'ùúûü'],
  ['c', 'ç'],
  ['n', 'ñ'],
] as const) {
  for (const letter of accented) FOLDED_LETTERS[letter] = plain;
}

/** Lower case without diacritics, always the same length as the input so offsets carry over. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // Plain ASCII needs no folding; the range is the whole 7-bit set, control characters included.
  // eslint-disable-next-line no-control-regex
  if (lower.length === text.length && /^[\x00-\x7f]*$/.test(lower)) return lower;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    const low = char.toLowerCase();
    const single = low.length === 1 ? low : char;
    out += FOLDED_LETTERS[single] ?? single;
  }
  return out;
}

const byLength = (a: string, b: string): number => b.length - a.length;
const MONTH_ALT = [...MONTH_BY_NAME.keys()].sort(byLength).join('|');
const WEEKDAY_ALT = [...new Set(WEEKDAY_NAMES)].sort(byLength).join('|');
const WEEKDAY_PREFIX = `(?:\\b(?:${WEEKDAY_ALT})\\.?,?\\s*)?`;
const YEAR_TAIL = '(\\d{4}|\\d{2})(?![\\d:.h]\\d|\\d)';

// All patterns run on fold(text), so offsets match the original text.
const DATE_PATTERNS: {
  regex: RegExp;
  read: (m: RegExpExecArray, order: NumericDateOrder) => Omit<DateToken, 'start' | 'end'> | null;
}[] = [
  {
    // 2027-03-14, 2027/03/14, 2027.03.14
    regex: new RegExp(`${WEEKDAY_PREFIX}\\b(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})(?![\\d.]\\d|\\d)`, 'g'),
    read: (m) => ({ year: Number(m[1]), month: Number(m[3]), day: Number(m[4]) }),
  },
  {
    // 14 Mar 2027, 15-Apr-2027, 14MAR27, 06AUG2027, 14. März 2027, 12 de agosto de 2027, MON 22 MAR
    regex: new RegExp(
      `${WEEKDAY_PREFIX}\\b(\\d{1,2})(?:\\.|st|nd|rd|th|er)?(?:\\s*|-)(?:de\\s+)?(${MONTH_ALT})(?![a-z])\\.?(?:(?:,?\\s*|-)(?:de\\s+)?'?${YEAR_TAIL})?`,
      'g',
    ),
    read: (m) => ({
      year: m[3] ? expandYear(m[3]) : null,
      month: MONTH_BY_NAME.get(m[2] ?? '') ?? 0,
      day: Number(m[1]),
    }),
  },
  {
    // Apr 22, 2027; April 11 2027; Mar 20
    regex: new RegExp(
      `${WEEKDAY_PREFIX}\\b(${MONTH_ALT})(?![a-z])\\.?\\s*(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:.h]\\d|\\d)(?:,?\\s+${YEAR_TAIL})?`,
      'g',
    ),
    read: (m) => ({
      year: m[3] ? expandYear(m[3]) : null,
      month: MONTH_BY_NAME.get(m[1] ?? '') ?? 0,
      day: Number(m[2]),
    }),
  },
  {
    // Do, 21.03. / zo 21/03 / Thu 21.03 (a weekday, then day and month without a year): day first
    regex: new RegExp(
      `\\b(?:${WEEKDAY_ALT})\\.?,?\\s*(\\d{1,2})([./])(\\d{1,2})\\.?(?![\\d./-]|\\s*\\d{2,4}(?![\\d:.h]))`,
      'g',
    ),
    read: (m) => ({ year: null, month: Number(m[3]), day: Number(m[1]) }),
  },
  {
    // 03/14/27, 14.03.2027, 14/03/2027
    regex: new RegExp(
      `${WEEKDAY_PREFIX}(?<![\\d.,/])(\\d{1,2})([./-])(\\d{1,2})\\2(\\d{4}|\\d{2})(?![\\d.,/]\\d|\\d)`,
      'g',
    ),
    read: (m, order) => {
      const a = Number(m[1]);
      const b = Number(m[3]);
      const year = expandYear(m[4] ?? '');
      if (m[2] === '.') return { year, month: b, day: a };
      if (a > 12) return { year, month: b, day: a };
      if (b > 12) return { year, month: a, day: b };
      return order === 'MDY' ? { year, month: a, day: b } : { year, month: b, day: a };
    },
  },
];

function expandYear(text: string): number {
  const value = Number(text);
  return text.length <= 2 ? 2000 + value : value;
}

function validDay(year: number | null, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  if (year !== null && (year < 1990 || year > 2100)) return false;
  const daysInMonth = new Date(Date.UTC(year ?? 2028, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

export function findDates(text: string, order: NumericDateOrder = 'MDY'): DateToken[] {
  const folded = fold(text);
  const tokens: DateToken[] = [];
  for (const pattern of DATE_PATTERNS) {
    pattern.regex.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.regex.exec(folded)) !== null) {
      const start = match.index;
      const end = start + match[0].length;
      if (tokens.some((token) => start < token.end && end > token.start)) continue;
      const value = pattern.read(match, order);
      if (!value || !validDay(value.year, value.month, value.day)) continue;
      tokens.push({ start, end: trimEnd(folded, start, end), ...value });
    }
  }
  return tokens.sort((a, b) => a.start - b.start);
}

function trimEnd(text: string, start: number, end: number): number {
  let stop = end;
  while (stop > start && /[\s,]/.test(text[stop - 1] ?? '')) stop--;
  return stop;
}

const TIME_PATTERNS: RegExp[] = [
  // 8:05am, 8:05 AM, 9:10a, 22:50, 07:15 Uhr, 8:02 p.m.
  /(?<![\d:.,$€£])(\d{1,2}):(\d{2})(?::\d{2})?(?!\d)(?:\s*([ap])\.?\s?m\b\.?|\s?([ap])(?![a-z]))?/g,
  // 07h15, 19 h 00 (French), 07.15 Uhr / 7.15 h; not a duration ('7 h 05 min')
  /(?<![\d:.,$€£])(\d{1,2}) ?h ?(\d{2})(?![\d])(?!\s*m(?:in\w*)?\b)()()/g,
  /(?<![\d:.,$€£])(\d{1,2})\.(\d{2})(?=\s*(?:uhr|h|uur)\b)()()/g,
  // kl. 07.05 (Swedish), om 07.05 (Dutch), ore 07.05 (Italian)
  /(?<=\b(?:kl|om|ore|alle)\.?\s?)(\d{1,2})\.(\d{2})(?![\d.])()()/g,
  // 7 PM, 7pm
  /(?<![\d:.,$€£])(\d{1,2})()\s?([ap])\.?m\b\.?()/g,
  // 0805A, 0455P, 600A, 1045P (ticket receipts in columns)
  /(?<![\p{L}\d:.,$€£/-])([01]\d|[1-9])([0-5]\d)([ap])(?![\p{L}\d])()/gu,
];

export function findTimes(text: string): TimeToken[] {
  const folded = fold(text);
  const tokens: TimeToken[] = [];
  for (const regex of TIME_PATTERNS) {
    regex.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = regex.exec(folded)) !== null) {
      const start = match.index;
      const end = start + match[0].length;
      if (tokens.some((token) => start < token.end && end > token.start)) continue;
      let hour = Number(match[1]);
      const minute = match[2] ? Number(match[2]) : 0;
      const meridiem = match[3] || match[4] || '';
      if (minute > 59) continue;
      if (meridiem) {
        if (hour < 1 || hour > 12) continue;
        if (meridiem === 'p' && hour < 12) hour += 12;
        if (meridiem === 'a' && hour === 12) hour = 0;
      } else if (hour > 23) {
        continue;
      }
      tokens.push({ start, end, hour, minute });
    }
  }
  return tokens.sort((a, b) => a.start - b.start);
}

/**
 * A date printed without a year is the next occurrence on or after the day the email was sent
 * (a confirmation is for a future trip). Without a sent date, the current year is used.
 */
export function resolveYear(month: number, day: number, sent: Date | null): number {
  const reference = sent ?? new Date();
  const year = reference.getUTCFullYear();
  const sentDay = Date.UTC(year, reference.getUTCMonth(), reference.getUTCDate());
  // A day of slack: the sender's local date can be one day behind UTC.
  return Date.UTC(year, month - 1, day) >= sentDay - 86_400_000 ? year : year + 1;
}

/** The first date in a header value such as 'Fri, Feb 19, 2027 at 8:02 PM'. */
export function parseLooseDate(value: string, order: NumericDateOrder = 'MDY'): Date | null {
  const rfc = new Date(value.replace(/\s+at\s+/i, ' '));
  if (!Number.isNaN(rfc.getTime()) && /\d{4}/.test(value)) return rfc;
  const token = findDates(value, order)[0];
  if (!token || token.year === null) return null;
  return new Date(Date.UTC(token.year, token.month - 1, token.day, 12));
}
