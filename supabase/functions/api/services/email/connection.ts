// The traveller's mailbox connection: Gmail through OAuth (authorization code with PKCE and a
// one-time state bound to the session that asked and finished by that session's own call), the
// local sample mailbox, disconnecting, the connection's state and scan progress, and the private
// forwarding address. No transaction is held across a call to Google.
import {
  CONNECT_EMAIL_PATH,
  type EmailConnectDevResponse,
  type EmailConnection,
  type EmailConnectResponse,
  type EmailDisconnectResponse,
  type EmailScanResponse,
  GMAIL_READONLY_SCOPE,
  type ManualTokenExchangeResponse,
  type OAuthConfigResponse,
  type OAuthExchangeResponse,
  type OAuthReturnError,
} from '../../../_shared/types/email.ts';
import type { Config } from '../../config.ts';
import type { AppDeps } from '../../context.ts';
import type { AuthClaims } from '../../db.ts';
import { HttpError } from '../../errors.ts';
import {
  connectionOf,
  deleteConnection,
  forwardingToken,
  insertOAuthAttempt,
  latestScan,
  openScan,
  saveGmailConnection,
  saveSampleConnection,
  takeLatestOAuthAttempt,
  takeOAuthAttempt,
} from '../../queries/email.ts';
import { gmailProfile } from '../../../_shared/mailbox/gmail.ts';
import { authorizationUrl, codeChallenge, exchangeCode, revokeToken } from '../../../_shared/mailbox/google.ts';
import { GoogleGrantError, type GoogleTokens } from '../../../_shared/mailbox/types.ts';
import { randomToken } from '../../../_shared/base64url.ts';
import { sha256Hex } from '../../../_shared/sha256.ts';
import { kickScans } from './scan.ts';
import { createTokenCipher } from './token-crypto.ts';

export const EMAIL_MESSAGES = {
  configurationError: 'Gmail OAuth configuration error',
  devUnavailable: 'The development mailbox is not available on this server.',
  noOpenAttempt: 'Start the Gmail connection again: the authorization has expired.',
  attemptNotYours:
    'This Gmail authorization was not started in this browser session, or it has expired. Start the connection again.',
  accountGone: 'Your account was not found. Please sign in again.',
  codeRefused: 'Google did not accept this authorization code. Start the connection again.',
  googleUnavailable: 'Google could not be reached. Please try again in a moment.',
  connected: 'Email connected successfully',
  sampleConnected: 'Connected the sample mailbox. FareBack is scanning it for flights.',
  sampleDisconnected: 'Disconnected the sample mailbox.',
  disconnected: 'Email disconnected. FareBack no longer reads your inbox; flights already found stay.',
  notConnected: 'No email is connected.',
  connectFirst: 'Connect your email first.',
  scanQueued: 'Scanning your inbox for flights.',
  scanRunning: 'A scan is already under way.',
} as const;

/** The address of the sample mailbox's owner, shown as the connected account. */
export const SAMPLE_MAILBOX_ADDRESS = 'sample-mailbox@fareback.test';

/** Thrown by connect when Google credentials are missing: answered 503 `{message, details}`. */
export class EmailConfigError extends Error {
  constructor(readonly details: string) {
    super(EMAIL_MESSAGES.configurationError);
  }
}

function missingSettings(config: Config): string[] {
  const missing: string[] = [];
  if (!config.email.googleClientId) missing.push('GOOGLE_CLIENT_ID');
  if (!config.email.googleClientSecret) missing.push('GOOGLE_CLIENT_SECRET');
  if (!config.email.tokenKey) missing.push('EMAIL_TOKEN_KEY');
  return missing;
}

function configError(config: Config): EmailConfigError {
  const missing = missingSettings(config);
  const advice = config.email.devMailbox ? ' Use Toggle Email (Dev) to connect the sample mailbox instead.' : '';
  return new EmailConfigError(
    `Gmail is not set up on this server: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.${advice}`,
  );
}

export function oauthConfig(config: Config): OAuthConfigResponse {
  return {
    redirectUri: config.email.redirectUri,
    clientIdAvailable: config.email.googleClientId !== null,
    clientSecretAvailable: config.email.googleClientSecret !== null,
    scopes: [GMAIL_READONLY_SCOPE],
    devConnectAvailable: config.email.devMailbox,
  };
}

export async function startConnect(deps: AppDeps, claims: AuthClaims): Promise<EmailConnectResponse> {
  if (missingSettings(deps.config).length > 0) throw configError(deps.config);
  const state = randomToken(32);
  const verifier = randomToken(48);
  const stateHash = await sha256Hex(state);
  await deps.db.asService((tx) =>
    insertOAuthAttempt(tx, { userId: claims.sub, sessionId: String(claims.session_id ?? ''), stateHash, verifier }),
  );
  return { authUrl: authorizationUrl(deps.config.email, state, await codeChallenge(verifier)) };
}

