// Airlines the engine knows by name: IATA code, the brand name a traveller sees, the sender
// domains of their booking mail, the names printed before flight numbers ('DELTA 423'), the home
// currency (what '$' means in their mail) and the fare brands they sell. This is product
// knowledge about airlines, not airport data; airports come from the airport package.
import type { CabinClass } from './types.ts';

export interface AirlineProfile {
  iata: string;
  name: string;
  /** Registrable domains (and subdomains of them) that send this airline's booking mail. */
  domains: string[];
  /** Names printed in front of a flight number, e.g. 'Delta' in 'DELTA 423'. */
  flightPrefixes: string[];
  currency: string;
  /** Fare brands as the airline prints them, longest first where one contains another. */
  fareBrands: string[];
  /** The airline prints the fare brand in each flight row ('Main Cabin (Economy)'). */
  fareBrandInFlightRow?: boolean;
  /** Brands printed with a cabin word in front that is not part of the brand ('Economy Standard'). */
  fareBrandCabinPrefix?: string;
  /** Cabin names of this airline that the generic cabin words would misread. */
  cabinNames?: [RegExp, CabinClass][];
}

const profiles: AirlineProfile[] = [
  {
    iata: 'AA',
    name: 'American Airlines',
    domains: ['aa.com', 'americanairlines.com'],
    flightPrefixes: ['American Airlines', 'American Eagle', 'American'],
    currency: 'USD',
    fareBrands: ['Basic Economy', 'Main Cabin Extra', 'Main Cabin', 'Main Plus', 'Main Select', 'Premium Economy'],
  },
  {
    iata: 'DL',
    name: 'Delta Air Lines',
    domains: ['delta.com'],
    flightPrefixes: ['Delta Air Lines', 'Delta'],
    currency: 'USD',
    fareBrandInFlightRow: true,
    fareBrands: [
      'Basic Economy',
      'Main Cabin',
      'Comfort+',
      'Delta Comfort+',
      'Delta Comfort',
      'Premium Select',
      'Delta Premium Select',
      'Delta One',
      'First Class',
    ],
    cabinNames: [
      [/comfort\+?/i, 'Economy'],
      [/delta one/i, 'Business'],
    ],
  },
  {
    iata: 'UA',
    name: 'United Airlines',
    domains: ['united.com'],
    flightPrefixes: ['United Airlines', 'United'],
    currency: 'USD',
    fareBrands: ['Basic Economy', 'Economy Plus'],
    cabinNames: [
      [/premium plus/i, 'Premium Economy'],
      [/polaris/i, 'Business'],
    ],
  },
  {
    iata: 'WN',
    name: 'Southwest Airlines',
    domains: ['southwest.com', 'luv.southwest.com'],
    flightPrefixes: ['Southwest Airlines', 'Southwest'],
    currency: 'USD',
    fareBrands: ['Wanna Get Away Plus', 'Wanna Get Away', 'Anytime', 'Business Select', 'Basic'],
    fareBrandInFlightRow: true,
  },
  {
    iata: 'AS',
    name: 'Alaska Airlines',
    domains: ['alaskaair.com'],
    flightPrefixes: ['Alaska Airlines', 'Alaska'],
    currency: 'USD',
    fareBrands: ['Saver', 'Main', 'Premium Class', 'First Class'],
    // Alaska names its cabins Main, Premium Class and First Class; Saver is a fare in Main.
    cabinNames: [
      [/premium class/i, 'Premium Economy'],
      [/\bmain\b/i, 'Economy'],
    ],
  },
  {
    iata: 'B6',
    name: 'JetBlue Airways',
    domains: ['jetblue.com'],
    flightPrefixes: ['JetBlue Airways', 'JetBlue'],
    currency: 'USD',
    fareBrandInFlightRow: true,
    fareBrands: ['Blue Basic', 'Blue Extra', 'Blue Plus', 'Blue', 'Mint'],
    cabinNames: [
      [/\bmint\b/i, 'Business'],
      [/\bcore\b/i, 'Economy'],
    ],
  },
  {
    iata: 'NK',
    name: 'Spirit Airlines',
    domains: ['spirit.com'],
    flightPrefixes: ['Spirit Airlines', 'Spirit'],
    currency: 'USD',
    fareBrands: ['Bare Fare', 'Go Savvy', 'Go Comfy', 'Go Big'],
  },
  {
    iata: 'F9',
    name: 'Frontier Airlines',
    domains: ['flyfrontier.com'],
    flightPrefixes: ['Frontier Airlines', 'Frontier'],
    currency: 'USD',
    fareBrands: ['Basic', 'Economy', 'Premium', 'Business'],
  },
  {
    iata: 'G4',
    name: 'Allegiant Air',
    domains: ['allegiant.com', 'allegiantair.com'],
    flightPrefixes: ['Allegiant'],
    currency: 'USD',
    fareBrands: [],
  },
  {
    iata: 'HA',
    name: 'Hawaiian Airlines',
    domains: ['hawaiianairlines.com'],
    flightPrefixes: ['Hawaiian Airlines', 'Hawaiian'],
    currency: 'USD',
    fareBrands: ['Main Cabin Basic', 'Main Cabin'],
    fareBrandInFlightRow: true,
  },
  {
    iata: 'SY',
    name: 'Sun Country Airlines',
    domains: ['suncountry.com'],
    flightPrefixes: ['Sun Country'],
    currency: 'USD',
    fareBrands: [],
  },
  {
    iata: 'AC',
    name: 'Air Canada',
    domains: ['aircanada.ca', 'aircanada.com'],
    flightPrefixes: ['Air Canada'],
    currency: 'CAD',
    fareBrandCabinPrefix: 'Economy',
    fareBrands: ['Basic', 'Standard', 'Flex', 'Comfort', 'Latitude'],
  },
  {
    iata: 'WS',
    name: 'WestJet',
    domains: ['westjet.com'],
    flightPrefixes: ['WestJet'],
    currency: 'CAD',
    fareBrands: ['EconoFlex', 'Econo', 'PremiumFlex', 'Premium', 'BusinessFlex', 'Basic'],
  },
  {
    iata: 'PD',
    name: 'Porter Airlines',
    domains: ['flyporter.com'],
    flightPrefixes: ['Porter'],
    currency: 'CAD',
    fareBrands: ['PorterClassic', 'PorterReserve'],
  },
  {
    iata: 'TS',
    name: 'Air Transat',
    domains: ['airtransat.com'],
    flightPrefixes: ['Air Transat'],
    currency: 'CAD',
    fareBrands: [],
  },
  {
    iata: 'F8',
    name: 'Flair Airlines',
    domains: ['flyflair.com'],
    flightPrefixes: ['Flair'],
    currency: 'CAD',
    fareBrands: [],
  },
  {
    iata: 'AM',
    name: 'Aeroméxico',
    domains: ['aeromexico.com'],
    flightPrefixes: ['Aeroméxico', 'Aeromexico'],
    currency: 'MXN',
    fareBrands: ['Básica', 'Clásica', 'Flexible'],
  },
  {
    iata: 'Y4',
    name: 'Volaris',
    domains: ['volaris.com'],
    flightPrefixes: ['Volaris'],
    currency: 'MXN',
    fareBrands: [],
  },
  {
    iata: 'VB',
    name: 'Viva Aerobus',
    domains: ['vivaaerobus.com'],
    flightPrefixes: ['Viva Aerobus', 'VivaAerobus'],
    currency: 'MXN',
    fareBrands: [],
  },
  {
    iata: 'CM',
    name: 'Copa Airlines',
    domains: ['copaair.com'],
    flightPrefixes: ['Copa Airlines', 'Copa'],
    currency: 'USD',
    fareBrands: [],
  },
  {
    iata: 'AV',
    name: 'Avianca',
    domains: ['avianca.com'],
    flightPrefixes: ['Avianca'],
    currency: 'USD',
    fareBrands: ['XS', 'Basic', 'Classic', 'Flex'],
  },
  {
    iata: 'LA',
    name: 'LATAM Airlines',
    domains: ['latam.com', 'latamairlines.com'],
    flightPrefixes: ['LATAM'],
    currency: 'USD',
    fareBrands: [],
  },
  {
    iata: 'BA',
    name: 'British Airways',
    domains: ['ba.com', 'britishairways.com', 'email.ba.com'],
    flightPrefixes: ['British Airways'],
    currency: 'GBP',
    fareBrands: ['Basic', 'Standard', 'Plus', 'Flex'],
    cabinNames: [
      [/club world|club suite/i, 'Business'],
      [/club europe/i, 'Business'],
      [/world traveller plus/i, 'Premium Economy'],
      [/world traveller|euro traveller/i, 'Economy'],
    ],
  },
  {
    iata: 'VS',
    name: 'Virgin Atlantic',
    domains: ['virginatlantic.com', 'virgin-atlantic.com'],
    flightPrefixes: ['Virgin Atlantic'],
    currency: 'GBP',
    fareBrands: ['Economy Light', 'Economy Classic', 'Economy Delight', 'Premium', 'Upper Class'],
    cabinNames: [
      [/upper class/i, 'Business'],
      [/\bpremium\b/i, 'Premium Economy'],
    ],
  },
  {
    iata: 'U2',
    name: 'easyJet',
    domains: ['easyjet.com'],
    flightPrefixes: ['easyJet'],
    currency: 'GBP',
    fareBrands: ['Standard', 'Flexi'],
  },
  {
    iata: 'FR',
    name: 'Ryanair',
    domains: ['ryanair.com'],
    flightPrefixes: ['Ryanair'],
    currency: 'EUR',
    fareBrands: ['Flexi Plus', 'Family Plus', 'Regular', 'Plus', 'Basic', 'Value'],
  },
  {
    iata: 'EI',
    name: 'Aer Lingus',
    domains: ['aerlingus.com'],
    flightPrefixes: ['Aer Lingus'],
    currency: 'EUR',
    fareBrands: ['Saver', 'Smart', 'Advantage'],
  },
  {
    iata: 'LH',
    name: 'Lufthansa',
    domains: ['lufthansa.com', 'booking-lufthansa.com'],
    flightPrefixes: ['Lufthansa'],
    currency: 'EUR',
    fareBrands: [
      'Economy Light',
      'Economy Classic',
      'Economy Flex',
      'Business Saver',
      'Business Flex',
      'Premium Economy Classic',
      'Premium Economy Flex',
    ],
  },
  {
    iata: 'LX',
    name: 'Swiss International Air Lines',
    domains: ['swiss.com'],
    flightPrefixes: ['SWISS', 'Swiss'],
    currency: 'CHF',
    fareBrands: ['Economy Light', 'Economy Classic', 'Economy Flex'],
  },
  {
    iata: 'OS',
    name: 'Austrian Airlines',
    domains: ['austrian.com'],
    flightPrefixes: ['Austrian'],
    currency: 'EUR',
    fareBrands: ['Economy Light', 'Economy Classic', 'Economy Flex'],
  },
  {
    iata: 'SN',
    name: 'Brussels Airlines',
    domains: ['brusselsairlines.com'],
    flightPrefixes: ['Brussels Airlines'],
    currency: 'EUR',
    fareBrands: ['Economy Light', 'Economy Classic', 'Economy Flex'],
  },
  {
    iata: 'EW',
    name: 'Eurowings',
    domains: ['eurowings.com'],
    flightPrefixes: ['Eurowings'],
    currency: 'EUR',
    fareBrands: ['Basic', 'Smart', 'Biz'],
  },
  {
    iata: 'DE',
    name: 'Condor',
    domains: ['condor.com'],
    flightPrefixes: ['Condor'],
    currency: 'EUR',
    fareBrands: ['Economy Light', 'Economy Classic', 'Economy Flex'],
  },
  {
    iata: 'AF',
    name: 'Air France',
    domains: ['airfrance.fr', 'airfrance.com', 'service-airfrance.com', 'airfrance.us'],
    flightPrefixes: ['Air France'],
    currency: 'EUR',
    fareBrands: [
      'Economy Light',
      'Economy Standard',
      'Economy Flex',
      'Premium Light',
      'Premium Standard',
      'Premium Flex',
      'Business Standard',
      'Business Flex',
    ],
  },
  {
    iata: 'KL',
    name: 'KLM Royal Dutch Airlines',
    domains: ['klm.com', 'klm-info.com', 'klm.nl', 'klmmail.com'],
    flightPrefixes: ['KLM'],
    currency: 'EUR',
    fareBrands: [
      'Economy Light',
      'Economy Standard',
      'Economy Flex',
      'Premium Comfort Standard',
      'Business Standard',
      'Business Flex',
    ],
  },
  {
    iata: 'IB',
    name: 'Iberia',
    domains: ['iberia.com', 'iberia.es', 'iberiaexpress.com'],
    flightPrefixes: ['Iberia'],
    currency: 'EUR',
    fareBrands: ['Basic', 'Optima', 'Comfort', 'Flexible'],
  },
  {
    iata: 'VY',
    name: 'Vueling',
    domains: ['vueling.com'],
    flightPrefixes: ['Vueling'],
    currency: 'EUR',
    fareBrands: ['Basic', 'Optima', 'TimeFlex'],
  },
  {
    iata: 'UX',
    name: 'Air Europa',
    domains: ['aireuropa.com'],
    flightPrefixes: ['Air Europa'],
    currency: 'EUR',
    fareBrands: ['Lite', 'Standard', 'Flex'],
  },
  {
    iata: 'TP',
    name: 'TAP Air Portugal',
    domains: ['flytap.com'],
    flightPrefixes: ['TAP Air Portugal', 'TAP'],
    currency: 'EUR',
    fareBrands: ['Discount', 'Basic', 'Classic', 'Plus', 'Executive'],
  },
  {
    iata: 'AZ',
    name: 'ITA Airways',
    domains: ['ita-airways.com'],
    flightPrefixes: ['ITA Airways'],
    currency: 'EUR',
    fareBrands: ['Economy Light', 'Economy Classic', 'Economy Flex'],
  },
  {
    iata: 'SK',
    name: 'Scandinavian Airlines',
    domains: ['flysas.com', 'sas.se', 'sas.dk', 'sas.no'],
    flightPrefixes: ['SAS'],
    currency: 'EUR',
    fareBrands: ['SAS Go Light', 'SAS Go Smart', 'SAS Plus', 'SAS Business'],
    // The brands begin with the cabin: SAS Go is economy, SAS Plus premium economy.
    cabinNames: [
      [/\bsas go\b/i, 'Economy'],
      [/\bsas plus\b/i, 'Premium Economy'],
    ],
  },
  {
    iata: 'AY',
    name: 'Finnair',
    domains: ['finnair.com'],
    flightPrefixes: ['Finnair'],
    currency: 'EUR',
    fareBrands: ['Economy Light', 'Economy Classic', 'Economy Flex'],
  },
  {
    iata: 'DY',
    name: 'Norwegian',
    domains: ['norwegian.com', 'norwegian.no'],
    flightPrefixes: ['Norwegian'],
    currency: 'EUR',
    fareBrands: ['LowFare', 'LowFare+', 'Flex'],
  },
  {
    iata: 'FI',
    name: 'Icelandair',
    domains: ['icelandair.com', 'icelandair.is'],
    flightPrefixes: ['Icelandair'],
    currency: 'USD',
    fareBrands: ['Economy Light', 'Economy Standard', 'Economy Flex'],
  },
  {
    iata: 'LO',
    name: 'LOT Polish Airlines',
    domains: ['lot.com'],
    flightPrefixes: ['LOT'],
    currency: 'EUR',
    fareBrands: [],
  },
  {
    iata: 'W6',
    name: 'Wizz Air',
    domains: ['wizzair.com'],
    flightPrefixes: ['Wizz Air'],
    currency: 'EUR',
    fareBrands: [],
  },
  {
    iata: 'V7',
    name: 'Volotea',
    domains: ['volotea.com'],
    flightPrefixes: ['Volotea'],
    currency: 'EUR',
    fareBrands: ['Megavolotea'],
  },
  {
    iata: 'HV',
    name: 'Transavia',
    domains: ['transavia.com'],
    flightPrefixes: ['Transavia'],
    currency: 'EUR',
    fareBrands: [],
  },
  {
    iata: 'TK',
    name: 'Turkish Airlines',
    domains: ['thy.com', 'turkishairlines.com'],
    flightPrefixes: ['Turkish Airlines'],
    currency: 'EUR',
    fareBrands: ['EcoFly', 'ExtraFly', 'PrimeFly', 'BusinessFly'],
  },
  {
    iata: 'EK',
    name: 'Emirates',
    domains: ['emirates.com', 'emirates.email'],
    flightPrefixes: ['Emirates'],
    currency: 'USD',
    fareBrands: [
      'Economy Special',
      'Economy Saver',
      'Economy Flex Plus',
      'Economy Flex',
      'Business Saver',
      'Business Flex',
    ],
  },
  {
    iata: 'QR',
    name: 'Qatar Airways',
    domains: ['qatarairways.com', 'qatarairways.com.qa'],
    flightPrefixes: ['Qatar Airways'],
    currency: 'USD',
    fareBrands: ['Economy Lite', 'Economy Classic', 'Economy Convenience', 'Economy Comfort'],
  },
  {
    iata: 'EY',
    name: 'Etihad Airways',
    domains: ['etihad.com', 'etihad.ae'],
    flightPrefixes: ['Etihad'],
    currency: 'USD',
    fareBrands: ['Economy Saver', 'Economy Value', 'Economy Comfort', 'Economy Deluxe'],
  },
  {
    iata: 'ET',
    name: 'Ethiopian Airlines',
    domains: ['ethiopianairlines.com'],
    flightPrefixes: ['Ethiopian'],
    currency: 'USD',
    fareBrands: [],
  },
  {
    iata: 'AI',
    name: 'Air India',
    domains: ['airindia.com', 'airindia.in'],
    flightPrefixes: ['Air India'],
    currency: 'INR',
    fareBrands: ['Economy Comfort', 'Economy Flex'],
  },
  { iata: '6E', name: 'IndiGo', domains: ['goindigo.in'], flightPrefixes: ['IndiGo'], currency: 'INR', fareBrands: [] },
  {
    iata: 'SQ',
    name: 'Singapore Airlines',
    domains: ['singaporeair.com', 'singaporeair.com.sg'],
    flightPrefixes: ['Singapore Airlines'],
    currency: 'SGD',
    fareBrands: [
      'Premium Economy Lite',
      'Premium Economy Standard',
      'Premium Economy Flexi',
      'Business Lite',
      'Business Standard',
      'Business Flexi',
      'Economy Lite',
      'Economy Value',
      'Economy Standard',
      'Economy Flexi',
    ],
  },
  {
    iata: 'CX',
    name: 'Cathay Pacific',
    domains: ['cathaypacific.com'],
    flightPrefixes: ['Cathay Pacific'],
    currency: 'HKD',
    fareBrands: ['Economy Light', 'Economy Essential', 'Economy Flex'],
  },
  {
    iata: 'JL',
    name: 'Japan Airlines',
    domains: ['jal.com', 'jal.co.jp'],
    flightPrefixes: ['Japan Airlines', 'JAL'],
    currency: 'JPY',
    fareBrands: ['Saver', 'Standard', 'Flex'],
  },
  {
    iata: 'NH',
    name: 'All Nippon Airways',
    domains: ['ana.co.jp', 'fly-ana.com'],
    flightPrefixes: ['All Nippon Airways', 'ANA'],
    currency: 'JPY',
    fareBrands: [],
  },
  {
    iata: 'KE',
    name: 'Korean Air',
    domains: ['koreanair.com'],
    flightPrefixes: ['Korean Air'],
    currency: 'KRW',
    fareBrands: ['Standard', 'Flex'],
  },
  {
    iata: 'OZ',
    name: 'Asiana Airlines',
    domains: ['flyasiana.com'],
    flightPrefixes: ['Asiana'],
    currency: 'KRW',
    fareBrands: [],
  },
  {
    iata: 'BR',
    name: 'EVA Air',
    domains: ['evaair.com'],
    flightPrefixes: ['EVA Air'],
    currency: 'TWD',
    fareBrands: [],
  },
  {
    iata: 'CI',
    name: 'China Airlines',
    domains: ['china-airlines.com'],
    flightPrefixes: ['China Airlines'],
    currency: 'TWD',
    fareBrands: [],
  },
  {
    iata: 'CA',
    name: 'Air China',
    domains: ['airchina.com', 'airchina.com.cn'],
    flightPrefixes: ['Air China'],
    currency: 'CNY',
    fareBrands: [],
  },
  {
    iata: 'MU',
    name: 'China Eastern Airlines',
    domains: ['ceair.com'],
    flightPrefixes: ['China Eastern'],
    currency: 'CNY',
    fareBrands: [],
  },
  {
    iata: 'CZ',
    name: 'China Southern Airlines',
    domains: ['csair.com'],
    flightPrefixes: ['China Southern'],
    currency: 'CNY',
    fareBrands: [],
  },
  {
    iata: 'QF',
    name: 'Qantas',
    domains: ['qantas.com', 'qantas.com.au'],
    flightPrefixes: ['Qantas'],
    currency: 'AUD',
    fareBrands: ['Economy Sale', 'Economy Saver', 'Economy Flex', 'Economy Basic', 'Business Saver', 'Business Flex'],
  },
  {
    iata: 'VA',
    name: 'Virgin Australia',
    domains: ['virginaustralia.com'],
    flightPrefixes: ['Virgin Australia'],
    currency: 'AUD',
    fareBrands: ['Economy Lite', 'Economy Choice', 'Economy Flex'],
  },
  {
    iata: 'JQ',
    name: 'Jetstar',
    domains: ['jetstar.com'],
    flightPrefixes: ['Jetstar'],
    currency: 'AUD',
    fareBrands: ['Starter', 'Flex', 'Plus', 'Max'],
  },
  {
    iata: 'NZ',
    name: 'Air New Zealand',
    domains: ['airnewzealand.com', 'airnz.co.nz', 'airnewzealand.co.nz'],
    flightPrefixes: ['Air New Zealand'],
    currency: 'NZD',
    fareBrands: ['Seat', 'Seat+Bag', 'Flexi', 'Works'],
  },
  {
    iata: 'TG',
    name: 'Thai Airways',
    domains: ['thaiairways.com'],
    flightPrefixes: ['Thai Airways'],
    currency: 'THB',
    fareBrands: [],
  },
  {
    iata: 'MH',
    name: 'Malaysia Airlines',
    domains: ['malaysiaairlines.com'],
    flightPrefixes: ['Malaysia Airlines'],
    currency: 'MYR',
    fareBrands: [],
  },
  {
    iata: 'PR',
    name: 'Philippine Airlines',
    domains: ['philippineairlines.com'],
    flightPrefixes: ['Philippine Airlines'],
    currency: 'PHP',
    fareBrands: [],
  },
  {
    iata: 'SA',
    name: 'South African Airways',
    domains: ['flysaa.com'],
    flightPrefixes: ['South African Airways'],
    currency: 'ZAR',
    fareBrands: [],
  },
];

