// Airport search for the itinerary form (issue 23): by IATA code, city or airport name, from the
// airport-data-js package, airports with scheduled service only (large and medium first).
import * as airportDataModule from 'airport-data-js';
import { findPlaces, loadAirportNames } from './extraction/airport-names.ts';
import { lookupAirport } from './extraction/airports.ts';

type AirportDataApi = typeof airportDataModule;
const airportData: AirportDataApi =
  (airportDataModule as unknown as { default?: AirportDataApi }).default ?? airportDataModule;

export interface AirportMatch {
  code: string;
  name: string;
  countryCode: string;
}

/** Up to `limit` airports for what a traveller typed ('FRA', 'Frankfurt', 'Heathrow'). */
export async function searchAirports(query: string, limit = 8): Promise<AirportMatch[]> {
  const text = query.trim();
  if (text.length < 2) return [];
  const found = new Map<string, AirportMatch>();
  const add = (code: string, name: string, countryCode: string) => {
    if (!found.has(code) && found.size < limit) found.set(code, { code, name, countryCode });
  };
  if (/^[a-z]{3}$/i.test(text)) {
    const byCode = await lookupAirport(text);
    if (byCode) add(byCode.iata, byCode.name, byCode.countryCode);
  }
  await loadAirportNames();
  for (const place of findPlaces(text)) {
    const airport = await lookupAirport(place.code);
    if (airport) add(airport.iata, airport.name, airport.countryCode);
  }
  // the package throws for queries it refuses
  const byName = await airportData.searchByName(text).catch((): airportDataModule.Airport[] => []);
  const rank = (type: string) => (type === 'large_airport' ? 0 : type === 'medium_airport' ? 1 : 2);
  byName
    .filter((a) => /^[A-Z]{3}$/.test(a.iata ?? '') && String(a.scheduled_service).toUpperCase() === 'TRUE')
    .sort((a, b) => rank(a.type) - rank(b.type))
    .forEach((a) => add(a.iata, a.airport, a.country_code));
  return [...found.values()];
}
