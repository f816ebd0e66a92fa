// Base64url (RFC 4648 section 5, unpadded), computed here only: tokens in links and OAuth states,
// PKCE challenges, sealed Gmail tokens, unsubscribe signatures, and Gmail's raw messages.

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Base64url or plain base64, padded or not; throws on anything else. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const normal = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** A random URL-safe string of `bytes` random bytes (link tokens, OAuth state, PKCE verifier). */
export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}