const BY_CODE = new Map(profiles.map((profile) => [profile.iata, profile]));

export function airlineByCode(code: string | null | undefined): AirlineProfile | null {
  if (!code) return null;
  return BY_CODE.get(code.toUpperCase()) ?? null;
}

export function isKnownAirlineCode(code: string): boolean {
  return BY_CODE.has(code.toUpperCase());
}

/** The airline whose booking mail comes from this address (subdomains included). */
export function airlineBySender(address: string): AirlineProfile | null {
  const domain = address.toLowerCase().split('@')[1]?.trim().replace(/>$/, '');
  if (!domain) return null;
  for (const profile of profiles) {
    for (const known of profile.domains) {
      if (domain === known || domain.endsWith(`.${known}`)) return profile;
    }
  }
  return null;
}

/** All printed names that precede flight numbers, longest first, with their airline. */
export const FLIGHT_PREFIXES: { prefix: string; iata: string }[] = profiles
  .flatMap((profile) => profile.flightPrefixes.map((prefix) => ({ prefix, iata: profile.iata })))
  .sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * ICAO designators some airlines print as the flight prefix ('EZY8893' is easyJet U2 8893,
 * 'BAW117' British Airways BA 117), mapped to the IATA code of the output.
 */
export const ICAO_CODES: ReadonlyMap<string, string> = new Map(
  (
    'AAL:AA DAL:DL UAL:UA SWA:WN ASA:AS JBU:B6 NKS:NK FFT:F9 HAL:HA ACA:AC WJA:WS AMX:AM LAN:LA BAW:BA ' +
    'VIR:VS EZY:U2 EJU:U2 EZS:U2 RYR:FR EIN:EI DLH:LH SWR:LX AUA:OS BEL:SN EWG:EW AFR:AF KLM:KL IBE:IB ' +
    'VLG:VY TAP:TP ITY:AZ SAS:SK FIN:AY NOZ:DY ICE:FI LOT:LO WZZ:W6 THY:TK UAE:EK QTR:QR ETD:EY ETH:ET ' +
    'AIC:AI SIA:SQ CPA:CX JAL:JL ANA:NH KAL:KE AAR:OZ QFA:QF ANZ:NZ'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

export const ALL_AIRLINE_CODES: readonly string[] = profiles.map((profile) => profile.iata);
