// Picks the mailbox a scan reads: the traveller's Gmail (the Gmail API with their token) or, on the
// local stack, the repository's sample mailbox. Google's OAuth for connecting Gmail: google.ts.
import { type GmailAuth, gmailMailbox } from './gmail.ts';
import { sampleMailbox, sampleMailboxDir } from './sample.ts';
import type { GoogleConfig, Mailbox } from './types.ts';

export * from './types.ts';

export type MailboxOptions =
  | { kind: 'sample'; devMailboxDir: string | null }
  | { kind: 'gmail'; google: GoogleConfig; auth: GmailAuth; query: string };

export function createMailbox(options: MailboxOptions): Mailbox {
  if (options.kind === 'sample') return sampleMailbox(sampleMailboxDir(options.devMailboxDir));
  return gmailMailbox(options.google, options.auth, options.query);
}
