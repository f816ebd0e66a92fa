import { describe, expect, it } from './testing/harness.ts';
import { unwrapForwarded } from './forward.ts';
import { htmlToLines, parseHtml, textToLines } from './html.ts';

const texts = (lines: { text: string }[]) => lines.map((line) => line.text);

describe('unwrapForwarded', () => {
  it('unwraps a Gmail forward and recovers the original sender and date', () => {
    const lines = textToLines(
      [
        'FYI - pick me up at 10:30 at SEA (SEA)',
        '',
        '---------- Forwarded message ---------',
        'From: Delta Air Lines <DeltaAirLines@t.delta.com>',
        'Date: Fri, Feb 19, 2027 at 8:02\u202fPM',
        'Subject: Your Flight Receipt',
        'To: <eamon@example.com>',
        '',
        'Confirmation Number: DRK7LX',
      ].join('\n'),
    );
    const message = unwrapForwarded(lines, 'Fwd: Your Flight Receipt');
    expect(message.forwarded).toBe(true);
    expect(message.fromAddress).toBe('DeltaAirLines@t.delta.com');
    expect(message.fromName).toBe('Delta Air Lines');
    expect(message.date?.getUTCFullYear()).toBe(2027);
    expect(texts(message.lines)).toEqual(['Confirmation Number: DRK7LX']);
  });

  it('unwraps an Outlook block without a marker and strips quoting', () => {
    const lines = textToLines(
      [
        'see below',
        'From: Alaska Airlines <alaskaair@ifly.alaskaair.com>',
        'Sent: Tuesday, March 2, 2027 7:01 PM',
        'To: John <john@example.com>',
        'Subject: Your confirmation',
        '> Confirmation code: KLMZQW',
        '> Flight AS 330',
      ].join('\n'),
    );
    const message = unwrapForwarded(lines, 'FW: Your confirmation');
    expect(message.fromAddress).toBe('alaskaair@ifly.alaskaair.com');
    expect(texts(message.lines)).toEqual(['Confirmation code: KLMZQW', 'Flight AS 330']);
  });

  it('unwraps Apple Mail and German markers in HTML', () => {
    const html =
      '<div>Schau mal</div><div>Anfang der weitergeleiteten Nachricht:</div><div><b>Von:</b> Lufthansa &lt;online@booking-lufthansa.com&gt;</div>' +
      '<div><b>Datum:</b> 25. Januar 2027 um 08:31:40 MEZ</div><div><b>Betreff:</b> Ihre Buchung</div><p>Buchungscode: V3QHRB</p>';
    const message = unwrapForwarded(htmlToLines(parseHtml(html)), 'WG: Ihre Buchung');
    expect(message.fromAddress).toBe('online@booking-lufthansa.com');
    expect(message.date?.getUTCMonth()).toBe(0);
    expect(texts(message.lines)).toEqual(['Buchungscode: V3QHRB']);
  });

  it('leaves an ordinary email alone', () => {
    const lines = textToLines('Booking code: ABC123\nFrom our team');
    const message = unwrapForwarded(lines, 'Your booking');
    expect(message.forwarded).toBe(false);
    expect(message.lines).toBe(lines);
  });
});
