// Where a scan reads mail from: Gmail (the API, with the traveller's token) or, on the local
// stack, the repository's sample mailbox (dev/mailbox/*.eml, newest first by name), so the whole
// path works offline. Both list message ids and fetch one raw message at a time.
import type { EmailImportConfig } from '../../config.ts';
import {
  GMAIL_SCAN_QUERY,
  GmailHistoryGoneError,
  gmailHistory,
  gmailProfile,
  gmailRawMessage,
  gmailSearch,
  GmailUnauthorizedError,
} from './google.ts';

export interface MailboxListing {
  /** Newest first. */
  ids: string[];
  /** Where the next incremental scan starts (Gmail's history id); null: always list in full. */
  historyId: string | null;
  mode: 'full' | 'incremental';
}

export interface Mailbox {
  via: 'gmail' | 'sample';
  list(sinceHistoryId: string | null, max: number): Promise<MailboxListing>;
  fetch(id: string): Promise<Uint8Array>;
}

/** The repository's sample mailbox (five levels up from this file: the repository root). */
export function sampleMailboxDir(config: EmailImportConfig): string {
  return config.devMailboxDir ?? new URL('../../../../../dev/mailbox/', import.meta.url).pathname;
}

export function sampleMailbox(dir: string): Mailbox {
  const path = (name: string) => `${dir.replace(/\/+$/, '')}/${name}`;
  return {
    via: 'sample',
    async list(_since, max) {
      const names: string[] = [];
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isFile && entry.name.endsWith('.eml')) names.push(entry.name);
      }
      names.sort().reverse();
      return { ids: names.slice(0, max), historyId: null, mode: 'full' };
    },
    async fetch(id) {
      if (!/^[\w.-]+\.eml$/.test(id)) throw new Error('not a sample message');
      return await Deno.readFile(path(id));
    },
  };
}

/**
 * Gmail through the traveller's token. `token()` answers the current access token; `refresh()`
 * a new one (GoogleGrantError when Google refuses the refresh token). A 401 is retried once with
 * a refreshed token.
 */
export function gmailMailbox(
  config: EmailImportConfig,
  auth: { token(): Promise<string>; refresh(): Promise<string> },
): Mailbox {
  async function withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(await auth.token());
    } catch (error) {
      if (!(error instanceof GmailUnauthorizedError)) throw error;
      return await call(await auth.refresh());
    }
  }
  return {
    via: 'gmail',
    async list(sinceHistoryId, max) {
      if (sinceHistoryId) {
        try {
          const { ids, historyId } = await withToken((t) => gmailHistory(config, t, sinceHistoryId));
          return { ids: ids.slice(0, max), historyId, mode: 'incremental' };
        } catch (error) {
          if (!(error instanceof GmailHistoryGoneError)) throw error;
          // too old for Gmail's history: list in full (messages already read are skipped)
        }
      }
      // the history id is taken before the search, so a message arriving meanwhile is not missed
      const profile = await withToken((t) => gmailProfile(config, t));
      const ids = await withToken((t) => gmailSearch(config, t, GMAIL_SCAN_QUERY, max));
      return { ids, historyId: profile.historyId, mode: 'full' };
    },
    fetch(id) {
      return withToken((t) => gmailRawMessage(config, t, id));
    },
  };
}