/** Stores a new grant's tokens (encrypted) with the Gmail address, and queues the first scan. */
async function storeGrant(deps: AppDeps, userId: string, tokens: GoogleTokens): Promise<void> {
  const cipher = await createTokenCipher(deps.config.email.tokenKey ?? '');
  const accountEmail = await gmailProfile(deps.config.email, tokens.accessToken)
    .then((p) => p.emailAddress)
    .catch(() => null);
  const access = await cipher.encrypt(tokens.accessToken, userId);
  const refresh = tokens.refreshToken ? await cipher.encrypt(tokens.refreshToken, userId) : null;
  await deps.db.asService(async (tx) => {
    await saveGmailConnection(tx, {
      userId,
      accountEmail,
      accessToken: access,
      refreshToken: refresh,
      expiresAt: tokens.expiresAt,
      scopes: tokens.scopes.length > 0 ? tokens.scopes : [GMAIL_READONLY_SCOPE],
    });
    await openScan(tx, userId, 'gmail');
  });
  kickScans(deps);
}

/**
 * `GET /oauth2callback`: where Google returns the browser. It does not connect anything itself:
 * it sends the browser on to the site's `/connect-email` page with the `code` and `state`, and
 * that page finishes the connection under its own session (`finishConnect`). So a code only
 * connects the account of the session that started the attempt, in the browser that started it:
 * an attacker's connect link consented to in a victim's browser lands under the victim's session,
 * which does not hold the attempt (issue 21, finding 4). A cookie set by `connect` could not do
 * this on a deployment: there `connect` is a cross-site fetch to the functions origin, where a
 * SameSite=Lax cookie is not stored, and the callback is on the site's origin anyway
 * (docs/architecture.md, "How email import works").
 */
export function oauthCallbackRedirect(
  siteUrl: string,
  query: { code?: string; state?: string; error?: string },
): string {
  const params = new URLSearchParams();
  if (query.error) params.set('error', 'oauth_failed');
  else if (!query.code || !query.state || query.code.length > 2048 || query.state.length > 256) {
    params.set('error', 'oauth_invalid');
  } else {
    params.set('code', query.code);
    params.set('state', query.state);
  }
  return `${siteUrl}${CONNECT_EMAIL_PATH}?${params}`;
}

