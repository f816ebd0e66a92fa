// MIME layer: postal-mime decodes the raw RFC 822 bytes (charsets, quoted-printable, base64,
// nested multiparts). Attached messages (message/rfc822, Outlook's "forward as attachment") are
// kept as separate messages so their own From and Date headers survive. A message postal-mime
// rejects (nesting or header limits) comes back as an empty message: extraction then finds
// nothing, which is the safe answer.
import PostalMime from 'postal-mime';
import type { AttachedDocument, EmailMessage, SkippedAttachment } from './types.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, SKIPPED } from './budget.ts';

export type RawEmailInput = Uint8Array | ArrayBuffer | string;

const MAX_ATTACHED_MESSAGES = 3;
/** Airlines attach one calendar file per leg; more, or larger ones, are not itineraries. */
const MAX_CALENDARS = 8;
const MAX_CALENDAR_BYTES = 256_000;

export interface ParsedEmail extends EmailMessage {
  /** Messages attached as message/rfc822, already parsed. */
  attachedMessages: EmailMessage[];
}

const EMPTY_MESSAGE: EmailMessage = {
  fromName: '',
  fromAddress: '',
  subject: '',
  date: null,
  text: '',
  html: '',
  attachments: [],
  calendars: [],
  documents: [],
  skippedAttachments: [],
};

/** The attachments the extractor reads, by type or, for the generic types mail clients use, by name. */
function documentKind(mimeType: string, filename: string): AttachedDocument['kind'] | null {
  if (/^application\/(?:x-)?pdf$/i.test(mimeType) || /\.pdf$/i.test(filename)) return 'pdf';
  if (/^application\/vnd\.apple\.pkpass$/i.test(mimeType) || /\.pkpass$/i.test(filename)) return 'wallet-pass';
  return null;
}

/**
 * `documents` counts the PDFs and passes kept so far in the whole email (attached messages
 * included): MAX_ATTACHMENTS holds for the email, not for each message in it.
 */
export async function parseEmail(
  raw: RawEmailInput,
  depth = 0,
  documents: { kept: number } = { kept: 0 },
): Promise<ParsedEmail> {
  let email;
  try {
    email = await PostalMime.parse(raw, {
      forceRfc822Attachments: true,
      attachmentEncoding: 'arraybuffer',
      maxNestingDepth: 50,
    });
  } catch {
    return { ...EMPTY_MESSAGE, attachedMessages: [] };
  }
  const attachedMessages: EmailMessage[] = [];
  const attachments: EmailMessage['attachments'] = [];
  const calendars: string[] = [];
  const kept: AttachedDocument[] = [];
  const skippedAttachments: SkippedAttachment[] = [];
  for (const attachment of email.attachments) {
    const content = attachment.content;
    const size = typeof content === 'string' ? content.length : content.byteLength;
    const filename = attachment.filename ?? '';
    attachments.push({ filename, mimeType: attachment.mimeType, size });
    const kind = documentKind(attachment.mimeType, filename);
    if (kind) {
      const name = filename || (kind === 'pdf' ? 'a PDF' : 'a Wallet pass');
      if (documents.kept >= MAX_ATTACHMENTS) skippedAttachments.push({ filename: name, reason: SKIPPED.tooMany });
      else if (size > MAX_ATTACHMENT_BYTES) skippedAttachments.push({ filename: name, reason: SKIPPED.tooLarge });
      else {
        documents.kept += 1;
        kept.push({
          filename: name,
          kind,
          content: typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content),
        });
      }
    }
    const calendar =
      /^(?:text\/calendar|application\/ics|text\/x-vcalendar)$/i.test(attachment.mimeType) ||
      /\.ics$/i.test(attachment.filename ?? '');
    if (calendar && size <= MAX_CALENDAR_BYTES && calendars.length < MAX_CALENDARS) {
      calendars.push(typeof content === 'string' ? content : new TextDecoder().decode(content));
    }
    if (
      attachment.mimeType === 'message/rfc822' &&
      depth < 2 &&
      attachedMessages.length < MAX_ATTACHED_MESSAGES &&
      typeof content !== 'string'
    ) {
      const inner = await parseEmail(content, depth + 1, documents);
      attachedMessages.push(inner, ...inner.attachedMessages);
    }
  }
  return {
    fromName: email.from?.name ?? '',
    fromAddress: ('address' in (email.from ?? {}) ? email.from?.address : '') ?? '',
    subject: email.subject ?? '',
    date: parseHeaderDate(email.date),
    text: repairC1(email.text ?? ''),
    html: repairC1(email.html ?? ''),
    attachments,
    calendars,
    documents: kept,
    skippedAttachments,
    attachedMessages,
  };
}

/**
 * windows-1252 bytes 0x80-0x9F ('€', '–', '’') come out of some runtimes' decoders (Node's
 * TextDecoder among them) as C1 control characters. Real mail text never holds C1 controls, so
 * each one is read as the windows-1252 character its byte stands for.
 */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

export function repairC1(text: string): string {
  return /[\u0080-\u009F]/.test(text)
    ? text.replace(/[\u0080-\u009F]/g, (char) => WINDOWS_1252_C1[char.charCodeAt(0) - 0x80] ?? char)
    : text;
}

function parseHeaderDate(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
