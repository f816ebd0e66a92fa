// Places printed as names rather than codes resolve to their airport through the airport data.
import { describe, expect, it } from './testing/harness.ts';
import { findPlaces, loadAirportNames } from './airport-names.ts';
import { extractText } from './testing/extract.ts';

const codes = async (text: string, countries: string[] = []) => {
  await loadAirportNames();
  return findPlaces(text, { countries }).map((place) => place.code);
};

describe('airport names', () => {
  it('reads city and airport names, accents stripped, in English and local spellings', async () => {
    expect(await codes('Depart Auckland 8:30am Arrive Sydney 10:05am')).toEqual(['AKL', 'SYD']);
    expect(await codes('ZURICH 07:05 · Brussels Airport 08:30')).toEqual(['ZRH', 'BRU']);
    expect(await codes('Zürich – München – Köln – Wien')).toEqual(['ZRH', 'MUC', 'CGN', 'VIE']);
    expect(await codes('Milano Malpensa · Roma Fiumicino · Göteborg Landvetter')).toEqual(['MXP', 'FCO', 'GOT']);
    expect(await codes('Tokyo (Narita)')).toEqual(['NRT']);
  }, 30_000); // the first test builds the index of airport names

  it("joins a city, its country and an old airport name: 'BERLIN, DE (TEGEL)'", async () => {
    expect(await codes('DEPARTURE: BERLIN, DE (TEGEL)   07:05')).toEqual(['TXL']);
    expect(await codes('ARRIVAL: FRANKFURT, DE (FRANKFURT INTL), TERMINAL 1')).toEqual(['FRA']);
    expect(await codes('Frankfurt/Main 10:05 Berlin 11:15')).toEqual(['FRA', 'BER']);
  });

  it('takes the main airport of a city with several, or the one in the airline’s country', async () => {
    expect(await codes('London to Paris')).toEqual(['LHR', 'CDG']);
    expect(await codes('Birmingham', ['US'])).toEqual(['BHM']);
    expect(await codes('Berlin')).toEqual(['BER']);
    expect(await codes('Birmingham', ['GB'])).toEqual(['BHX']);
  });

  it('leaves common words and lower-case text alone', async () => {
    expect(await codes('Have a nice trip, see the split fare and the main cabin')).toEqual([]);
  });
});

describe('places printed without airport codes', () => {
  it('reads legs named by city in an airline confirmation', async () => {
    const result = await extractText(
      'Air New Zealand <noreply@airnz.co.nz>',
      [
        'Your booking reference is 7QWTLM.',
        'Friday 9 April 2027',
        'NZ103  Depart Auckland 8:30am  Arrive Sydney 10:05am',
        'Passenger: Aroha Tipene',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'NZ 103',
      departureAirport: 'AKL',
      arrivalAirport: 'SYD',
      departureTime: '2027-04-09T08:30:00+12:00',
      arrivalTime: '2027-04-09T10:05:00+10:00',
    });
  });

  it('does not read city names in mail that does not speak of flights', async () => {
    const result = await extractText(
      'Hilton <reservations@res.hilton.com>',
      [
        'Confirmation number: 7QWTLM',
        'Friday 9 April 2027',
        'NZ103  Depart Auckland 8:30am  Arrive Sydney 10:05am',
      ].join('\n'),
    );
    expect(result.isFlightBooking).toBe(false);
  });
});

describe('a country between two names of one airport', () => {
  it("joins 'Berlin, Germany, Tegel' and keeps 'Zurich, Berlin' apart", async () => {
    expect(await codes('To: Berlin, Germany, Tegel')).toEqual(['TXL']);
    expect(await codes('From: Frankfurt, Germany, Frankfurt Intl, Terminal 1')).toEqual(['FRA']);
    expect(await codes('Zurich, Berlin')).toEqual(['ZRH', 'BER']);
    expect(await codes('Berlin Schönefeld')).toEqual(['SXF']);
  });
});

describe('a city and its airport by name', () => {
  it("reads 'City, City Airport' and 'Airport (City)' as the airport named", async () => {
    expect(await codes('Departure: London, London Luton Airport 18.03.2027 07:55')).toEqual(['LTN']);
    expect(await codes('London, Stansted Airport')).toEqual(['STN']);
    expect(await codes('Paris, Beauvais-Tille')).toEqual(['BVA']);
    expect(await codes('London Luton (London)')).toEqual(['LTN']);
    expect(await codes('LONDON, GB (HEATHROW)')).toEqual(['LHR']);
    // a list of cities stays a list
    expect(await codes('Flights to Berlin, Munich and Hamburg')).toEqual(['BER', 'MUC', 'HAM']);
  });

  it("reads a city's main airport where its name names another", async () => {
    expect(await codes('BOSTON · DOHA · JOHANNESBURG · DETROIT · MUMBAI')).toEqual(['BOS', 'DOH', 'JNB', 'DTW', 'BOM']);
  });
});
