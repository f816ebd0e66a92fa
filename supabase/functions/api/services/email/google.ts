// Google's OAuth 2.0 (authorization code with PKCE, refresh, revocation) and the Gmail API calls
// the scan makes. Endpoints are base URLs from the configuration, so tests run the real flow
// against the local stand-in (dev/google). No token or message body is ever logged or thrown.
import { GMAIL_READONLY_SCOPE } from '../../../_shared/types/email.ts';
import type { EmailImportConfig } from '../../config.ts';
import { KNOWN_BOOKING_SENDER_DOMAINS } from './sender-trust.ts';

/** Google refused the grant: a code reused, expired or with the wrong verifier; a refresh token revoked. */
export class GoogleGrantError extends Error {}
/** Google or Gmail could not be reached or answered unreadably. */
export class GoogleUnavailableError extends Error {}
/** The access token is no longer accepted (401): refresh, or reconnect when refreshing fails. */
export class GmailUnauthorizedError extends Error {}
/** 429, or 403 with a rate-limit or quota reason: wait until `retryAt`. */
export class GmailRateLimitError extends Error {
  constructor(readonly retryAt: Date) {
    super('Gmail rate limit reached');
  }
}
/** A history id too old for Gmail to answer from (404): scan in full again. */
export class GmailHistoryGoneError extends Error {}

const TIMEOUT_MS = 15_000;

export interface GoogleTokens {
  accessToken: string;
  /** Present on the first exchange (offline access, consent prompt); refreshes may omit it. */
  refreshToken: string | null;
  expiresAt: Date;
  scopes: string[];
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A random URL-safe string of `bytes` random bytes (state, PKCE verifier). */
export function randomToken(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** PKCE S256: base64url(SHA-256(verifier)). */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function authorizationUrl(config: EmailImportConfig, state: string, challenge: string): string {
  const url = new URL(`${config.accountsUrl}/o/oauth2/v2/auth`);
  url.search = new URLSearchParams({
    client_id: config.googleClientId ?? '',
    redirect_uri: config.redirectUri,
    response_type: 'code',
    scope: GMAIL_READONLY_SCOPE,
    access_type: 'offline',
    // a refresh token is only issued on consent; asking again also covers a re-connection
    prompt: 'consent',
    include_granted_scopes: 'false',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new GoogleUnavailableError(`Google could not be reached (${(error as Error).name})`);
  }
}

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  error?: string;
}

async function tokenRequest(config: EmailImportConfig, form: Record<string, string>): Promise<GoogleTokens> {
  const res = await call(`${config.oauth2Url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: config.googleClientId ?? '',
      client_secret: config.googleClientSecret ?? '',
      ...form,
    }).toString(),
  });
  let body: TokenAnswer = {};
  try {
    body = (await res.json()) as TokenAnswer;
  } catch {
    // unreadable: judged by the status below
  }
  if (res.status === 400 || res.status === 401) {
    throw new GoogleGrantError(`Google refused the grant (${body.error ?? res.status})`);
  }
  if (!res.ok || !body.access_token) throw new GoogleUnavailableError(`Google's token endpoint answered ${res.status}`);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? null,
    expiresAt: new Date(Date.now() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000),
    scopes: (body.scope ?? '').split(/\s+/).filter(Boolean),
  };
}

export function exchangeCode(config: EmailImportConfig, code: string, verifier: string): Promise<GoogleTokens> {
  return tokenRequest(config, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: config.redirectUri,
  });
}

export function refreshAccessToken(config: EmailImportConfig, refreshToken: string): Promise<GoogleTokens> {
  return tokenRequest(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Revokes a token (and with a refresh token, the whole grant). False when Google did not confirm. */
export async function revokeToken(config: EmailImportConfig, token: string): Promise<boolean> {
  try {
    const res = await call(`${config.oauth2Url}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    await res.body?.cancel();
    // 400 invalid_token: already revoked or expired, which is what we wanted
    return res.ok || res.status === 400;
  } catch {
    return false;
  }
}

// ---- Gmail ----------------------------------------------------------------------------------

function retryAtOf(res: Response): Date {
  const header = res.headers.get('retry-after');
  const seconds = header && /^\d+$/.test(header) ? Number(header) : null;
  const at = header && seconds === null ? Date.parse(header) : NaN;
  if (seconds !== null) return new Date(Date.now() + Math.min(seconds, 3600) * 1000);
  if (!Number.isNaN(at)) return new Date(Math.min(at, Date.now() + 3600_000));
  return new Date(Date.now() + 60_000);
}

async function gmail<T>(config: EmailImportConfig, accessToken: string, path: string): Promise<T> {
  const res = await call(`${config.gmailApiUrl}/gmail/v1/users/me/${path}`, {
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

export function gmailProfile(config: EmailImportConfig, accessToken: string): Promise<GmailProfile> {
  return gmail<GmailProfile>(config, accessToken, 'profile');
}

/** Message ids matching `query`, newest first (Gmail's order), at most `max`. */
export async function gmailSearch(
  config: EmailImportConfig,
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
  config: EmailImportConfig,
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
export async function gmailRawMessage(config: EmailImportConfig, accessToken: string, id: string): Promise<Uint8Array> {
  const message = await gmail<{ raw?: string }>(config, accessToken, `messages/${encodeURIComponent(id)}?format=raw`);
  if (!message.raw) throw new GoogleUnavailableError('Gmail sent a message without its raw form');
  const normal = message.raw.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

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
