// The stored Gmail tokens, encrypted with AES-256-GCM through WebCrypto. The key is
// EMAIL_TOKEN_KEY (32 random bytes, base64; on Supabase a function secret), never in the database.
// Stored form: `v1.<iv base64url>.<ciphertext+tag base64url>`, a fresh 96-bit IV each time; the
// user id is the additional data, so a token copied to another account's row does not decrypt.
import { fromBase64Url, toBase64Url } from '../../../_shared/base64url.ts';

const VERSION = 'v1';

export class TokenKeyError extends Error {}

export interface TokenCipher {
  encrypt(plain: string, userId: string): Promise<string>;
  decrypt(stored: string, userId: string): Promise<string>;
}

export async function createTokenCipher(keyBase64: string): Promise<TokenCipher> {
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = fromBase64Url(keyBase64.trim());
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
        { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: encoder.encode(userId) },
        key,
        fromBase64Url(sealed),
      );
      return new TextDecoder().decode(plain);
    },
  };
}
