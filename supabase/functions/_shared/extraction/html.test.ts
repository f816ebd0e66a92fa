import { describe, expect, it } from './testing/harness.ts';
import { extractHtml } from './testing/extract.ts';
import { decodeEntities, htmlToLines, parseHtml, splitLongLines, textToLines } from './html.ts';

const lines = (html: string) => htmlToLines(parseHtml(html)).map((line) => line.text);

describe('decodeEntities', () => {
  it('decodes named, numeric and accented entities', () => {
    expect(decodeEntities('K&ouml;ln &amp; M&uuml;nchen &#8594; &#x2708; &pound;5&nbsp;x')).toBe(
      'Köln & München → ✈ £5 x',
    );
    expect(decodeEntities('&unknown; &#xFFFFFFF;')).toBe('&unknown; &#xFFFFFFF;');
  });
});

describe('htmlToLines', () => {
  it('renders table rows as cells and keeps the header row', () => {
    const rendered = htmlToLines(
      parseHtml('<table><tr><th>Flight</th><th>Seat</th></tr><tr><td>DL 423</td><td>14C</td></tr></table>'),
    );
    expect(rendered.map((line) => line.text)).toEqual(['Flight | Seat', 'DL 423 | 14C']);
    expect(rendered[1]?.headers).toEqual(['flight', 'seat']);
  });

  it('joins a cell broken by <br> and closes cells without end tags', () => {
    expect(lines('<table><tr><td>6:00 AM<br/>San Francisco (SFO)<td>12:15 PM<br>Chicago (ORD)</table>')).toEqual([
      '6:00 AM San Francisco (SFO) | 12:15 PM Chicago (ORD)',
    ]);
  });

  it('drops struck-through, hidden, script and style content', () => {
    expect(
      lines(
        '<style>p{}</style><p>keep</p><table style="text-decoration: line-through"><tr><td>AA 1198</td></tr></table>' +
          '<div style="display:none">preheader</div><del>old</del><script>var x;</script><p>also kept</p>',
      ),
    ).toEqual(['keep', 'also kept']);
  });

  it('survives broken markup', () => {
    expect(lines('<div><p>one<p>two</span></div></table><td>three')).toEqual(['one', 'two', 'three']);
  });
});

describe('textToLines', () => {
  it('splits columns on pipes, tabs and wide spaces', () => {
    const [line] = textToLines('Mr Fiachra Mulcahy    Seat 17F');
    expect(line?.cells).toEqual(['Mr Fiachra Mulcahy', 'Seat 17F']);
  });
});

describe('labels after a <br> in one cell', () => {
  it('ends a value at a label after a <br> in the same cell', async () => {
    const result = await extractHtml(
      'SWISS <noreply@notifications.swiss.com>',
      `<table><tr><td>Booking reference: P8XNRD<br>Passenger: Mr Reto Zimmerli</td></tr>
<tr><td>Thu 23 Sep 2027 LX2084</td><td>Zurich ZRH 12:40</td><td>Lisbon LIS 14:25</td></tr>
<tr><td>Fare: Business Saver<br>Total price: CHF 1'985.40</td></tr></table>`,
    );
    expect(result.bookings[0]).toMatchObject({ fareType: 'Business Saver', passengers: ['Reto Zimmerli'] });
  });
});

describe('splitLongLines', () => {
  it('breaks a long itinerary line at its labels', () => {
    const line = [
      'Booking confirmation Date of issue: 02 March 2027 Booking reference: QX7PLM Passenger: Mr John Example',
      'Flight 1: LH 1166 Mon 14 Jun 2027 Frankfurt (FRA) 10:05 Lisbon (LIS) 12:15 Economy Seat 21C',
      'Flight 2: LH 1173 Sun 20 Jun 2027 Lisbon (LIS) 13:05 Frankfurt (FRA) 17:10',
      'BOOKING REF: QX7PLM Total price: EUR 312.40',
    ].join(' ');
    expect(splitLongLines(textToLines(line)).map((entry) => entry.text)).toEqual([
      'Booking confirmation',
      'Date of issue: 02 March 2027',
      'Booking reference: QX7PLM',
      'Passenger: Mr John Example',
      'Flight 1: LH 1166 Mon 14 Jun 2027 Frankfurt (FRA) 10:05 Lisbon (LIS) 12:15 Economy Seat 21C',
      'Flight 2: LH 1173 Sun 20 Jun 2027 Lisbon (LIS) 13:05 Frankfurt (FRA) 17:10',
      'BOOKING REF: QX7PLM',
      'Total price: EUR 312.40',
    ]);
  });

  it('leaves long lines without clock times alone', () => {
    const fine = `Note: ${'Fares are non-refundable. '.repeat(12)}Changes: allowed for a fee.`;
    expect(splitLongLines(textToLines(fine)).map((entry) => entry.text)).toEqual([fine]);
  });
});
