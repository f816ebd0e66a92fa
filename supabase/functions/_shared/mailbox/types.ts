// What the inbox scan reads mail through, and how a mailbox fails. Implementations: the Gmail API
// (gmail.ts, with Google's OAuth in google.ts) and the repository's sample mailbox (sample.ts).

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

/** The OAuth client and Google's endpoints (the api's EmailImportConfig carries them). */
export interface GoogleConfig {
  /** GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET: the OAuth client (Google Cloud console, type Web). */
  googleClientId: string | null;
  googleClientSecret: string | null;
  /** GOOGLE_REDIRECT_URI (default `${SITE_URL}/oauth2callback`), registered with the client. */
  redirectUri: string;
  /**
   * Google's endpoints, as base URLs (tests point all three at the local stand-in,
   * dev/google): GOOGLE_ACCOUNTS_URL (authorization page, default https://accounts.google.com),
   * GOOGLE_OAUTH2_URL (token and revocation, https://oauth2.googleapis.com), GMAIL_API_URL
   * (https://gmail.googleapis.com).
   */
  accountsUrl: string;
  oauth2Url: string;
  gmailApiUrl: string;
}

export interface GoogleTokens {
  accessToken: string;
  /** Present on the first exchange (offline access, consent prompt); refreshes may omit it. */
  refreshToken: string | null;
  expiresAt: Date;
  scopes: string[];
}

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
