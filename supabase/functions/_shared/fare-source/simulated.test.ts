import { MANUAL_ENTRY_AIRLINES } from '../constants.ts';
import { lookupAirport } from '../extraction/airports.ts';
import { describe, expect, it } from '../extraction/testing/harness.ts';
import { creditExpiryDate } from '../flights/rules.ts';
import { createFareSource } from './index.ts';
import { createSimulatedFareSource, simulatedChangeTerms, simulatedSourceReference } from './simulated.ts';
import {
  BookingMismatchError,
  BookingNotChangeableError,
  BookingNotFoundError,
  FareNoLongerAvailableError,
  FareSourceUnavailableError,
  type Itinerary,
  type RebookRequest,
  type RetrievedBooking,
} from './types.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A fixed instant at the start of a 6-hour bucket. */
const T0 = Date.UTC(2026, 10, 22, 12);

function sourceAt(ms: number) {
  return createSimulatedFareSource({ now: () => new Date(ms) });
}

function itineraryOf(booking: RetrievedBooking, bookingCode?: string): Itinerary {
  return {
    airline: booking.airline,
    flightNumber: booking.flightNumber,
    departureAirport: booking.departureAirport,
    arrivalAirport: booking.arrivalAirport,
    departureDate: booking.departureDate,
    returnFlightNumber: booking.returnFlightNumber,
    returnDate: booking.returnDate,
    cabinClass: booking.cabinClass,
    fareType: booking.fareType,
    currency: booking.currency,
    bookingCode,
  };
}

/** A rebooking as the api builds it: from the retrieval, reference included. */
function rebookRequestOf(booking: RetrievedBooking, maxPrice: number): RebookRequest {
  return {
    booking: {
      ...itineraryOf(booking),
      bookingCode: booking.bookingCode,
      passengerLastName: booking.passengerLastName,
      seatNumber: booking.seatNumber,
      sourceReference: booking.sourceReference,
    },
    pricePaid: booking.pricePaid,
    maxPrice,
  };
}

const codes = (count: number, prefix = 'K') =>
  Array.from({ length: count }, (_, i) => `${prefix}${(i * 7919).toString(36).toUpperCase()}${i}`);

describe('simulated fare source: determinism', () => {
  it('retrieves the same booking for the same code within the period', async () => {
    const request = { airline: 'United Airlines', bookingCode: 'ABC123', passengerLastName: 'Smith' };
    const first = await sourceAt(T0).retrieveBooking(request);
    const again = await sourceAt(T0 + 5 * HOUR).retrieveBooking(request);
    expect(again).toEqual(first);
    const other = await sourceAt(T0).retrieveBooking({ ...request, bookingCode: 'XYZ789' });
    expect(other).not.toEqual(first);
  });

  it('accepts the airline by IATA code and by display name alike', async () => {
    const byName = await sourceAt(T0).retrieveBooking({
      airline: 'Delta Air Lines',
      bookingCode: 'Q1W2E3',
      passengerLastName: 'Li',
    });
    const byCode = await sourceAt(T0).retrieveBooking({
      airline: 'DL',
      bookingCode: 'Q1W2E3',
      passengerLastName: 'Li',
    });
    expect(byCode).toEqual(byName);
    expect(byName.airline).toBe('Delta Air Lines');
    expect(byName.airlineCode).toBe('DL');
  });

  it('quotes the same within a bucket and drifts across buckets', async () => {
    const bookings = await Promise.all(
      codes(40).map((code) =>
        sourceAt(T0).retrieveBooking({ airline: 'American Airlines', bookingCode: code, passengerLastName: 'Doe' }),
      ),
    );
    const quotesAt = (ms: number) =>
      Promise.all(
        bookings.map((b) =>
          sourceAt(ms)
            .quote(itineraryOf(b))
            .then((q) => q.price),
        ),
      );
    const first = await quotesAt(T0);
    expect(await quotesAt(T0 + 5 * HOUR + 59 * 60_000)).toEqual(first);
    const nextBucket = await quotesAt(T0 + 6 * HOUR);
    const changed = nextBucket.filter((price, i) => price !== first[i]).length;
    expect(changed).toBe(bookings.length);
    // Drift is bounded: within about 15% of the first bucket's quote two days later.
    const later = await quotesAt(T0 + 2 * DAY);
    later.forEach((price, i) => {
      const ratio = price / (first[i] as number);
      expect(ratio).toBeGreaterThan(0.7);
      expect(ratio).toBeLessThan(1.4);
    });
  });

  it('quotes an itinerary the same whoever holds it', async () => {
    const booking = await sourceAt(T0).retrieveBooking({
      airline: 'JetBlue Airways',
      bookingCode: 'JB4455',
      passengerLastName: 'Ng',
    });
    const source = sourceAt(T0 + 3 * DAY);
    const a = await source.quote(itineraryOf(booking, 'JB4455'));
    const b = await source.quote(itineraryOf(booking, 'ZZ9911'));
    const c = await source.quote(itineraryOf(booking));
    expect(b.price).toBe(a.price);
    expect(c.price).toBe(a.price);
    expect(a.currency).toBe('USD');
  });
});

