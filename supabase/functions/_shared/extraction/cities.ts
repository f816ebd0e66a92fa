// City and airport names that stand for one airport, for confirmations that print places
// without codes ('Depart Auckland 8:30am'). Only names that leave no doubt are listed: a city
// with several busy airports appears only with the airport's own name ('London Heathrow',
// 'Tokyo (Narita)'), and city names that are also common words (Nice, Split) are left out.
const NAMES: [string, string][] = [
  // North America
  ['atlanta', 'ATL'],
  ['boston', 'BOS'],
  ['denver', 'DEN'],
  ['seattle', 'SEA'],
  ['los angeles', 'LAX'],
  ['san francisco', 'SFO'],
  ['las vegas', 'LAS'],
  ['phoenix', 'PHX'],
  ['miami', 'MIA'],
  ['orlando', 'MCO'],
  ['fort lauderdale', 'FLL'],
  ['tampa', 'TPA'],
  ['philadelphia', 'PHL'],
  ['charlotte', 'CLT'],
  ['minneapolis', 'MSP'],
  ['detroit', 'DTW'],
  ['salt lake city', 'SLC'],
  ['san diego', 'SAN'],
  ['nashville', 'BNA'],
  ['austin', 'AUS'],
  ['honolulu', 'HNL'],
  ['anchorage', 'ANC'],
  ['lihue', 'LIH'],
  ['kahului', 'OGG'],
  ['dallas/fort worth', 'DFW'],
  ['dallas-fort worth', 'DFW'],
  ['raleigh-durham', 'RDU'],
  ['raleigh/durham', 'RDU'],
  ['newark', 'EWR'],
  ['laguardia', 'LGA'],
  ["o'hare", 'ORD'],
  ['chicago midway', 'MDW'],
  ['washington dulles', 'IAD'],
  ['dulles', 'IAD'],
  ['montreal', 'YUL'],
  ['montréal', 'YUL'],
  ['vancouver', 'YVR'],
  ['calgary', 'YYC'],
  ['edmonton', 'YEG'],
  ['ottawa', 'YOW'],
  ['winnipeg', 'YWG'],
  ['halifax', 'YHZ'],
  ['toronto pearson', 'YYZ'],
  ['mexico city', 'MEX'],
  ['ciudad de méxico', 'MEX'],
  ['cancun', 'CUN'],
  ['cancún', 'CUN'],
  ['guadalajara', 'GDL'],
  ['monterrey', 'MTY'],
  // Central and South America
  ['panama city', 'PTY'],
  ['bogota', 'BOG'],
  ['bogotá', 'BOG'],
  ['lima', 'LIM'],
  ['santiago de chile', 'SCL'],
  ['guarulhos', 'GRU'],
  ['medellín', 'MDE'],
  ['medellin', 'MDE'],
  // Europe
  ['london heathrow', 'LHR'],
  ['heathrow', 'LHR'],
  ['london gatwick', 'LGW'],
  ['gatwick', 'LGW'],
  ['paris charles de gaulle', 'CDG'],
  ['paris-charles de gaulle', 'CDG'],
  ['charles de gaulle', 'CDG'],
  ['paris orly', 'ORY'],
  ['amsterdam', 'AMS'],
  ['schiphol', 'AMS'],
  ['frankfurt', 'FRA'],
  ['munich', 'MUC'],
  ['münchen', 'MUC'],
  ['muenchen', 'MUC'],
  ['zurich', 'ZRH'],
  ['zürich', 'ZRH'],
  ['geneva', 'GVA'],
  ['genève', 'GVA'],
  ['vienna', 'VIE'],
  ['wien', 'VIE'],
  ['copenhagen', 'CPH'],
  ['københavn', 'CPH'],
  ['helsinki', 'HEL'],
  ['oslo', 'OSL'],
  ['stockholm arlanda', 'ARN'],
  ['dublin', 'DUB'],
  ['edinburgh', 'EDI'],
  ['manchester', 'MAN'],
  ['madrid', 'MAD'],
  ['barcelona', 'BCN'],
  ['lisbon', 'LIS'],
  ['lisboa', 'LIS'],
  ['porto', 'OPO'],
  ['athens', 'ATH'],
  ['prague', 'PRG'],
  ['budapest', 'BUD'],
  ['warsaw', 'WAW'],
  ['reykjavik', 'KEF'],
  ['rome fiumicino', 'FCO'],
  ['fiumicino', 'FCO'],
  ['milan malpensa', 'MXP'],
  ['malpensa', 'MXP'],
  ['düsseldorf', 'DUS'],
  ['dusseldorf', 'DUS'],
  ['hamburg', 'HAM'],
  // Middle East, Africa, Asia, Pacific
  ['dubai', 'DXB'],
  ['doha', 'DOH'],
  ['abu dhabi', 'AUH'],
  ['tel aviv', 'TLV'],
  ['johannesburg', 'JNB'],
  ['cape town', 'CPT'],
  ['nairobi', 'NBO'],
  ['singapore', 'SIN'],
  ['hong kong', 'HKG'],
  ['narita', 'NRT'],
  ['haneda', 'HND'],
  ['kansai', 'KIX'],
  ['incheon', 'ICN'],
  ['suvarnabhumi', 'BKK'],
  ['kuala lumpur', 'KUL'],
  ['new delhi', 'DEL'],
  ['delhi', 'DEL'],
  ['mumbai', 'BOM'],
  ['bengaluru', 'BLR'],
  ['auckland', 'AKL'],
  ['wellington', 'WLG'],
  ['christchurch', 'CHC'],
  ['queenstown', 'ZQN'],
  ['sydney', 'SYD'],
  ['melbourne', 'MEL'],
  ['brisbane', 'BNE'],
  ['perth', 'PER'],
  ['adelaide', 'ADL'],
];

const CODES = new Map(NAMES);
const PATTERN = new RegExp(
  `(?<![\\p{L}'’])(${[...CODES.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|')})(?![\\p{L}'’])`,
  'giu',
);

export interface CityMention {
  start: number;
  end: number;
  code: string;
}

/** Places named without a code, with the airport each one stands for. */
export function findCityAirports(text: string): CityMention[] {
  const found: CityMention[] = [];
  for (const match of text.matchAll(PATTERN)) {
    const code = CODES.get(match[0].toLowerCase());
    const start = match.index ?? 0;
    if (code) found.push({ start, end: start + match[0].length, code });
  }
  return found;
}
