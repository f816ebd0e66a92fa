// Traveller names as airlines print them: 'Ms Imogen Thwaite', 'MARISOL QUENNELL',
// 'VARADARAJAN/NANDINI MS', 'Mrs Femke DOORNBOS', 'Frau Ingeborg Wöhlke'. Output is
// 'Given Family' without titles; all-caps words become capitalised words.

const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mstr',
  'master',
  'dr',
  'prof',
  'herr',
  'frau',
  'hr',
  'fr',
  'm',
  'mme',
  'mlle',
  'sr',
  'sra',
  'srta',
  'sig',
  'mx',
  'sir',
  'madam',
  'monsieur',
  'madame',
  'señor',
  'señora',
  // Age categories printed where a title would be: 'Kind Jonas Weiß', 'Child Mateo Ferreira'.
  'kind',
  'child',
  'infant',
  'enfant',
  'bébé',
  'niño',
  'niña',
]);

/** Words that end a name: loyalty programmes, ticket and seat words, headings. */
const NOT_NAME_WORDS = new Set([
  'skymiles',
  'aadvantage',
  'mileageplus',
  'trueblue',
  'aeroplan',
  'skywards',
  'flying',
  'club',
  'frequent',
  'flyer',
  'miles',
  'more',
  'ticket',
  'eticket',
  'e-ticket',
  'seat',
  'seats',
  'free',
  'spirit',
  'executive',
  'krisflyer',
  'blue',
  'mileage',
  'plan',
  'loyalty',
  'member',
  'status',
  'rapid',
  'rewards',
  'avios',
  'asia',
  'sitzplatz',
  'ticketnummer',
  'meal',
  'adult',
  'child',
  'infant',
  'erwachsener',
  'adulte',
  'adulto',
  'number',
  'no',
  'nr',
  'payment',
  'summary',
  'flight',
  'flights',
  'details',
  'total',
  'fare',
  'price',
  'information',
  'info',
  'itinerary',
  'booking',
  'receipt',
  'baggage',
  'bag',
  'bags',
  'class',
  'economy',
  'business',
  'cabin',
  'confirmation',
  'reference',
  'record',
  'reservation',
  'code',
  'locator',
  'date',
  'name',
  'names',
  'type',
  'the',
  'and',
  'your',
  'trip',
  'travel',
  'time',
  'departure',
  'arrival',
  'depart',
  'arrive',
  'from',
  'to',
  'facility',
  'charge',
  'charges',
  'security',
  'fee',
  'fees',
  'tax',
  'taxes',
  'service',
  'airlines',
  'airline',
  'airways',
  'air',
  'lines',
  'passenger',
  'passengers',
  'traveler',
  'travelers',
  'traveller',
  'travellers',
  'guest',
  'guests',
  'premier',
  'silver',
  'gold',
  'platinum',
  'diamond',
  'medallion',
  'elite',
  'programme',
  'program',
  'ffp',
  'id',
  'dob',
  'birth',
  'gender',
  'phone',
  'email',
  'contact',
  'reisende',
  'passagier',
  'passager',
  'pasajero',
  'boarding',
  'pass',
  'check-in',
  'checkin',
  'gate',
  'terminal',
  'status:',
  'confirmed',
  'meals',
  'special',
  'request',
  'requests',
  'known',
  'traveler',
  'redress',
  'tsa',
  'precheck',
]);