describe('simulated fare source: plausible bookings', () => {
  it('flies real airports on the airline flight numbers, in the future, with coherent fields', async () => {
    const airports = new Set<string>();
    for (const airline of MANUAL_ENTRY_AIRLINES) {
      for (const code of codes(12, 'P')) {
        const b = await sourceAt(T0).retrieveBooking({ airline, bookingCode: code, passengerLastName: 'Okafor' });
        airports.add(b.departureAirport).add(b.arrivalAirport);
        expect(b.departureAirport).not.toBe(b.arrivalAirport);
        expect(b.flightNumber).toMatch(new RegExp(`^${b.airlineCode}[1-9]\\d{0,3}$`));
        const departure = Date.parse(`${b.departureDate}T00:00:00Z`);
        expect(departure).toBeGreaterThanOrEqual(T0 + 13 * DAY);
        expect(departure).toBeLessThanOrEqual(T0 + 20 * 7 * DAY);
        expect(b.departureTime).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        expect(b.arrivalTime).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        if (b.isRoundTrip) {
          expect(b.returnFlightNumber).toMatch(new RegExp(`^${b.airlineCode}\\d+$`));
          expect(b.returnDate! > b.departureDate).toBe(true);
        } else {
          expect(b.returnFlightNumber).toBeNull();
          expect(b.returnDate).toBeNull();
        }
        if (b.seatNumber !== null) expect(b.seatNumber).toMatch(/^[1-9]\d?[A-F]$/);
        expect(Number.isInteger(b.pricePaid) && b.pricePaid > 0).toBe(true);
        expect(b.currency).toBe('USD');
        expect(b.rebookingMethod).toBe('source');
        expect(b.passengerLastName).toBe('Okafor');
        expect(b.fareChangeable).toBe(b.fareType !== 'Basic Economy');
      }
    }
    for (const code of airports) {
      expect(await lookupAirport(code), code).toMatchObject({ iata: code, major: true });
    }
  });

  it('sells about 20% Basic Economy and the spec fare types otherwise, with matching cabins', async () => {
    const bookings = await Promise.all(
      codes(500, 'S').map((code) =>
        sourceAt(T0).retrieveBooking({ airline: 'UA', bookingCode: code, passengerLastName: 'Roe' }),
      ),
    );
    const basic = bookings.filter((b) => b.fareType === 'Basic Economy').length / bookings.length;
    expect(basic).toBeGreaterThan(0.14);
    expect(basic).toBeLessThan(0.26);
    const cabins: Record<string, string> = {
      'Basic Economy': 'Economy',
      'Flexible Economy': 'Economy',
      'Refundable Economy': 'Economy',
      'Premium Economy': 'Premium Economy',
      'Business Class': 'Business',
      'First Class': 'First',
    };
    for (const b of bookings) expect(b.cabinClass).toBe(cabins[b.fareType]);
    expect(new Set(bookings.map((b) => b.fareType)).size).toBe(6);
    expect(bookings.filter((b) => b.isRoundTrip).length).toBeGreaterThan(150);
  });

  it('sometimes finds a fare below the price paid, not always', async () => {
    const bookings = await Promise.all(
      codes(300, 'D').map((code) =>
        sourceAt(T0).retrieveBooking({ airline: 'AS', bookingCode: code, passengerLastName: 'Kim' }),
      ),
    );
    const quotes = await Promise.all(bookings.map((b) => sourceAt(T0 + DAY).quote(itineraryOf(b))));
    const drops =
      quotes.filter((q, i) => q.price < (bookings[i] as RetrievedBooking).pricePaid).length / bookings.length;
    expect(drops).toBeGreaterThan(0.1);
    expect(drops).toBeLessThan(0.6);
  });

  it('gives Southwest bookings no seat (open seating)', async () => {
    const b = await sourceAt(T0).retrieveBooking({
      airline: 'Southwest Airlines',
      bookingCode: 'WN1234',
      passengerLastName: 'Ray',
    });
    expect(b.seatNumber).toBeNull();
    expect(b.flightNumber.startsWith('WN')).toBe(true);
  });
});

