// The Gmail API (gmail.googleapis.com, users.me): the profile, a search, the history since a
// history id, one raw message; and the Mailbox the scan reads through it with the traveller's token.
//
// How it fails (see types.ts): a 401 is GmailUnauthorizedError (the mailbox refreshes the token
// once and retries); 429, or 403 naming a rate limit or quota, is GmailRateLimitError with the
// time Gmail asked to wait (Retry-After, at most an hour); a 404 on the history is
// GmailHistoryGoneError (the mailbox lists in full instead); another 403 is GmailUnauthorizedError;
// anything else, a timeout or an unreadable answer is GoogleUnavailableError.
import { callGoogle } from './google.ts';
import {
  type GoogleConfig,
  GoogleUnavailableError,
  GmailHistoryGoneError,
  GmailRateLimitError,
  GmailUnauthorizedError,
  type Mailbox,
} from './types.ts';

function retryAtOf(res: Response): Date {
  const header = res.headers.get('retry-after');
  const seconds = header && /^\d+$/.test(header) ? Number(header) : null;
  const at = header && seconds === null ? Date.parse(header) : NaN;
  if (seconds !== null) return new Date(Date.now() + Math.min(seconds, 3600) * 1000);
  if (!Number.isNaN(at)) return new Date(Math.min(at, Date.now() + 3600_000));
  return new Date(Date.now() + 60_000);
}

async function gmail<T>(config: GoogleConfig, accessToken: string, path: string): Promise<T> {
  const res = await callGoogle(`${config.gmailApiUrl}/gmail/v1/users/me/${path}`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  });
  if (res.ok) {
    try {
      return (await res.json()) as T;
    } catch {
      throw new GoogleUnavailableError('Gmail answered unreadably');
    }
  }
  const text = await res.text().catch(() => '');
  if (res.status === 401) throw new GmailUnauthorizedError('Gmail refused the access token');
  if (
    res.status === 429 ||
    (res.status === 403 && /rateLimitExceeded|quotaExceeded|userRateLimitExceeded/i.test(text))
  ) {
    throw new GmailRateLimitError(retryAtOf(res));
  }
  if (res.status === 404 && path.startsWith('history')) throw new GmailHistoryGoneError('history id too old');
  if (res.status === 403) throw new GmailUnauthorizedError('Gmail refused access (403)');
  throw new GoogleUnavailableError(`Gmail answered ${res.status}`);
}

export interface GmailProfile {
  emailAddress: string;
  historyId: string;
}

export function gmailProfile(config: GoogleConfig, accessToken: string): Promise<GmailProfile> {
  return gmail<GmailProfile>(config, accessToken, 'profile');
}

/** Message ids matching `query`, newest first (Gmail's order), at most `max`. */
export async function gmailSearch(
  config: GoogleConfig,
  accessToken: string,
  query: string,
  max: number,
): Promise<string[]> {
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const params = new URLSearchParams({ q: query, maxResults: String(Math.min(500, max - ids.length)) });
    if (pageToken) params.set('pageToken', pageToken);
    const page = await gmail<{ messages?: { id: string }[]; nextPageToken?: string }>(
      config,
      accessToken,
      `messages?${params}`,
    );
    for (const message of page.messages ?? []) ids.push(message.id);
    pageToken = page.nextPageToken;
  } while (pageToken && ids.length < max);
  return ids.slice(0, max);
}

/** Messages added since `startHistoryId`, newest first, and the history id to start from next. */
export async function gmailHistory(
  config: GoogleConfig,
  accessToken: string,
  startHistoryId: string,
): Promise<{ ids: string[]; historyId: string }> {
  const ids: string[] = [];
  let pageToken: string | undefined;
  let historyId = startHistoryId;
  do {
    const params = new URLSearchParams({ startHistoryId, historyTypes: 'messageAdded', maxResults: '500' });
    if (pageToken) params.set('pageToken', pageToken);
    const page = await gmail<{
      history?: { messagesAdded?: { message: { id: string } }[] }[];
      nextPageToken?: string;
      historyId?: string;
    }>(config, accessToken, `history?${params}`);
    for (const entry of page.history ?? []) {
      for (const added of entry.messagesAdded ?? []) ids.push(added.message.id);
    }
    if (page.historyId) historyId = page.historyId;
    pageToken = page.nextPageToken;
  } while (pageToken);
  return { ids: [...new Set(ids)].reverse(), historyId };
}

/** One message as raw RFC 822 bytes. */
export async function gmailRawMessage(config: GoogleConfig, accessToken: string, id: string): Promise<Uint8Array> {
  const message = await gmail<{ raw?: string }>(config, accessToken, `messages/${encodeURIComponent(id)}?format=raw`);
  if (!message.raw) throw new GoogleUnavailableError('Gmail sent a message without its raw form');
  const normal = message.raw.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** The traveller's token: `token()` answers the current access token, `refresh()` a new one. */
export interface GmailAuth {
  token(): Promise<string>;
  refresh(): Promise<string>;
}

/**
 * Gmail through the traveller's token, listing what `query` (Gmail's search syntax) finds.
 * `refresh()` throws GoogleGrantError when Google refuses the refresh token. A 401 is retried once
 * with a refreshed token.
 */
export function gmailMailbox(config: GoogleConfig, auth: GmailAuth, query: string): Mailbox {
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
      const ids = await withToken((t) => gmailSearch(config, t, query, max));
      return { ids, historyId: profile.historyId, mode: 'full' };
    },
    fetch(id) {
      return withToken((t) => gmailRawMessage(config, t, id));
    },
  };
}
