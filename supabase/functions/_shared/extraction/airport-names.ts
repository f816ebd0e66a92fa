// Places printed as names rather than codes ('BERLIN, DE (TEGEL)', 'Brussels Airport',
// 'Frankfurt/Main', 'ZURICH', 'München'), resolved to an IATA code through the airport package.
// The index is built once from every large or medium airport with an IATA code: its name and the
// title of its encyclopedia page, accents stripped and generic words ('Airport', 'International')
// dropped, give three kinds of key:
//   - the whole name ('frankfurt', 'berlin tegel', 'rome fiumicino'): the strongest;
//   - the words after the first ('tegel', 'fiumicino', 'charles de gaulle'): the airport itself;
//   - the leading words ('berlin', 'rome', 'london'): a city, which may have several airports.
// Local and English spellings of cities are folded onto the name the package uses. A place is a
// run of keys that share an airport ('BERLIN' + 'TEGEL' -> TXL); when a city has several, the
// airport named exactly by it wins, then one in the flight's airline's country or the other end's,
// then scheduled service, then the longest runway (the main airport: LHR for London).
import * as airportDataModule from 'airport-data-js';

type AirportDataApi = typeof airportDataModule;
const airportData: AirportDataApi =
  (airportDataModule as unknown as { default?: AirportDataApi }).default ?? airportDataModule;

type KeyKind = 3 | 2 | 1; // whole name, airport part, city

interface NamedAirport {
  iata: string;
  countryCode: string;
  scheduled: boolean;
  large: boolean;
  runway: number;
}

interface KeyEntry {
  airport: NamedAirport;
  kind: KeyKind;
}

/** Words of airport names that say what a place is, not which one. */
const GENERIC_WORDS = new Set(
  (
    'airport airfield aerodrome international intl regional domestic municipal national county ' +
    'aeroporto aeropuerto aeroport aeroporti flughafen lufthavn flygplats luchthaven lotnisko ' +
    'air base terminal metropolitan area all airports the'
  ).split(' '),
);

/** Words too common in running text, or too vague, to name an airport alone. */
const NOT_ALONE = new Set(
  (
    'nice split male bath hope orange page sale mount port city field south north east west new ' +
    'central island lake bay park valley river beach saint san santa los las del de la le el st ' +
    'general memorial liberty grand great little upper lower old fort point cape long green white ' +
    'black red blue gold silver rock stone spring springs falls station mission union victory ' +
    'independence international ciudad villa puerto presidente governor king queen prince princess main'
  ).split(' '),
);

/** Local and other spellings of cities, folded, to the word the airport package uses. */
const SPELLINGS: Record<string, string> = {
  munchen: 'munich',
  muenchen: 'munich',
  koln: 'cologne',
  koeln: 'cologne',
  wien: 'vienna',
  roma: 'rome',
  milan: 'milano',
  mailand: 'milano',
  firenze: 'florence',
  venezia: 'venice',
  venedig: 'venice',
  napoli: 'naples',
  neapel: 'naples',
  torino: 'turin',
  genova: 'genoa',
  bruxelles: 'brussels',
  brussel: 'brussels',
  brussel_: 'brussels',
  geneva: 'geneve',
  genf: 'geneve',
  ginevra: 'geneve',
  zuerich: 'zurich',
  zurigo: 'zurich',
  lisboa: 'lisbon',
  lissabon: 'lisbon',
  praha: 'prague',
  prag: 'prague',
  warszawa: 'warsaw',
  warschau: 'warsaw',
  kobenhavn: 'copenhagen',
  kopenhagen: 'copenhagen',
  kopenhamn: 'copenhagen',
  gothenburg: 'goteborg',
  nurnberg: 'nuremberg',
  nuernberg: 'nuremberg',
  athina: 'athens',
  athen: 'athens',
  moskva: 'moscow',
  moskau: 'moscow',
  sevilla: 'seville',
  duesseldorf: 'dusseldorf',
  londres: 'london',
  londra: 'london',
  londen: 'london',
  parigi: 'paris',
  parijs: 'paris',
  stoccolma: 'stockholm',
  amsterdao: 'amsterdam',
  bombay: 'mumbai',
  peking: 'beijing',
};