describe('simulated fare source: test controls', () => {
  const retrieve = (bookingCode: string, ms = T0) =>
    sourceAt(ms).retrieveBooking({ airline: 'United Airlines', bookingCode, passengerLastName: 'Test' });

  it('DROP: every quote is 20% below the price paid, with or without the code', async () => {
    const b = await retrieve('DROP1');
    for (const ms of [T0, T0 + 7 * HOUR, T0 + 9 * DAY]) {
      for (const code of ['DROP1', undefined]) {
        const q = await sourceAt(ms).quote(itineraryOf(b, code));
        expect(Math.abs(q.price - Math.round(b.pricePaid * 0.8))).toBeLessThanOrEqual(1);
      }
    }
  });

  it('GHOST: the first quote of the itinerary dips 20%, every later one (a second quote, a rebook) does not', async () => {
    const b = await retrieve('GHOST7');
    const source = sourceAt(T0);
    const first = await source.quote(itineraryOf(b));
    expect(Math.abs(first.price - Math.round(b.pricePaid * 0.8))).toBeLessThanOrEqual(1);
    // the same itinerary without the code (its flight number carries the control): gone
    const second = await source.quote(itineraryOf(b, undefined));
    expect(second.price).toBeGreaterThan(b.pricePaid);
    // the rebooking's own re-check at the source finds it gone too: nothing changed
    await expect(source.rebook(rebookRequestOf(b, first.price))).rejects.toThrow(FareNoLongerAvailableError);
    // another instance (a restarted api) shows the dip once more
    expect((await sourceAt(T0).quote(itineraryOf(b))).price).toBe(first.price);
  });

  it('RISE: quotes stay above the price paid', async () => {
    const b = await retrieve('RISE42');
    for (const ms of [T0, T0 + 6 * HOUR, T0 + 5 * DAY]) {
      expect((await sourceAt(ms).quote(itineraryOf(b))).price).toBeGreaterThan(b.pricePaid * 1.1);
    }
  });

  it('BASIC: a Basic Economy fare that cannot be changed; BASICDROP also drops', async () => {
    const b = await retrieve('BASIC7');
    expect(b).toMatchObject({ fareType: 'Basic Economy', fareChangeable: false, cabinClass: 'Economy' });
    const d = await retrieve('BASICDROP7');
    expect(d.fareType).toBe('Basic Economy');
    const q = await sourceAt(T0).quote(itineraryOf(d));
    expect(q.price).toBeLessThan(d.pricePaid);
    await expect(sourceAt(T0).rebook(rebookRequestOf(d, q.price))).rejects.toBeInstanceOf(BookingNotChangeableError);
  });

  it('DIRECT: bought from the airline, so the traveller changes it (assisted); DIRECTDROP also drops', async () => {
    const plain = await retrieve('ABC123');
    expect(plain.rebookingMethod).toBe('source');
    const d = await retrieve('DIRECTDROP3');
    expect(d.rebookingMethod).toBe('assisted');
    const q = await sourceAt(T0).quote(itineraryOf(d));
    expect(q.price).toBeLessThan(d.pricePaid);
    await expect(sourceAt(T0).rebook(rebookRequestOf(d, q.price))).rejects.toBeInstanceOf(BookingNotChangeableError);
  });

  it('FAIL and DOWN: every call on the booking is unavailable', async () => {
    for (const code of ['FAIL1', 'DOWN2']) {
      await expect(retrieve(code)).rejects.toBeInstanceOf(FareSourceUnavailableError);
      const b = await retrieve('ABC123');
      const itinerary = itineraryOf(b, code);
      await expect(sourceAt(T0).quote(itinerary)).rejects.toBeInstanceOf(FareSourceUnavailableError);
      await expect(
        sourceAt(T0).rebook({
          ...rebookRequestOf(b, b.pricePaid),
          booking: { ...rebookRequestOf(b, 0).booking, bookingCode: code },
        }),
      ).rejects.toBeInstanceOf(FareSourceUnavailableError);
    }
  });

  it('OUTAGE: retrieval works, then quotes and rebooks are unavailable', async () => {
    const b = await retrieve('OUTAGE9');
    expect(b.bookingCode).toBe('OUTAGE9');
    await expect(sourceAt(T0).quote(itineraryOf(b))).rejects.toBeInstanceOf(FareSourceUnavailableError);
    await expect(sourceAt(T0).rebook(rebookRequestOf(b, b.pricePaid))).rejects.toBeInstanceOf(
      FareSourceUnavailableError,
    );
  });

  it('NOTFOUND and NONE: no such booking; nor for an airline it does not know', async () => {
    await expect(retrieve('NOTFOUND1')).rejects.toBeInstanceOf(BookingNotFoundError);
    await expect(retrieve('NONE')).rejects.toBeInstanceOf(BookingNotFoundError);
    await expect(
      sourceAt(T0).retrieveBooking({ airline: 'Imaginary Air', bookingCode: 'ABC123', passengerLastName: 'X' }),
    ).rejects.toBeInstanceOf(BookingNotFoundError);
  });
});

