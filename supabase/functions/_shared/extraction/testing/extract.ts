// One-call extraction of a test email built in code: the sender, the body (plain text or HTML),
// the subject and the Date header that resolves dates printed without a year.
import { extractFlightBookings, warmUpAirports } from '../index.ts';
import { buildEmail, type EmailParts } from './email-factory.ts';

// The airport data loads once per test file, while the file is imported: no single test then pays
// for it against its time limit on a busy machine.
await warmUpAirports();

const SENT = 'Tue, 02 Mar 2027 10:00:00 -0500';

export function extractText(from: string, text: string, subject = 'Your trip', date = SENT) {
  return extractFlightBookings(buildEmail({ from, subject, date, text, encoding: 'quoted-printable' }));
}

export function extractHtml(from: string, html: string, subject = 'Your trip', date = SENT) {
  return extractFlightBookings(buildEmail({ from, subject, date, html, encoding: 'quoted-printable' }));
}

export function extractParts(parts: EmailParts) {
  return extractFlightBookings(
    buildEmail({ subject: 'Your trip', date: SENT, encoding: 'quoted-printable', ...parts }),
  );
}
