import { describe, expect, it } from './testing/harness.ts';
import { formatAtAirport, localToUtcMillis, lookupAirport, parseIsoDateTime, zoneOffsetMinutes } from './airports.ts';

describe('lookupAirport', () => {
  it('finds airports with their IANA zone and rejects unknown codes', async () => {
    expect(await lookupAirport('PHX')).toMatchObject({ iata: 'PHX', timeZone: 'America/Phoenix', major: true });
    expect(await lookupAirport('XXX')).toBeNull();
    expect(await lookupAirport('not a code')).toBeNull();
  });
});

describe('UTC offsets from the zone on the day', () => {
  it('follows daylight saving where the airport observes it', () => {
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2027, 1, 19, 12))).toBe(-300);
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2027, 6, 19, 12))).toBe(-240);
    expect(zoneOffsetMinutes('America/Phoenix', Date.UTC(2027, 3, 11, 12))).toBe(-420);
    expect(zoneOffsetMinutes('Asia/Kolkata', Date.UTC(2027, 10, 20))).toBe(330);
  });

  it('formats a wall-clock time at an airport with its offset', () => {
    const utc = localToUtcMillis({ year: 2027, month: 11, day: 18, hour: 22, minute: 50 }, 'America/New_York');
    expect(formatAtAirport(utc, 'America/New_York')).toBe('2027-11-18T22:50:00-05:00');
    expect(formatAtAirport(Date.UTC(2027, 1, 11, 6, 30), 'Europe/Dublin')).toBe('2027-02-11T06:30:00+00:00');
  });
});

describe('parseIsoDateTime', () => {
  it('reads instants with offsets and local times without', () => {
    expect(parseIsoDateTime('2027-03-14T08:05:00-04:00')).toEqual({ utcMillis: Date.UTC(2027, 2, 14, 12, 5) });
    expect(parseIsoDateTime('2027-06-10T09:00:00')).toEqual({
      local: { year: 2027, month: 6, day: 10, hour: 9, minute: 0 },
    });
    expect(parseIsoDateTime('14 March')).toBeNull();
  });
});

describe('codes the airport package does not list', () => {
  it('knows closed Berlin airports and the EuroAirport’s other codes', async () => {
    expect(await lookupAirport('SXF')).toMatchObject({ iata: 'SXF', timeZone: 'Europe/Berlin' });
    expect(await lookupAirport('MLH')).toMatchObject({ iata: 'MLH', timeZone: 'Europe/Paris' });
  });
});
