// Google's OAuth 2.0 for the Gmail connection: the authorization URL (authorization code with
// PKCE S256, offline access, read-only Gmail), the code exchange, refreshes and revocation, at
// the configured base URLs (tests run the real flow against the local stand-in, dev/google).
//
// How it fails: every request has a 15 s timeout. A 400/401 from the token endpoint is
// GoogleGrantError (the code or the refresh token is no good: the traveller connects again); no
// answer, a timeout, or any other answer without a token is GoogleUnavailableError. Revocation
// never throws: it answers whether Google confirmed. No token or message body is ever logged or
// thrown.
import { GMAIL_READONLY_SCOPE } from '../types/email.ts';
import { type GoogleConfig, GoogleGrantError, type GoogleTokens, GoogleUnavailableError } from './types.ts';

const TIMEOUT_MS = 15_000;

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

export function authorizationUrl(config: GoogleConfig, state: string, challenge: string): string {
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

/** A request to Google with the timeout; no answer at all is GoogleUnavailableError. */
export async function callGoogle(url: string, init: RequestInit): Promise<Response> {
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

async function tokenRequest(config: GoogleConfig, form: Record<string, string>): Promise<GoogleTokens> {
  const res = await callGoogle(`${config.oauth2Url}/token`, {
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

export function exchangeCode(config: GoogleConfig, code: string, verifier: string): Promise<GoogleTokens> {
  return tokenRequest(config, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: config.redirectUri,
  });
}

export function refreshAccessToken(config: GoogleConfig, refreshToken: string): Promise<GoogleTokens> {
  return tokenRequest(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Revokes a token (and with a refresh token, the whole grant). False when Google did not confirm. */
export async function revokeToken(config: GoogleConfig, token: string): Promise<boolean> {
  try {
    const res = await callGoogle(`${config.oauth2Url}/revoke`, {
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