const NAME_WORD = /^[\p{L}][\p{L}'’.-]*$/u;

function capitalise(word: string): string {
  if (word !== word.toUpperCase()) return word;
  return word
    .toLowerCase()
    .replace(/(^|[-'’])(\p{L})/gu, (_, separator: string, letter: string) => separator + letter.toUpperCase());
}

function isTitle(word: string): boolean {
  return TITLES.has(word.toLowerCase().replace(/\.$/, ''));
}

const TRAILING_TITLE = /^((?:[\p{Lu}][\p{Lu}'’-]*\s+){2,4})(?:MR|MRS|MS|MISS|MSTR|DR)\.?(?=$|\s*[,;|·(]|\s+\/\s)/u;

export interface NameReading {
  name: string;
  /** A title, the all-caps form or the FAMILY/GIVEN form marked it as a person. */
  marked: boolean;
}

/**
 * Reads a name at the start of `text`, stopping at the first word that is not part of a name.
 * Returns null when fewer than two name words are found.
 */
export function readName(text: string): NameReading | null {
  const value = text.trim();
  // 'SAKURAGI HARUTO MR': the reservation-system order (FAMILY GIVEN TITLE) without the slash.
  const trailing = TRAILING_TITLE.exec(value);
  if (trailing?.[1]) {
    const words = trailing[1].trim().split(/\s+/);
    if (words.length >= 2 && words.length <= 4 && !words.some((word) => NOT_NAME_WORDS.has(word.toLowerCase()))) {
      const [family, ...given] = words.map(capitalise);
      return { name: [...given, family].join(' '), marked: true };
    }
  }
  const slash =
    /^([\p{Lu}][\p{Lu}'’ -]*?)\s*\/\s*([\p{Lu}][\p{Lu}'’-]*(?:\s+[\p{Lu}][\p{Lu}'’.-]*){0,4})(?=$|[\s,;|·(]|\d)/u.exec(
      value,
    );
  if (slash && slash[1] && slash[2]) {
    const family = slash[1].trim().split(/\s+/).map(capitalise);
    // 'TAN/RACHEL MEI LING MS': every given name up to the trailing title.
    const given: string[] = [];
    for (const word of slash[2].trim().split(/\s+/)) {
      if (isTitle(word) || NOT_NAME_WORDS.has(word.toLowerCase()) || word.endsWith('.')) break;
      given.push(capitalise(word));
    }
    if (family.length > 0 && given.length > 0 && !family.some((word) => NOT_NAME_WORDS.has(word.toLowerCase()))) {
      return { name: [...given, ...family].join(' '), marked: true };
    }
  }
  const words = value.split(/\s+/);
  let marked = false;
  const kept: string[] = [];
  for (const raw of words) {
    const word = raw.replace(/[,;:]+$/, '');
    const ended = word !== raw;
    if (kept.length === 0 && isTitle(word)) {
      marked = true;
      continue;
    }
    // 'Mr Benoit Lavoie Mrs Lea Lavoie': a title after a name starts the next traveller.
    if (kept.length >= 2 && isTitle(word) && word.length >= 2) break;
    if (!NAME_WORD.test(word) || NOT_NAME_WORDS.has(word.toLowerCase())) break;
    // 'Liam O'Neil WestJet Rewards': a brand with an inner capital ends the name (McDonald,
    // MacKenzie and DeShawn do not).
    if (kept.length >= 2 && /^\p{Lu}\p{Ll}{2,}\p{Lu}/u.test(word) && !/^Mac/.test(word)) break;
    if (/\.$/.test(word) && !isTitle(word) && word.length > 2) {
      kept.push(word.replace(/\.$/, ''));
      break; // 'LEOPOLD FAIRWEATHER.' ends the sentence
    }
    kept.push(word);
    if (ended || kept.length >= 5) break;
  }
  while (kept.length > 0 && isTitle(kept[kept.length - 1] ?? '')) kept.pop();
  const letters = kept.filter((word) => word.replace(/[^\p{L}]/gu, '').length >= 2);
  if (kept.length < 2 || letters.length < 2) return null;
  const allCaps = kept.every((word) => word === word.toUpperCase());
  return { name: kept.map(capitalise).join(' '), marked: marked || allCaps };
}

const PARTICLES = new Set([
  'van',
  'von',
  'de',
  'der',
  'den',
  'del',
  'della',
  'di',
  'da',
  'du',
  'la',
  'le',
  'dos',
  'das',
  'ten',
  'ter',
  'bin',
  'al',
  'el',
]);

/** Common Spanish paternal surnames: 'Ortega Villalobos' is one family name of two. */
const SPANISH_SURNAMES = new Set(
  (
    'garcia rodriguez gonzalez fernandez lopez martinez sanchez perez gomez jimenez ruiz ' +
    'hernandez diaz moreno munoz alvarez romero alonso gutierrez navarro torres dominguez vazquez ' +
    'ramos ramirez serrano blanco molina morales suarez ortega delgado castro ortiz rubio marin ' +
    'sanz nunez iglesias medina garrido cortes castillo santos lozano guerrero cano prieto mendez ' +
    'cruz calvo gallego vidal marquez herrera pena flores cabrera campos vega fuentes carrasco ' +
    'diez caballero reyes nieto aguilar santana herrero montero hidalgo gimenez ' +
    'ibanez ferrer duran benitez mora vargas arias carmona crespo pastor ' +
    'soto saez velasco moya soler parra bravo gallardo rojas pardo merino espinosa ' +
    'izquierdo lara rivas silva rivera casado arroyo redondo camacho rey vera otero luque galan ' +
    'montes rios sierra segura carrillo marti soriano mendoza chavez salazar contreras ' +
    'guzman figueroa valencia sandoval espinoza cardenas villalobos zamora acosta aguirre valdes ' +
    'ortuno aguilera salinas pacheco rosales cordero solis cabello quintero barrios ponce robles ' +
    'palacios villanueva escobar pineda ochoa cuevas vallejo maldonado ibarra zapata'
  ).split(' '),
);
const plain = (word: string): string =>
  word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Family name of a 'Given Family' name, with particles: 'van der Berg'. */
export function familyName(name: string): string {
  const words = name.trim().split(/\s+/);
  if (words.length <= 1) return words[0] ?? '';
  let start = words.length - 1;
  while (start > 1 && PARTICLES.has((words[start - 1] ?? '').toLowerCase())) start--;
  // 'Javier Ruiz Montalbán', 'Lucía Ortiz de Zárate': a Spanish first surname before the last.
  const before = words[start - 1] ?? '';
  // ... or a patronymic: 'Pérez', 'Valdés', 'Ortíz'.
  if (start > 1 && (SPANISH_SURNAMES.has(plain(before)) || /^\p{Lu}\p{Ll}{2,}(?:ez|[éáí]s|[íá]z)$/u.test(before)))
    start--;
  return words.slice(start).join(' ');
}

export function sameName(a: string, b: string): boolean {
  const normal = (value: string): string => value.toLowerCase().replace(/\s+/g, ' ').trim();
  return normal(a) === normal(b);
}

/** Letters only, accents and German umlaut spellings folded: 'Wöhlke', 'WOEHLKE' and 'Wohlke' agree. */
function nameKey(text: string): string {
  return plain(text)
    .replace(/[^a-z]/g, '')
    .replace(/([aou])e/g, '$1');
}

/** A traveller as printed ('SMITH/JOHN MR', 'MR JOHN SMITH') or already read ('John Smith'). */
function asTraveller(text: string): string | null {
  const value = text.trim().replace(/\s+/g, ' ');
  if (value === '') return null;
  const [first = ''] = value.split(' ');
  const printed = value.includes('/') || isTitle(first) || value === value.toUpperCase();
  // A name already read is kept as it is: reading it again could cut a family name that is also
  // a word ('Jane Gold').
  if (!printed) return value.split(' ').length >= 2 ? value : null;
  return readName(value)?.name ?? null;
}

/**
 * The same person twice, as different sources print them: the family names agree (a barcode's
 * 20-character name field may cut a long one short, and then the given name too) and so does the
 * first given name, or one is an initial, a cut (five letters or more) or the other with its title
 * glued on ('JOHNMR'); or the same words in another order.
 */
function samePerson(a: string, b: string): boolean {
  const wordsA = a.split(' ').map(nameKey).filter(Boolean);
  const wordsB = b.split(' ').map(nameKey).filter(Boolean);
  if (wordsA.length === 0 || wordsB.length === 0) return false;
  if ([...wordsA].sort().join(' ') === [...wordsB].sort().join(' ')) return true;
  const familyA = nameKey(familyName(a));
  const familyB = nameKey(familyName(b));
  const [shortFamily, longFamily] = familyA.length <= familyB.length ? [familyA, familyB] : [familyB, familyA];
  const familyCut = shortFamily !== longFamily && shortFamily.length >= 12 && longFamily.startsWith(shortFamily);
  const sameFamily = familyA === familyB || wordsA[wordsA.length - 1] === wordsB[wordsB.length - 1] || familyCut;
  if (!sameFamily) return false;
  const givenA = wordsA[0] ?? '';
  const givenB = wordsB[0] ?? '';
  const [short, long] = givenA.length <= givenB.length ? [givenA, givenB] : [givenB, givenA];
  if (!long.startsWith(short)) return false;
  // 'John' and 'Johnny' are two people; an initial, a title glued on or a long name cut are one.
  return short === long || familyCut || short.length === 1 || TITLES.has(long.slice(short.length)) || short.length >= 5;
}

/**
 * The party: every traveller once, in the order first met, from any number of sources (the body,
 * PDF attachments, boarding-pass barcodes), as 'Given Family'. Where two sources spell one person
 * differently the first spelling stays. The one place names are deduplicated.
 */
export function mergeTravellers(...sources: Iterable<string>[]): string[] {
  const party: string[] = [];
  for (const source of sources) {
    for (const text of source) {
      const name = asTraveller(text);
      if (name && !party.some((known) => samePerson(known, name))) party.push(name);
    }
  }
  return party;
}
