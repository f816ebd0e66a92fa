// Change emails: only the new itinerary and the flights left unchanged are flown.
import { describe, expect, it } from '../testing/harness.ts';
import { extractText } from '../testing/extract.ts';

describe('change emails', () => {
  const from = 'Lufthansa <online@booking-lufthansa.com>';
  const head = ['Schedule change', 'Booking reference: QX7PLM', 'Passenger: Mr John Example'];
  const flights = async (text: string[]) =>
    (await extractText(from, [...head, ...text].join('\n'), 'Schedule change QX7PLM')).bookings[0]?.segments.map(
      (segment) => segment.flightNumber,
    );

  it('keeps flights listed as unchanged after the cancelled one', async () => {
    const result = await extractText(
      'Air Canada <notification@aircanada.ca>',
      [
        'Booking reference: T7QWMZ',
        'Dear Lea Fontaine,',
        'YOUR NEW FLIGHT',
        'AC 411 Fri 10 Sep 2027 Toronto (YYZ) 09:00 -> Montreal (YUL) 10:12',
        'YOUR PREVIOUS FLIGHT (cancelled)',
        'AC 407 Fri 10 Sep 2027 Toronto (YYZ) 07:00 -> Montreal (YUL) 08:12',
        'All other flights in your booking are unchanged:',
        'AC 420 Sun 12 Sep 2027 Montreal (YUL) 17:00 -> Toronto (YYZ) 18:20',
      ].join('\n'),
      'Schedule change',
    );
    const booking = result.bookings[0];
    expect(booking?.segments.map((s) => s.flightNumber)).toEqual(['AC 411', 'AC 420']);
    expect(booking?.passengers).toEqual(['Lea Fontaine']);
  });

  it("keeps only the 'NOW:' flights after 'WAS:'", async () => {
    expect(
      await flights([
        'WAS:',
        'Mon 14 Jun 2027  LH 1166  Frankfurt (FRA) 10:05 -> Lisbon (LIS) 12:15',
        'NOW:',
        'Mon 14 Jun 2027  LH 1170  Frankfurt (FRA) 13:40 -> Lisbon (LIS) 15:50',
      ]),
    ).toEqual(['LH 1170']);
  });

  it("drops a row whose status cell is 'Cancelled'", async () => {
    expect(
      await flights([
        'Flight | Date | From | To | Departs | Arrives | Status',
        'LH 1166 | 14 Jun 2027 | FRA | LIS | 10:05 | 12:15 | Cancelled',
        'LH 1170 | 14 Jun 2027 | FRA | LIS | 13:40 | 15:50 | New',
      ]),
    ).toEqual(['LH 1170']);
  });
});