describe('simulated fare source: rebooking', () => {
  it('rebooks at the quote, credits the difference, keeps the seat, credit valid a year', async () => {
    const b = await sourceAt(T0).retrieveBooking({
      airline: 'United Airlines',
      bookingCode: 'DROPSEAT1',
      passengerLastName: 'Lee',
    });
    expect(b.fareChangeable).toBe(true);
    const at = T0 + 2 * DAY;
    const source = sourceAt(at);
    const quote = await source.quote(itineraryOf(b));
    const result = await source.rebook(rebookRequestOf(b, quote.price));
    expect(result).toEqual({
      newPrice: quote.price,
      currency: 'USD',
      airlineCredit: b.pricePaid - quote.price,
      creditReference: expect.stringMatching(/^UA-CR-[0-9A-Z]{6}$/),
      creditExpiryDate: creditExpiryDate(new Date(at)),
      seatNumber: b.seatNumber,
      rebookedAt: new Date(at).toISOString(),
      changePenalty: 0,
      refundForm: b.fareType === 'Refundable Economy' ? 'cash' : 'credit',
    });
    expect((await source.rebook(rebookRequestOf(b, quote.price))).creditReference).toBe(result.creditReference);
  });

  it('refuses when the fare rose above the price the traveller saw', async () => {
    const b = await sourceAt(T0).retrieveBooking({ airline: 'AA', bookingCode: 'DROP77', passengerLastName: 'Lee' });
    const quote = await sourceAt(T0).quote(itineraryOf(b));
    await expect(sourceAt(T0).rebook(rebookRequestOf(b, quote.price - 1))).rejects.toBeInstanceOf(
      FareNoLongerAvailableError,
    );
  });
});