/** Multi-word city names that must stay whole ('new york' has no airport key by itself). */
const ALIASES: [string, string][] = [
  ['new york jfk', 'JFK'],
  ['new york kennedy', 'JFK'],
  ['new york laguardia', 'LGA'],
  ['new york newark', 'EWR'],
  ['newark', 'EWR'],
  ['laguardia', 'LGA'],
  ['new york', 'JFK'],
  ['washington dulles', 'IAD'],
  ['dulles', 'IAD'],
  ['washington reagan', 'DCA'],
  ['chicago ohare', 'ORD'],
  ['ohare', 'ORD'],
  ['chicago midway', 'MDW'],
  ['chicago', 'ORD'],
  ['dallas fort worth', 'DFW'],
  ['raleigh durham', 'RDU'],
  ['sao paulo', 'GRU'],
  ['guarulhos', 'GRU'],
  ['tokyo narita', 'NRT'],
  ['tokyo haneda', 'HND'],
  ['seoul incheon', 'ICN'],
  ['seoul', 'ICN'],
  ['bangkok', 'BKK'],
  ['suvarnabhumi', 'BKK'],
  ['reykjavik', 'KEF'],
  ['keflavik', 'KEF'],
  ['stockholm', 'ARN'],
  ['oslo', 'OSL'],
  ['gardermoen', 'OSL'],
  ['toronto', 'YYZ'],
  ['toronto pearson', 'YYZ'],
  ['montreal', 'YUL'],
  ['mexico city', 'MEX'],
  ['ciudad de mexico', 'MEX'],
  ['santiago de chile', 'SCL'],
  ['panama city', 'PTY'],
  ['hong kong', 'HKG'],
  ['kuala lumpur', 'KUL'],
  ['tel aviv', 'TLV'],
  ['abu dhabi', 'AUH'],
  ['cape town', 'CPT'],
  ['salt lake city', 'SLC'],
  ['las vegas', 'LAS'],
  ['los angeles', 'LAX'],
  ['san francisco', 'SFO'],
  ['san diego', 'SAN'],
  ['new delhi', 'DEL'],
  ['lisbon', 'LIS'],
  ['venice', 'VCE'],
  ['milano linate', 'LIN'],
  ['schonefeld', 'SXF'],
  ['berlin schonefeld', 'SXF'],
  ['tempelhof', 'THF'],
  ['beijing', 'PEK'],
  // Cities with several airports: the main one, where runway length would pick another.
  ['paris', 'CDG'],
  ['london', 'LHR'],
  ['milano', 'MXP'],
  ['rome', 'FCO'],
  ['moscow', 'SVO'],
  ['istanbul', 'IST'],
  ['buenos aires', 'EZE'],
  ['rio de janeiro', 'GIG'],
  ['shanghai', 'PVG'],
  ['osaka', 'KIX'],
  ['jakarta', 'CGK'],
  ['washington', 'IAD'],
  ['houston', 'IAH'],
  ['dallas', 'DFW'],
  // Cities whose main airport's name does not say the city, or whose name says it of a smaller one.
  ['boston', 'BOS'],
  ['doha', 'DOH'],
  ['johannesburg', 'JNB'],
  ['detroit', 'DTW'],
  ['mumbai', 'BOM'],
];

/** Closed Berlin airports the package no longer lists (Schönefeld, Tempelhof): named by aliases above. */
const CLOSED_IN_GERMANY = ['SXF', 'THF'];

export function foldName(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ł/g, 'l')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

