import { describe, expect, it } from './testing/harness.ts';
import { parseEmail, repairC1 } from './mime.ts';
import { buildEmail } from './testing/email-factory.ts';

describe('parseEmail', () => {
  it('decodes ISO-8859-1 quoted-printable text and the headers', async () => {
    const raw = buildEmail({
      from: 'Lufthansa <online@booking-lufthansa.com>',
      subject: '=?utf-8?q?Ihre_Buchungsbest=C3=A4tigung?=',
      text: 'Sehr geehrte Frau Wöhlke, Rückflug München',
      charset: 'iso-8859-1',
      encoding: 'quoted-printable',
    });
    const email = await parseEmail(raw);
    expect(email.text).toContain('Wöhlke, Rückflug München');
    expect(email.subject).toBe('Ihre Buchungsbestätigung');
    expect(email.fromAddress).toBe('online@booking-lufthansa.com');
    expect(email.date?.toISOString()).toBe('2027-01-18T14:42:17.000Z');
  });

  it('decodes base64 HTML in a multipart message with CRLF endings and lists attachments', async () => {
    const raw = buildEmail({
      text: 'plain',
      html: '<p>Booking code: <b>ABC123</b></p>',
      encoding: 'base64',
      newline: '\r\n',
      attachments: [{ filename: 'itinerary.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
    });
    const email = await parseEmail(raw);
    expect(email.html).toContain('<b>ABC123</b>');
    expect(email.attachments).toHaveLength(1);
    expect(email.attachments[0]).toMatchObject({ filename: 'itinerary.ics', mimeType: 'text/calendar' });
    expect(email.attachments[0]?.size).toBeGreaterThanOrEqual(15);
  });

  it('parses an attached message/rfc822 as its own message', async () => {
    const inner = buildEmail({ from: 'Delta <DeltaAirLines@t.delta.com>', subject: 'Receipt', text: 'inner body' });
    const raw = buildEmail({
      text: 'see attached',
      attachments: [{ filename: 'fwd.eml', contentType: 'message/rfc822', content: inner }],
    });
    const email = await parseEmail(raw);
    expect(email.attachedMessages[0]?.fromAddress).toBe('DeltaAirLines@t.delta.com');
    expect(email.attachedMessages[0]?.text).toContain('inner body');
  });

  it('returns an empty message for garbage', async () => {
    const email = await parseEmail(new Uint8Array([0, 255, 13, 10, 13, 10, 1, 2, 3]));
    expect(email.attachedMessages).toEqual([]);
    expect(typeof email.text).toBe('string');
  });
});

describe('repairC1', () => {
  it('reads C1 controls as the windows-1252 characters their bytes stand for', () => {
    expect(repairC1('Total 1 689,40 \u0080 \u0096 l\u0092avion')).toBe('Total 1 689,40 € – l’avion');
    expect(repairC1('plain text')).toBe('plain text');
  });
});