describe('simulated fare source: change penalties', () => {
  it("reports each fare's penalty with the quote and deducts it from the credit", async () => {
    const b = await sourceAt(T0).retrieveBooking({ airline: 'UA', bookingCode: 'DROPFEE1', passengerLastName: 'Lee' });
    const quote = await sourceAt(T0).quote(itineraryOf(b, 'DROPFEE1'));
    // a 20% drop with a 15% penalty: about 5% comes back
    expect(quote.changePenalty).toBe(Math.round(b.pricePaid * 0.15));
    expect(quote.refundForm).toBe('credit');
    const result = await sourceAt(T0).rebook(rebookRequestOf(b, quote.price));
    expect(result.changePenalty).toBe(quote.changePenalty);
    expect(result.airlineCredit).toBe(b.pricePaid - quote.price - (quote.changePenalty ?? 0));
    // a floor above what is left after the penalty: refused, nothing changed
    await expect(
      sourceAt(T0).rebook({ ...rebookRequestOf(b, quote.price), minCredit: result.airlineCredit + 1 }),
    ).rejects.toBeInstanceOf(FareNoLongerAvailableError);
  });

  it('charges international carriers a fee on flexible fares; refundable fares come back as cash', () => {
    const it = (airline: string, fareType: string) => ({ ...ITINERARY_BASE, airline, fareType });
    expect(simulatedChangeTerms(it('BA', 'Flexible Economy'), 50_000)).toEqual({
      changePenalty: 15_000,
      refundForm: 'credit',
    });
    expect(simulatedChangeTerms(it('UA', 'Flexible Economy'), 50_000)).toEqual({
      changePenalty: 0,
      refundForm: 'credit',
    });
    expect(simulatedChangeTerms(it('LH', 'Refundable Economy'), 50_000)).toEqual({
      changePenalty: 0,
      refundForm: 'cash',
    });
    expect(simulatedChangeTerms(it('LH', 'First Class'), 50_000)).toEqual({ changePenalty: 0, refundForm: 'credit' });
  });
});

const ITINERARY_BASE = {
  airline: 'UA',
  flightNumber: 'UA100',
  departureAirport: 'ORD',
  arrivalAirport: 'SFO',
  departureDate: '2027-01-10',
  returnFlightNumber: null,
  returnDate: null,
  cabinClass: 'Economy',
  fareType: 'Flexible Economy',
  currency: 'USD',
};

describe('simulated fare source: the booking reference refuses altered rebookings', () => {
  const retrieve = (bookingCode: string, passengerLastName = 'Lee', airline = 'United Airlines') =>
    sourceAt(T0).retrieveBooking({ airline, bookingCode, passengerLastName });

  it('gives every booking a reference derived from it, the same on every retrieval', async () => {
    const b = await retrieve('DROPREF1');
    expect(b.sourceReference).toMatch(/^SIM-[0-9A-F]{16}$/);
    expect((await retrieve('DROPREF1')).sourceReference).toBe(b.sourceReference);
    expect(
      simulatedSourceReference({ ...itineraryOf(b), bookingCode: 'DROPREF1', passengerLastName: 'Lee' }, b.pricePaid),
    ).toBe(b.sourceReference);
    // Case, accents and punctuation in the name are not a different booking; another name or code is.
    const accented = await retrieve('DROPREF1', 'LÉE');
    expect(accented.sourceReference).toBe(b.sourceReference);
    expect((await retrieve('DROPREF1', 'Leeds')).sourceReference).not.toBe(b.sourceReference);
    expect((await retrieve('DROPREF2')).sourceReference).not.toBe(b.sourceReference);
    // DIRECT bookings have one too (they stay assisted).
    const direct = await retrieve('DIRECTDROP4');
    expect(direct.rebookingMethod).toBe('assisted');
    expect(direct.sourceReference).toMatch(/^SIM-/);
  });

  it('refuses a rebooking whose price paid was forged, and changes nothing', async () => {
    const b = await retrieve('DROPFORGE1');
    const quote = await sourceAt(T0).quote(itineraryOf(b));
    // The attack: a flight row claiming $20,000,000 paid, to be credited the difference.
    const forged = { ...rebookRequestOf(b, quote.price), pricePaid: 2_000_000_000 };
    await expect(sourceAt(T0).rebook(forged)).rejects.toBeInstanceOf(BookingMismatchError);
    // The honest request still goes through, credited what was really paid minus the new fare.
    const result = await sourceAt(T0).rebook(rebookRequestOf(b, quote.price));
    expect(result.airlineCredit).toBe(b.pricePaid - quote.price);
  });

  it('refuses a rebooking whose fare, cabin, flights, code or name were altered', async () => {
    const b = await retrieve('DROPFORGE2');
    const honest = rebookRequestOf(b, b.pricePaid);
    const altered: Partial<RebookRequest['booking']>[] = [
      { fareType: 'Basic Economy' },
      { cabinClass: 'First' },
      { flightNumber: 'UA9902' },
      { departureDate: '2099-01-01' },
      { arrivalAirport: 'HNL' },
      { bookingCode: 'DROPFORGE3' },
      { passengerLastName: 'Someone' },
      { airline: 'Delta Air Lines' },
      { currency: 'EUR' },
      { sourceReference: null },
      { sourceReference: (await retrieve('DROPFORGE3')).sourceReference },
    ];
    for (const change of altered) {
      const request = { ...honest, booking: { ...honest.booking, ...change } };
      await expect(sourceAt(T0).rebook(request), JSON.stringify(change)).rejects.toBeInstanceOf(BookingMismatchError);
    }
  });

  it('still rebooks a kept retrieval after the 28-day period has rolled over', async () => {
    const b = await retrieve('DROPKEPT1');
    const later = sourceAt(T0 + 40 * DAY);
    // A new period makes another booking of the code...
    expect(
      await later.retrieveBooking({ airline: 'UA', bookingCode: 'DROPKEPT1', passengerLastName: 'Lee' }),
    ).not.toEqual(b);
    const quote = await later.quote(itineraryOf(b));
    const result = await later.rebook(rebookRequestOf(b, quote.price)); // ...but the kept one is still valid
    expect(result.newPrice).toBe(quote.price);
  });

  it('refuses a rebooking that would not lower the fare, whatever maxPrice says', async () => {
    const b = await retrieve('RISE9');
    const quote = await sourceAt(T0).quote(itineraryOf(b));
    expect(quote.price).toBeGreaterThan(b.pricePaid);
    await expect(sourceAt(T0).rebook(rebookRequestOf(b, quote.price * 2))).rejects.toBeInstanceOf(
      FareNoLongerAvailableError,
    );
  });

  it('answers rebookingOutcome with null: a lost answer here means nothing changed', async () => {
    const b = await retrieve('DROPLOST1');
    const source = sourceAt(T0);
    expect(await source.rebookingOutcome(rebookRequestOf(b, b.pricePaid))).toBeNull();
    await source.rebook(rebookRequestOf(b, b.pricePaid - 1));
    expect(await source.rebookingOutcome(rebookRequestOf(b, b.pricePaid))).toBeNull();
  });
});