function nameWords(text: string): string[] {
  return foldName(text)
    .replace(/['’.]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !GENERIC_WORDS.has(word))
    .map((word) => SPELLINGS[word] ?? word);
}

let index: Map<string, KeyEntry[]> | null = null;
/** The first word of every key: a word that is none starts no place. */
let firstWords: Set<string> | null = null;
let loading: Promise<void> | null = null;

function addKey(keys: Map<string, KeyEntry[]>, key: string, airport: NamedAirport, kind: KeyKind): void {
  if (!key || (!key.includes(' ') && (key.length < 3 || NOT_ALONE.has(key)))) return;
  const list = keys.get(key) ?? [];
  const known = list.find((entry) => entry.airport.iata === airport.iata);
  if (known) known.kind = Math.max(known.kind, kind) as KeyKind;
  else list.push({ airport, kind });
  keys.set(key, list);
}

function addName(keys: Map<string, KeyEntry[]>, name: string, airport: NamedAirport): void {
  const words = nameWords(name);
  if (words.length === 0 || words.length > 6) return;
  // A one-word name ('London Airport' in Ontario) is a city's name: no stronger than a city key.
  addKey(keys, words.join(' '), airport, words.length > 1 ? 3 : 1);
  for (let k = 1; k < words.length; k++) {
    addKey(keys, words.slice(k).join(' '), airport, 2);
    if (words[k - 1] && !NOT_ALONE.has(words[k - 1] ?? '')) addKey(keys, words.slice(0, k).join(' '), airport, 1);
  }
}

async function buildIndex(): Promise<void> {
  const keys = new Map<string, KeyEntry[]>();
  try {
    const all = await airportData.findAirports({});
    const byCode = new Map<string, NamedAirport>();
    for (const entry of all) {
      if (!/^[A-Z]{3}$/.test(entry.iata ?? '')) continue;
      if (entry.type !== 'large_airport' && entry.type !== 'medium_airport') continue;
      if (
        /\b(?:railway|rail|bus) station\b|metropolitan area\b|heliport|seaplane|\bair (?:force )?base\b/i.test(
          entry.airport,
        )
      )
        continue;
      const airport: NamedAirport = {
        iata: entry.iata,
        countryCode: entry.country_code,
        scheduled: String(entry.scheduled_service).toUpperCase() === 'TRUE',
        large: entry.type === 'large_airport',
        runway: Number(entry.runway_length) || 0,
      };
      byCode.set(airport.iata, airport);
      addName(keys, entry.airport, airport);
      const page = /\/wiki\/([^/?#]+)$/.exec(entry.wikipedia ?? '')?.[1];
      if (page) {
        let title = page;
        try {
          title = decodeURIComponent(page);
        } catch {
          // a malformed escape: the raw title still reads
        }
        addName(keys, title.replace(/_/g, ' ').replace(/\(.*?\)|,.*$/g, ''), airport);
      }
    }
    // A word that names a city for some airports ('london' in 'East London') is no airport's own name.
    for (const entries of keys.values()) {
      if (entries.some((entry) => entry.kind === 1)) for (const entry of entries) if (entry.kind === 2) entry.kind = 1;
    }
    for (const code of CLOSED_IN_GERMANY) {
      byCode.set(code, { iata: code, countryCode: 'DE', scheduled: false, large: true, runway: 0 });
    }
    for (const [alias, code] of ALIASES) {
      const airport = byCode.get(code);
      if (!airport) continue;
      const key = nameWords(alias).join(' ');
      // An alias names one airport: it replaces what the package's names gave that key.
      keys.set(key, [{ airport, kind: 3 }]);
    }
  } catch {
    // No airport data: names stay unresolved, which only loses legs.
  }
  index = keys;
  firstWords = new Set([...keys.keys()].map((key) => key.split(' ')[0] ?? ''));
}

export function airportNamesLoaded(): boolean {
  return index !== null;
}

/** Loads the name index (once); later calls return at once. */
export function loadAirportNames(): Promise<void> {
  loading ??= buildIndex();
  return loading;
}

export interface PlaceMention {
  start: number;
  end: number;
  code: string;
}

export interface PlaceHints {
  /** Countries the flight's airline is at home in: its airports win a tie. */
  countries?: string[];
}

interface KeyMatch {
  start: number;
  end: number;
  entries: KeyEntry[];
}

const WORD = /[\p{L}\p{M}][\p{L}\p{M}'’.]*/gu;
/** Between two keys of one place: punctuation, a country code, 'Airport', 'Terminal 1'. */
const JOINER =
  /^(?:[\s,()/–-]|\b[A-Z]{2}\b|\b(?:airport|international|intl|terminal|term|flughafen|aeroporto|aeropuerto|a[ée]roport)\b\.?|\b\d{1,2}[A-Z]?\b)*$/i;
const CITY_THEN_AIRPORT = /^\s*(?:,|\s[–-])\s*$/;
/** 'Berlin, Germany, Tegel': a country or region between two names of one airport, after a comma. */
const COUNTRY_BETWEEN = /^\s*,\s*(?:\p{L}[\p{L}.'’-]*\s*){1,3}[\s,()/–-]*$/u;

/** Folded words of each printed word; mail repeats its words, and folding is the costly part. */
const foldCache = new Map<string, string[]>();

function foldedWords(word: string): string[] {
  let folded = foldCache.get(word);
  if (!folded) {
    if (foldCache.size > 20_000) foldCache.clear();
    folded = nameWords(word);
    foldCache.set(word, folded);
  }
  return folded;
}

function keyMatches(text: string): KeyMatch[] {
  if (!index || !firstWords) return [];
  const words: { start: number; end: number; folded: string; capital: boolean }[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0;
    const word = match[0].replace(/[.'’]+$/, '');
    const capital = /^\p{Lu}/u.test(word);
    for (const folded of foldedWords(word)) words.push({ start, end: start + word.length, folded, capital });
  }
  const found: KeyMatch[] = [];
  for (let i = 0; i < words.length; i++) {
    const first = words[i];
    if (!first?.capital || !firstWords.has(first.folded)) continue;
    for (let n = Math.min(4, words.length - i); n >= 1; n--) {
      const run = words.slice(i, i + n);
      // Words of one name sit next to each other: at most a hyphen, slash or space apart.
      if (run.some((word, k) => k > 0 && !/^[\s/-]{1,3}$/.test(text.slice(run[k - 1]?.end ?? 0, word.start)))) continue;
      const entries = index.get(run.map((word) => word.folded).join(' '));
      if (!entries) continue;
      found.push({ start: first.start, end: run[n - 1]?.end ?? first.end, entries });
      i += n - 1;
      break;
    }
  }
  return found;
}

function choose(entries: Map<string, { airport: NamedAirport; kind: number }>, hints: PlaceHints): string | null {
  let best: { airport: NamedAirport; kind: number } | null = null;
  const score = (entry: { airport: NamedAirport; kind: number }): number[] => [
    entry.kind,
    (entry.airport.scheduled ? 1 : 0) + (entry.airport.large ? 1 : 0),
    hints.countries?.includes(entry.airport.countryCode) ? 1 : 0,
    entry.airport.runway,
  ];
  for (const entry of entries.values()) {
    if (!best) {
      best = entry;
      continue;
    }
    const a = score(entry);
    const b = score(best);
    const i = a.findIndex((value, k) => value !== b[k]);
    if (i >= 0 && (a[i] ?? 0) > (b[i] ?? 0)) best = entry;
  }
  return best?.airport.iata ?? null;
}

/**
 * Places named in `text`, each resolved to one airport. Keys next to each other that share an
 * airport ('BERLIN, DE (TEGEL)') are one place; the place takes the shared airports only.
 */
export function findPlaces(text: string, hints: PlaceHints = {}): PlaceMention[] {
  const matches = keyMatches(text);
  const places: PlaceMention[] = [];
  let i = 0;
  while (i < matches.length) {
    const first = matches[i] as KeyMatch;
    const pool = new Map(first.entries.map((entry) => [entry.airport.iata, { ...entry }]));
    let end = first.end;
    let j = i + 1;
    for (; j < matches.length; j++) {
      const next = matches[j] as KeyMatch;
      const gap = text.slice(end, next.start);
      const shared = next.entries.filter((entry) => pool.has(entry.airport.iata));
      if (!JOINER.test(gap) && !(shared.length > 0 && COUNTRY_BETWEEN.test(gap))) break;
      if (shared.length === 0 && /\(\s*$/.test(text.slice(end, next.start))) {
        // 'London Luton (London)': the city in parentheses after its airport's name adds nothing.
        const named = new Set(nameWords(text.slice(first.start, end)));
        if (nameWords(text.slice(next.start, next.end)).every((word) => named.has(word))) {
          end = next.end;
          continue;
        }
        // 'Tokyo (Narita)': the airport named in parentheses after its city.
        pool.clear();
        for (const entry of next.entries) pool.set(entry.airport.iata, { ...entry });
        end = next.end;
        continue;
      }
      // 'London, London Luton Airport', 'Paris, Beauvais-Tillé': a city, then one of its country's
      // airports by its own name; the airport named is the place.
      if (
        shared.length === 0 &&
        CITY_THEN_AIRPORT.test(gap) &&
        next.entries.every((entry) => entry.kind >= 2) &&
        next.entries.some((entry) =>
          [...pool.values()].some((known) => known.airport.countryCode === entry.airport.countryCode),
        )
      ) {
        pool.clear();
        for (const entry of next.entries) pool.set(entry.airport.iata, { ...entry });
        end = next.end;
        continue;
      }
      if (shared.length === 0) break;
      for (const [code, entry] of pool) {
        const other = shared.find((candidate) => candidate.airport.iata === code);
        if (!other) pool.delete(code);
        else entry.kind = Math.max(entry.kind, other.kind) as KeyKind;
      }
      end = next.end;
    }
    // A closing parenthesis belongs to the place it closes.
    if (text[end] === ')' && text.lastIndexOf('(', end) >= first.start) end += 1;
    const code = choose(pool, hints);
    if (code) places.push({ start: first.start, end, code });
    i = j;
  }
  return places;
}
