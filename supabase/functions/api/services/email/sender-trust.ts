// Who sent an email, as far as FareBack may trust it: the From address's registrable domain,
// checked against the authentication results the receiving server wrote (Authentication-Results,
// else ARC-Authentication-Results), else against the DKIM signatures' d=. And the list of airline
// and agency domains whose bookings are taken without asking, with the Gmail scan's search built
// from the same list. Pure: no I/O.
//
// Facts used:
// - RFC 8601 section 7.1: anyone can write an Authentication-Results field; the receiving server
//   removes fields claiming its own authserv-id and prepends its own, so only the topmost one (the
//   receiver's: Gmail's `mx.google.com`) is read here.
// - RFC 7489 (DMARC): `dmarc=pass` means SPF or DKIM passed for a domain aligned with the From
//   domain (`header.from`); a `dkim=pass` names its signing domain in `header.d` (or `header.i`),
//   `spf=pass` the envelope sender in `smtp.mailfrom`.

/**
 * Airline and agency domains (registrable) whose confirmations are imported without asking the
 * traveller. Mail from anyone else that reads as a booking is held for the traveller to confirm.
 */
export const KNOWN_BOOKING_SENDER_DOMAINS = [
  'united.com',
  'aa.com',
  'delta.com',
  'southwest.com',
  'jetblue.com',
  'alaskaair.com',
  'aircanada.ca',
  'britishairways.com',
  'ba.com',
  'lufthansa.com',
  'booking-lufthansa.com',
  'emirates.com',
  'qatarairways.com',
  'singaporeair.com',
  'airfrance.fr',
  'airfrance.com',
  'klm.com',
  'jal.com',
  'spirit.com',
  'flyfrontier.com',
  'hawaiianairlines.com',
  'allegiantair.com',
  'expedia.com',
  'booking.com',
  'kayak.com',
  'priceline.com',
] as const;

/**
 * The search a scan runs: mail from a known airline or agency AND with a confirmation word in its
 * subject, within two years, no chats or spam. Gmail lists newest first. Gmail's search syntax
 * (support.google.com/mail/answer/7190, "Search operators you can use with Gmail"): terms side by
 * side must all match; `OR` or `{ }` matches any of several terms; `( )` groups terms under one
 * operator, as in `subject:(dinner movie)`. So `from:(a OR b) subject:(x OR y)` is senders AND
 * subject words; the earlier `{ from:(...) subject:(...) }` matched either, and read anyone's mail
 * with "flight" in its subject (issue 21, finding 6).
 */
export const GMAIL_SCAN_QUERY = [
  `from:(${KNOWN_BOOKING_SENDER_DOMAINS.join(' OR ')})`,
  'subject:(flight OR itinerary OR "e-ticket" OR eticket OR booking OR confirmation OR receipt OR reservation',
  'OR "schedule change" OR changed OR cancelled OR canceled OR cancellation OR trip)',
  'newer_than:2y -in:chats -in:spam',
].join(' ');

const KNOWN = new Set<string>(KNOWN_BOOKING_SENDER_DOMAINS);

/**
 * Second-level labels under which a two-letter country code's registrations sit (co.uk, com.au,
 * co.jp, gov.br...): an approximation of the Public Suffix List's multi-label suffixes, enough to
 * tell `a.co.uk` from `b.co.uk` without shipping the list.
 */
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'gob', 'or', 'ne', 'go', 'gv']);

/** The registrable domain of a host name (`email.ba.com` -> `ba.com`); null when there is none. */
export function registrableDomain(host: string): string | null {
  const labels = host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .split('.')
    .filter((l) => l.length > 0);
  if (labels.length < 2 || labels.some((l) => !/^[a-z0-9-]{1,63}$/.test(l))) return null;
  const tld = labels[labels.length - 1]!;
  const second = labels[labels.length - 2]!;
  const take = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.length >= take ? labels.slice(-take).join('.') : null;
}

/** The registrable domain of an address (`Name <a@b.example.com>` or `a@b.example.com`). */
export function domainOfAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at === -1) return null;
  return registrableDomain(address.slice(at + 1).replace(/[>\s].*$/, ''));
}

export function isKnownBookingSender(domain: string | null): boolean {
  return domain !== null && KNOWN.has(domain);
}

export interface SenderVerdict {
  /** The From address's registrable domain; null when it has none. */
  domain: string | null;
  /**
   * Whether the message may be taken as coming from `domain`: the receiver's authentication
   * results pass for it, or, with none written, no DKIM signature names another domain.
   */
  authenticated: boolean;
  /** What decided it, for the log and the tests. */
  basis: 'authentication-results' | 'arc' | 'dkim-signature' | 'unchecked' | 'no-domain';
}

