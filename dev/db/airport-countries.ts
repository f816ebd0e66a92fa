// Prints the SQL rows of private.airport_countries (migration 20261122000500_flights_and_prices.sql)
// from the airport-data-js package: every airport with an IATA code and scheduled service, and
// the codes extraction/airports.ts knows beyond the package. Re-run and paste into a NEW
// migration when the package's data changes:  npx tsx dev/db/airport-countries.ts
import * as airportDataModule from 'airport-data-js';

type Api = typeof airportDataModule;
const airportData: Api = (airportDataModule as unknown as { default?: Api }).default ?? airportDataModule;

const extra: Record<string, string> = { SXF: 'DE', THF: 'DE', MLH: 'FR', EAP: 'FR' };
const rows = new Map<string, string>();
for (const type of ['large_airport', 'medium_airport', 'small_airport']) {
  for (const airport of await airportData.getAirportsByType(type)) {
    if (!/^[A-Z]{3}$/.test(airport.iata ?? '') || !/^[A-Z]{2}$/.test(airport.country_code ?? '')) continue;
    if (String(airport.scheduled_service).toUpperCase() !== 'TRUE' && type === 'small_airport') continue;
    if (!rows.has(airport.iata)) rows.set(airport.iata, airport.country_code);
  }
}
for (const [code, country] of Object.entries(extra)) if (!rows.has(code)) rows.set(code, country);
const sorted = [...rows.entries()].sort(([a], [b]) => a.localeCompare(b));
const lines: string[] = [];
for (let i = 0; i < sorted.length; i += 12) {
  lines.push(
    sorted
      .slice(i, i + 12)
      .map(([code, country]) => `('${code}','${country}')`)
      .join(','),
  );
}
process.stdout.write(lines.join(',\n') + '\n');