/** A refused `POST /api/email/oauth-exchange`: answered `{message, error}`. */
export class OAuthExchangeError extends Error {
  constructor(
    readonly status: 400 | 503,
    readonly code: OAuthReturnError,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `POST /api/email/oauth-exchange`: spends the attempt of this state only when the caller's own
 * session started it, then exchanges the code with its verifier and stores the grant.
 */
export async function finishConnect(
  deps: AppDeps,
  claims: AuthClaims,
  input: { code: string; state: string },
): Promise<OAuthExchangeResponse> {
  if (missingSettings(deps.config).length > 0) {
    throw new OAuthExchangeError(503, 'oauth_failed', configError(deps.config).details);
  }
  const stateHash = await sha256Hex(input.state);
  const verifier = await deps.db.asService((tx) =>
    takeOAuthAttempt(tx, { stateHash, userId: claims.sub, sessionId: String(claims.session_id ?? '') }),
  );
  if (!verifier) throw new OAuthExchangeError(400, 'oauth_invalid', EMAIL_MESSAGES.attemptNotYours);
  let tokens: GoogleTokens;
  try {
    tokens = await exchangeCode(deps.config.email, input.code, verifier);
  } catch (error) {
    deps.log({ level: 'warn', msg: 'oauth code exchange failed', error: (error as Error).message });
    if (error instanceof GoogleGrantError) {
      throw new OAuthExchangeError(400, 'oauth_token_failed', EMAIL_MESSAGES.codeRefused);
    }
    throw new OAuthExchangeError(503, 'oauth_token_failed', EMAIL_MESSAGES.googleUnavailable);
  }
  try {
    await storeGrant(deps, claims.sub, tokens);
  } catch (error) {
    // the account went while Google was asked
    if ((error as { code?: string }).code === '23503') {
      throw new OAuthExchangeError(400, 'user_not_found', EMAIL_MESSAGES.accountGone);
    }
    throw error;
  }
  return { message: EMAIL_MESSAGES.connected, connection: await connectionView(deps, claims) };
}

export async function manualTokenExchange(
  deps: AppDeps,
  claims: AuthClaims,
  code: string,
): Promise<ManualTokenExchangeResponse> {
  if (missingSettings(deps.config).length > 0) {
    throw new HttpError(503, configError(deps.config).details);
  }
  const verifier = await deps.db.asService((tx) =>
    takeLatestOAuthAttempt(tx, claims.sub, String(claims.session_id ?? '')),
  );
  if (!verifier) throw new HttpError(400, EMAIL_MESSAGES.noOpenAttempt);
  let tokens: GoogleTokens;
  try {
    tokens = await exchangeCode(deps.config.email, code, verifier);
  } catch (error) {
    if (error instanceof GoogleGrantError) throw new HttpError(400, EMAIL_MESSAGES.codeRefused);
    throw new HttpError(503, EMAIL_MESSAGES.googleUnavailable);
  }
  await storeGrant(deps, claims.sub, tokens);
  return { message: EMAIL_MESSAGES.connected, connection: await connectionView(deps, claims) };
}

/** A connection as deleteConnection removed it: the provider and its tokens, still encrypted. */
export type RemovedConnection = NonNullable<Awaited<ReturnType<typeof deleteConnection>>>;

/** Deletes the connection, then revokes its grant at Google (best effort: the tokens are gone here). */
async function removeConnection(deps: AppDeps, userId: string): Promise<boolean> {
  const removed = await deps.db.asService((tx) => deleteConnection(tx, userId));
  if (!removed) return false;
  await revokeRemovedGrant(deps, userId, removed);
  return true;
}

/**
 * Revokes at Google the grant of a connection already deleted here, through the mailbox adapter;
 * failures are logged (the tokens are gone from FareBack either way).
 */
export async function revokeRemovedGrant(deps: AppDeps, userId: string, removed: RemovedConnection): Promise<void> {
  const token = removed.refreshToken ?? removed.accessToken;
  if (removed.provider === 'gmail' && token && deps.config.email.tokenKey) {
    try {
      const cipher = await createTokenCipher(deps.config.email.tokenKey);
      const revoked = await revokeToken(deps.config.email, await cipher.decrypt(token, userId));
      if (!revoked) deps.log({ level: 'warn', msg: 'gmail token revocation not confirmed', userId });
    } catch (error) {
      deps.log({ level: 'warn', msg: 'gmail token revocation failed', userId, error: (error as Error).message });
    }
  }
}

export async function disconnect(deps: AppDeps, claims: AuthClaims): Promise<EmailDisconnectResponse> {
  const removed = await removeConnection(deps, claims.sub);
  return { message: removed ? EMAIL_MESSAGES.disconnected : EMAIL_MESSAGES.notConnected };
}

export async function connectDev(deps: AppDeps, claims: AuthClaims): Promise<EmailConnectDevResponse> {
  if (!deps.config.email.devMailbox) throw new HttpError(404, EMAIL_MESSAGES.devUnavailable);
  const current = await deps.db.asUser(claims, (tx) => connectionOf(tx, claims.sub));
  if (current.state === 'connected') {
    await removeConnection(deps, claims.sub);
    return { message: EMAIL_MESSAGES.sampleDisconnected, emailConnected: false };
  }
  await deps.db.asService(async (tx) => {
    await saveSampleConnection(tx, claims.sub, SAMPLE_MAILBOX_ADDRESS);
    await openScan(tx, claims.sub, 'sample');
  });
  kickScans(deps);
  return { message: EMAIL_MESSAGES.sampleConnected, emailConnected: true };
}

export function forwardingAddress(domain: string, token: string): string {
  return `trips+${token}@${domain}`;
}

/** A forwarding token: 20 characters of a-z0-9 (about 103 bits). */
export function newForwardingToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (b) => alphabet[b % 36]).join('');
}

export async function connectionView(deps: AppDeps, claims: AuthClaims): Promise<EmailConnection> {
  const domain = deps.config.email.inboundDomain;
  const token = domain ? await deps.db.asService((tx) => forwardingToken(tx, claims.sub, newForwardingToken())) : null;
  return await deps.db.asUser(claims, async (tx) => {
    const connection = await connectionOf(tx, claims.sub);
    const scan = await latestScan(tx, claims.sub);
    return {
      ...connection,
      scan,
      forwardingAddress: domain && token ? forwardingAddress(domain, token) : null,
    };
  });
}

export async function requestScan(deps: AppDeps, claims: AuthClaims): Promise<EmailScanResponse> {
  const current = await deps.db.asUser(claims, (tx) => connectionOf(tx, claims.sub));
  if (current.state !== 'connected' || !current.provider) throw new HttpError(409, EMAIL_MESSAGES.connectFirst);
  const provider = current.provider;
  const { created } = await deps.db.asService((tx) => openScan(tx, claims.sub, provider));
  kickScans(deps);
  const scan = await deps.db.asUser(claims, (tx) => latestScan(tx, claims.sub));
  if (!scan) throw new Error('scan not found after opening it');
  return { message: created ? EMAIL_MESSAGES.scanQueued : EMAIL_MESSAGES.scanRunning, scan };
}