describe('simulated fare source: latency and wiring', () => {
  it('waits latencyMs before every call', async () => {
    const waits: number[] = [];
    const source = createSimulatedFareSource({
      now: () => new Date(T0),
      latencyMs: 100,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const b = await source.retrieveBooking({ airline: 'UA', bookingCode: 'LAT1', passengerLastName: 'Fox' });
    await source.quote(itineraryOf(b));
    expect(waits).toEqual([100, 100]);
  });

  it('createFareSource builds the simulated source behind the resilience wrapper', async () => {
    const source = createFareSource({
      kind: 'simulated',
      duffelAccessToken: null,
      duffelApiUrl: 'http://127.0.0.1:1',
      timeoutMs: 5000,
      maxRetries: 2,
      ratePerSecond: 1000,
      simulatedLatencyMs: 0,
    });
    expect(source.name).toBe('simulated');
    const b = await source.retrieveBooking({
      airline: 'Alaska Airlines',
      bookingCode: 'drop5',
      passengerLastName: 'Wu',
    });
    expect(b.bookingCode).toBe('DROP5');
    expect((await source.quote(itineraryOf(b))).price).toBeLessThan(b.pricePaid);
    await expect(
      source.retrieveBooking({ airline: 'Alaska Airlines', bookingCode: 'NONE1', passengerLastName: 'Wu' }),
    ).rejects.toBeInstanceOf(BookingNotFoundError);
    await expect(
      source.retrieveBooking({ airline: 'Alaska Airlines', bookingCode: 'FAIL1', passengerLastName: 'Wu' }),
    ).rejects.toBeInstanceOf(FareSourceUnavailableError);
    const quote = await source.quote(itineraryOf(b));
    expect((await source.rebook(rebookRequestOf(b, quote.price))).newPrice).toBe(quote.price);
    expect(await source.rebookingOutcome(rebookRequestOf(b, quote.price))).toBeNull();
  });
});
