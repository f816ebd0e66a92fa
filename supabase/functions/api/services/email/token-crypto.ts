// The stored Gmail tokens, encrypted with AES-256-GCM through WebCrypto. The key is
// EMAIL_TOKEN_KEY (32 random bytes, base64; on Supabase a function secret), never in the database.
// Stored form: `v1.<iv base64url>.<ciphertext+tag base64url>`, a fresh 96-bit IV each time; the
// user id is the additional data, so a token copied to another account's row does not decrypt.
const VERSION = 'v1';

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const normal = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export class TokenKeyError extends Error {}

export interface TokenCipher {
  encrypt(plain: string, userId: string): Promise<string>;
  decrypt(stored: string, userId: string): Promise<string>;
}

export async function createTokenCipher(keyBase64: string): Promise<TokenCipher> {
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = fromBase64(keyBase64.trim());
  } catch {
    throw new TokenKeyError('EMAIL_TOKEN_KEY must be base64');
  }
  if (raw.length !== 32) throw new TokenKeyError('EMAIL_TOKEN_KEY must be 32 bytes (base64 of 32 random bytes)');
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  const encoder = new TextEncoder();
  return {
    async encrypt(plain, userId) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: encoder.encode(userId) },
        key,
        encoder.encode(plain),
      );
      return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
    },
    async decrypt(stored, userId) {
      const [version, iv, sealed] = stored.split('.');
      if (version !== VERSION || !iv || !sealed) throw new Error('not an encrypted token');
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64(iv), additionalData: encoder.encode(userId) },
        key,
        fromBase64(sealed),
      );
      return new TextDecoder().decode(plain);
    },
  };
}
