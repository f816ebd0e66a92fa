// Airport facts from the airport-data-js package (IATA code -> IANA time zone, type, scheduled
// service); UTC offsets for a given date come from the runtime's time-zone database through
// Intl, so daylight saving is right for the day of the flight. The package loads its data on
// the first lookup (about 100 ms); lookups are cached, misses included. A lookup that fails for
// any reason counts as an unknown airport, which makes validation drop the segment.
import * as airportDataModule from 'airport-data-js';
import type { LocalDateTime } from './types.ts';

type AirportDataApi = typeof airportDataModule;
// The package is CommonJS; under Node's and Deno's ESM loaders its functions sit on `default`.
const airportData: AirportDataApi =
  (airportDataModule as unknown as { default?: AirportDataApi }).default ?? airportDataModule;

export interface AirportInfo {
  iata: string;
  name: string;
  timeZone: string;
  countryCode: string;
  /** Large or medium airport with scheduled service: safe to accept from free text. */
  major: boolean;
}

const cache = new Map<string, AirportInfo | null>();

/**
 * Codes the package does not list that airline mail still prints: airports closed since (Berlin
 * Schönefeld and Tempelhof) and the other codes of the Basel-Mulhouse EuroAirport (BSL is listed).
 */
const NOT_IN_PACKAGE: Record<string, Omit<AirportInfo, 'iata'>> = {
  SXF: { name: 'Berlin Schönefeld Airport', timeZone: 'Europe/Berlin', countryCode: 'DE', major: true },
  THF: { name: 'Berlin Tempelhof Airport', timeZone: 'Europe/Berlin', countryCode: 'DE', major: true },
  MLH: { name: 'EuroAirport Basel-Mulhouse-Freiburg', timeZone: 'Europe/Paris', countryCode: 'FR', major: true },
  EAP: { name: 'EuroAirport Basel-Mulhouse-Freiburg', timeZone: 'Europe/Paris', countryCode: 'FR', major: true },
};

export async function lookupAirport(code: string): Promise<AirportInfo | null> {
  const iata = code.toUpperCase();
  if (!/^[A-Z]{3}$/.test(iata)) return null;
  const cached = cache.get(iata);
  if (cached !== undefined) return cached;
  let info: AirportInfo | null = null;
  try {
    const found = await airportData.getAirportByIata(iata);
    // IATA also codes railway and bus stations (QQY is York station): those are not airports.
    const airport = found.find(
      (candidate) =>
        candidate.iata === iata &&
        candidate.time &&
        !/\b(railway|rail|train|bus) station\b|bahnhof|\bgare\b/i.test(candidate.airport),
    );
    if (airport && isValidTimeZone(airport.time)) {
      info = {
        iata,
        name: airport.airport,
        timeZone: airport.time,
        countryCode: airport.country_code,
        major:
          (airport.type === 'large_airport' || airport.type === 'medium_airport') &&
          String(airport.scheduled_service).toUpperCase() === 'TRUE',
      };
    }
  } catch {
    info = null; // the package throws for unknown codes
  }
  const missing = NOT_IN_PACKAGE[iata];
  if (!info && missing) info = { iata, ...missing };
  cache.set(iata, info);
  return info;
}

export async function lookupAirports(codes: Iterable<string>): Promise<Map<string, AirportInfo>> {
  const result = new Map<string, AirportInfo>();
  for (const code of new Set(codes)) {
    const info = await lookupAirport(code);
    if (info) result.set(code, info);
  }
  return result;
}

/** Loads the airport data ahead of the first email (benchmarks, warm starts). */
export async function warmUpAirports(): Promise<void> {
  await lookupAirport('JFK');
}

// ---- UTC offsets ----

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Minutes east of UTC in `timeZone` at the instant `utcMillis`. */
export function zoneOffsetMinutes(timeZone: string, utcMillis: number): number {
  const parts = formatterFor(timeZone).formatToParts(new Date(utcMillis));
  const get = (type: string): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'));
  const truncated = Math.floor(utcMillis / 60_000) * 60_000;
  return Math.round((asUtc - truncated) / 60_000);
}

/** The UTC instant of a wall-clock time at an airport (the earlier one in a DST fold). */
export function localToUtcMillis(local: LocalDateTime, timeZone: string): number {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  let offset = zoneOffsetMinutes(timeZone, wall);
  let utc = wall - offset * 60_000;
  const corrected = zoneOffsetMinutes(timeZone, utc);
  if (corrected !== offset) {
    offset = corrected;
    utc = wall - offset * 60_000;
  }
  return utc;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** ISO 8601 local time at the airport with its offset at that instant. */
export function formatAtAirport(utcMillis: number, timeZone: string): string {
  const offset = zoneOffsetMinutes(timeZone, utcMillis);
  const local = new Date(utcMillis + offset * 60_000);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:00${formatOffset(offset)}`
  );
}

/**
 * Reads an ISO date-time from structured data. With an offset (or Z) it is an instant; without
 * one it is a wall-clock time at the airport.
 */
export function parseIsoDateTime(value: string): { utcMillis: number } | { local: LocalDateTime } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
    value.trim(),
  );
  if (!match) return null;
  const local: LocalDateTime = {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: Number(match[4]),
    minute: Number(match[5]),
  };
  if (local.month < 1 || local.month > 12 || local.day < 1 || local.day > 31 || local.hour > 23 || local.minute > 59) {
    return null;
  }
  const zone = match[7];
  if (!zone) return { local };
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  if (zone.toUpperCase() === 'Z') return { utcMillis: wall };
  const digits = zone.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return { utcMillis: wall - (digits[0] === '-' ? -minutes : minutes) * 60_000 };
}
