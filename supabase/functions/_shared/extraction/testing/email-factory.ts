// Small factories for test emails: RFC 822 messages built in code, so each test states the
// layout it exercises instead of copying a fixture.

export interface EmailParts {
  from?: string;
  to?: string;
  subject?: string;
  date?: string;
  text?: string;
  html?: string;
  /** Transfer encoding of the bodies. */
  encoding?: '7bit' | '8bit' | 'base64' | 'quoted-printable';
  charset?: 'utf-8' | 'iso-8859-1';
  attachments?: { filename: string; contentType: string; content: string | Uint8Array }[];
  newline?: '\r\n' | '\n';
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/.{76}/g, '$&\n');
}

function encodeBytes(text: string, charset: 'utf-8' | 'iso-8859-1'): Uint8Array {
  if (charset === 'utf-8') return new TextEncoder().encode(text);
  return Uint8Array.from([...text].map((char) => Math.min(char.charCodeAt(0), 255)));
}

function quotedPrintable(bytes: Uint8Array): string {
  let out = '';
  let lineLength = 0;
  for (const byte of bytes) {
    let piece: string;
    if (byte === 10) {
      out += '\n';
      lineLength = 0;
      continue;
    }
    if ((byte >= 33 && byte <= 126 && byte !== 61) || byte === 32) piece = String.fromCharCode(byte);
    else piece = `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (lineLength + piece.length > 75) {
      out += '=\n';
      lineLength = 0;
    }
    out += piece;
    lineLength += piece.length;
  }
  return out;
}

function body(content: string, type: string, parts: EmailParts): string {
  const charset = parts.charset ?? 'utf-8';
  const encoding = parts.encoding ?? '8bit';
  const bytes = encodeBytes(content, charset);
  const encoded =
    encoding === 'base64'
      ? toBase64(bytes)
      : encoding === 'quoted-printable'
        ? quotedPrintable(bytes)
        : new TextDecoder(charset === 'utf-8' ? 'utf-8' : 'latin1').decode(bytes);
  return `Content-Type: ${type}; charset=${charset}\nContent-Transfer-Encoding: ${encoding}\n\n${encoded}\n`;
}

export function buildEmail(parts: EmailParts): string {
  const headers = [
    'MIME-Version: 1.0',
    `From: ${parts.from ?? 'Example Air <booking@example.com>'}`,
    `To: ${parts.to ?? 'Traveller <traveller@example.net>'}`,
    `Subject: ${parts.subject ?? 'Your booking'}`,
    `Date: ${parts.date ?? 'Mon, 18 Jan 2027 09:42:17 -0500'}`,
  ];
  const bodies: string[] = [];
  if (parts.text !== undefined) bodies.push(body(parts.text, 'text/plain', parts));
  if (parts.html !== undefined) bodies.push(body(parts.html, 'text/html', parts));
  let message: string;
  const attachments = parts.attachments ?? [];
  if (bodies.length === 1 && attachments.length === 0) {
    message = `${headers.join('\n')}\n${bodies[0] ?? ''}`;
  } else {
    const alternative = `${headers.join('\n')}\nContent-Type: multipart/mixed; boundary="mixed-1"\n\n--mixed-1\nContent-Type: multipart/alternative; boundary="alt-1"\n\n${bodies
      .map((part) => `--alt-1\n${part}`)
      .join('')}--alt-1--\n`;
    const attached = attachments
      .map(
        (attachment) =>
          `--mixed-1\nContent-Type: ${attachment.contentType}; name="${attachment.filename}"\nContent-Disposition: attachment; filename="${attachment.filename}"\n${
            attachment.contentType === 'message/rfc822' && typeof attachment.content === 'string'
              ? '\n' + attachment.content
              : 'Content-Transfer-Encoding: base64\n\n' +
                toBase64(
                  typeof attachment.content === 'string'
                    ? new TextEncoder().encode(attachment.content)
                    : attachment.content,
                )
          }\n`,
      )
      .join('');
    message = `${alternative}${attached}--mixed-1--\n`;
  }
  return parts.newline === '\r\n' ? message.replace(/\r?\n/g, '\r\n') : message;
}

/** A plain-text confirmation in a common airline layout, with the pieces tests vary. */
export function plainConfirmation(options: {
  label?: string;
  code?: string;
  passenger?: string;
  segments?: string[];
  total?: string;
  fare?: string;
}): string {
  return [
    'Your booking is confirmed.',
    '',
    `${options.label ?? 'Confirmation code'}: ${options.code ?? 'QX7PLM'}`,
    '',
    ...(options.segments ?? ['Tue, 14 Sep 2027  BA 117  London Heathrow (LHR) 08:25  ->  New York JFK (JFK) 11:15']),
    '',
    `Passenger: ${options.passenger ?? 'Mr John Example'}`,
    options.fare ? `Fare type: ${options.fare}` : '',
    options.total ? `Total: ${options.total}` : '',
  ].join('\n');
}
