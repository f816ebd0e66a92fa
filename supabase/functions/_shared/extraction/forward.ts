// Forwarded messages: Gmail ('---------- Forwarded message ---------'), Outlook ('-----Original
// Message-----' or a bare From/Sent/To/Subject block), Apple Mail ('Begin forwarded message:'),
// Thunderbird ('-------- Forwarded Message --------'), their German, French and Spanish forms,
// and '>' quoting. The forwarder's own note is dropped (its times and airports are not the
// flight's) and the original sender and Date header are recovered: they choose the airline
// extractor and resolve years.
import type { TextLine } from './html.ts';
import { normalizeSpaces } from './html.ts';
import { parseLooseDate } from './dates.ts';

export interface UnwrappedMessage {
  lines: TextLine[];
  forwarded: boolean;
  fromName: string | null;
  fromAddress: string | null;
  date: Date | null;
  subject: string | null;
}

const MARKER =
  /^(?:-{2,}\s*(?:forwarded message|original message|weitergeleitete nachricht|urspr[üu]ngliche nachricht|message transf[ée]r[ée]|message d'origine|mensaje reenviado|mensaje original)\s*-{2,}|begin forwarded message:?|anfang der weitergeleiteten nachricht:?|d[ée]but du message r[ée]exp[ée]di[ée]\s*:?|inicio del mensaje reenviado:?|_{10,})$/i;
const HEADER =
  /^(from|von|de|sent|gesendet|envoy[ée]|enviado|date|datum|fecha|subject|betreff|objet|asunto|to|an|[àa]|para|cc|bcc|reply-to)\s*:\s*(.*)$/i;

const FIELD_OF: Record<string, 'from' | 'date' | 'subject' | 'other'> = {
  from: 'from',
  von: 'from',
  de: 'from',
  sent: 'date',
  gesendet: 'date',
  envoyé: 'date',
  envoye: 'date',
  enviado: 'date',
  date: 'date',
  datum: 'date',
  fecha: 'date',
  subject: 'subject',
  betreff: 'subject',
  objet: 'subject',
  asunto: 'subject',
};

function stripQuote(line: TextLine): TextLine | null {
  if (!line.text.startsWith('>')) return line;
  const text = normalizeSpaces(line.text.replace(/^(?:>\s?)+/, ''));
  if (!text) return null;
  return {
    text,
    cells: line.cells.map((cell, i) => (i === 0 ? normalizeSpaces(cell.replace(/^(?:>\s?)+/, '')) : cell)),
    headers: line.headers,
  };
}

function parseAddress(value: string): { name: string | null; address: string | null } {
  const angle = /^(.*?)<([^<>\s]+@[^<>\s]+)>/.exec(value);
  if (angle) return { name: normalizeSpaces((angle[1] ?? '').replace(/["']/g, '')) || null, address: angle[2] ?? null };
  const bare = /([^\s<>"'[\]()]+@[^\s<>"'[\]()]+\.[a-z]{2,})/i.exec(value);
  if (bare) {
    const name = normalizeSpaces(value.replace(bare[0], '').replace(/[[\]()<>"']|mailto:/g, ''));
    return { name: name || null, address: bare[1] ?? null };
  }
  return { name: normalizeSpaces(value) || null, address: null };
}

/** Index of the line where a forwarded header block starts, or -1. */
function findForwardStart(lines: TextLine[], from: number): { marker: number; headers: number } {
  for (let i = from; i < lines.length; i++) {
    const text = lines[i]?.text.replace(/^(?:>\s?)+/, '') ?? '';
    if (MARKER.test(text)) return { marker: i, headers: i + 1 };
    // Outlook without a marker line: From: then Sent:/Date: and Subject: within a few lines.
    const header = HEADER.exec(text);
    if (header && FIELD_OF[(header[1] ?? '').toLowerCase()] === 'from' && /@/.test(header[2] ?? '')) {
      let sawDate = false;
      let sawSubject = false;
      for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
        const next = HEADER.exec(lines[j]?.text.replace(/^(?:>\s?)+/, '') ?? '');
        if (!next) break;
        const field = FIELD_OF[(next[1] ?? '').toLowerCase()];
        if (field === 'date') sawDate = true;
        if (field === 'subject') sawSubject = true;
      }
      if (sawDate && sawSubject) return { marker: i, headers: i };
    }
  }
  return { marker: -1, headers: -1 };
}

export function unwrapForwarded(lines: TextLine[], subject: string): UnwrappedMessage {
  let current: UnwrappedMessage = {
    lines,
    forwarded: false,
    fromName: null,
    fromAddress: null,
    date: null,
    subject: null,
  };
  let searchFrom = 0;
  // Nested forwards: keep unwrapping; the innermost original is the confirmation.
  for (let depth = 0; depth < 5; depth++) {
    const { marker, headers } = findForwardStart(current.lines, searchFrom);
    if (marker === -1) break;
    const fields: { from?: string; date?: string; subject?: string } = {};
    let bodyStart = headers;
    for (let i = headers; i < current.lines.length && i < headers + 12; i++) {
      const text = current.lines[i]?.text.replace(/^(?:>\s?)+/, '') ?? '';
      const header = HEADER.exec(text);
      if (!header) {
        if (i === headers) continue; // blank-ish separator right after the marker
        break;
      }
      const field = FIELD_OF[(header[1] ?? '').toLowerCase()] ?? 'other';
      if (field !== 'other' && fields[field] === undefined) fields[field] = header[2] ?? '';
      bodyStart = i + 1;
    }
    const body = current.lines
      .slice(bodyStart)
      .map(stripQuote)
      .filter((line): line is TextLine => line !== null);
    const address = fields.from ? parseAddress(fields.from) : { name: null, address: null };
    current = {
      lines: body,
      forwarded: true,
      fromName: address.name ?? current.fromName,
      fromAddress: address.address ?? current.fromAddress,
      date: (fields.date ? parseLooseDate(fields.date) : null) ?? current.date,
      subject: fields.subject ?? current.subject,
    };
    searchFrom = 0;
  }
  if (!current.forwarded) {
    // No header block: a bare '>' quoted confirmation under a 'Fwd:' subject.
    const quoted = lines.filter((line) => line.text.startsWith('>')).length;
    if (/^\s*(fwd?|wg|tr|rv)\s*:/i.test(subject) && quoted > 3) {
      const body = lines
        .filter((line) => line.text.startsWith('>'))
        .map(stripQuote)
        .filter((line): line is TextLine => line !== null);
      return { ...current, lines: body, forwarded: true };
    }
  }
  return current;
}