/** The header fields of a raw message's header block, unfolded, in order (names lower-cased). */
export function headerFields(raw: string): { name: string; value: string }[] {
  const end = raw.search(/\r?\n\r?\n/);
  const block = end === -1 ? raw : raw.slice(0, end);
  const fields: { name: string; value: string }[] = [];
  for (const line of block.split(/\r?\n/)) {
    const last = fields[fields.length - 1];
    if (/^[ \t]/.test(line) && last) last.value += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0)
        fields.push({ name: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() });
    }
  }
  return fields;
}

interface MethodResult {
  method: string;
  result: string;
  props: Map<string, string>;
}

/** `mx.google.com; dkim=pass header.i=@x.com; spf=pass smtp.mailfrom=a@x.com` -> method results. */
function methodResults(value: string): MethodResult[] {
  // comments in parentheses carry nothing this reads, and may hold ';' or '='
  const plain = value.replace(/\([^()]*\)/g, ' ');
  return plain
    .split(';')
    .slice(1)
    .map((part) => part.trim())
    .map((part): MethodResult | null => {
      const head = /^([a-z0-9-]+)\s*=\s*([a-z]+)/i.exec(part);
      if (!head) return null;
      const props = new Map<string, string>();
      for (const m of part.slice(head[0].length).matchAll(/([a-z0-9-]+\.[a-z0-9-]+)\s*=\s*("[^"]*"|[^\s;]+)/gi)) {
        props.set(m[1]!.toLowerCase(), m[2]!.replace(/^"|"$/g, ''));
      }
      return { method: head[1]!.toLowerCase(), result: head[2]!.toLowerCase(), props };
    })
    .filter((r): r is MethodResult => r !== null);
}

function domainOfProperty(value: string | undefined): string | null {
  if (!value) return null;
  return value.includes('@') ? domainOfAddress(value) : registrableDomain(value);
}

/** Whether the receiver's results authenticate `domain`. */
function resultsAuthenticate(results: MethodResult[], domain: string): boolean {
  const dmarc = results.find((r) => r.method === 'dmarc');
  if (dmarc) {
    const named = domainOfProperty(dmarc.props.get('header.from'));
    return dmarc.result === 'pass' && (named === null || named === domain);
  }
  const failed = results.some(
    (r) => (r.method === 'dkim' || r.method === 'spf') && ['fail', 'softfail', 'permerror'].includes(r.result),
  );
  if (failed) return false;
  return results.some(
    (r) =>
      r.result === 'pass' &&
      ((r.method === 'dkim' && domainOfProperty(r.props.get('header.d') ?? r.props.get('header.i')) === domain) ||
        (r.method === 'spf' && domainOfProperty(r.props.get('smtp.mailfrom')) === domain)),
  );
}

/** An authentication field is a few hundred characters; a longer one is read only this far. */
const MAX_FIELD = 4096;

/** The sender of a raw message whose From address is `fromAddress`. */
export function senderVerdict(raw: string, fromAddress: string): SenderVerdict {
  const domain = domainOfAddress(fromAddress);
  if (domain === null) return { domain, authenticated: false, basis: 'no-domain' };
  const fields = headerFields(raw);
  const receiver = fields.find((f) => f.name === 'authentication-results');
  if (receiver) {
    const results = methodResults(receiver.value.slice(0, MAX_FIELD));
    return { domain, authenticated: resultsAuthenticate(results, domain), basis: 'authentication-results' };
  }
  const arc = fields.find((f) => f.name === 'arc-authentication-results');
  if (arc) {
    // `i=1; mx.example; dkim=pass ...`: the instance tag comes before the authserv-id
    const value = arc.value.slice(0, MAX_FIELD).replace(/^\s*i\s*=\s*\d+\s*;/i, '');
    return { domain, authenticated: resultsAuthenticate(methodResults(value), domain), basis: 'arc' };
  }
  const signers = fields
    .filter((f) => f.name === 'dkim-signature')
    .map((f) => /(?:^|;)\s*d\s*=\s*([^;\s]+)/i.exec(f.value.slice(0, MAX_FIELD))?.[1])
    .map((d) => (d ? registrableDomain(d) : null));
  if (signers.length > 0) {
    return { domain, authenticated: signers.includes(domain), basis: 'dkim-signature' };
  }
  // nothing to check against (the sample mailbox, the Google stand-in, the local mail catcher)
  return { domain, authenticated: true, basis: 'unchecked' };
}
