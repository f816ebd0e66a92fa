// One-click unsubscribe without logging in. Every notification email carries a link (and the
// RFC 8058 List-Unsubscribe / List-Unsubscribe-Post headers) with a token naming the traveller
// and the kind to turn off, signed with HMAC-SHA256: nobody can make a token for another
// traveller or another kind. The key is UNSUBSCRIBE_SECRET, or, where it is not set, one derived
// from the service role key (also a secret the function always has); rotating either makes old
// links invalid, which costs a traveller one login to change the preference instead.
//
// Tokens do not expire: an unsubscribe link must keep working in an old email. What a token
// can do is only turn one kind of email off for one traveller, so a leaked one is harmless.
import { fromBase64Url, toBase64Url } from '../../_shared/base64url.ts';

export interface UnsubscribeClaims {
  userId: string;
  kind: string;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** An HMAC-SHA256 key for one purpose (a link of one kind), so a token of one kind never passes as another. */
export function hmacKey(secret: string, purpose = 'unsubscribe'): Promise<CryptoKey> {
  let key = keys.get(`${purpose}:${secret}`);
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      encoder.encode(`fareback-${purpose}:${secret}`),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(`${purpose}:${secret}`, key);
  }
  return key;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KIND = /^[a-z][a-z_]{0,49}$/;

/** `<userId>.<kind>.<signature>`, URL-safe. */
export async function signUnsubscribeToken(secret: string, claims: UnsubscribeClaims): Promise<string> {
  const payload = `${claims.userId}.${claims.kind}`;
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(payload));
  return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

/** The claims of a token this server signed; null for anything else. */
export async function verifyUnsubscribeToken(secret: string, token: string): Promise<UnsubscribeClaims | null> {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [userId, kind, signature] = parts as [string, string, string];
  if (!UUID.test(userId) || !KIND.test(kind)) return null;
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return null;
  const bytes = fromBase64Url(signature);
  const valid = await crypto.subtle.verify('HMAC', await hmacKey(secret), bytes, encoder.encode(`${userId}.${kind}`));
  return valid ? { userId, kind } : null;
}

/** The secret tokens are signed with (see the top of this file). */
export function unsubscribeSecret(config: { unsubscribeSecret: string | null; serviceRoleKey: string }): string {
  return config.unsubscribeSecret ?? `derived:${config.serviceRoleKey}`;
}

/** The web page a link opens (it asks for the click, then posts) and the one-click URL for the headers. */
export function unsubscribeLinks(
  config: { siteUrl: string; supabasePublicUrl: string },
  token: string,
): { page: string; oneClick: string } {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    page: `${config.siteUrl}/unsubscribe?${query}`,
    oneClick: `${config.supabasePublicUrl}/functions/v1/api/notifications/unsubscribe?${query}`,
  };
}
