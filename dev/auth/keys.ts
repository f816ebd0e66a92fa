// The local project's signing key: one ES256 key pair, like a Supabase project's asymmetric JWT
// signing key. Access tokens, the anon key and the service-role key are all signed with it, and
// its public half is served as the JWKS the api function verifies against. Persisted as a JSON
// JWK so tokens survive a restart of `npm start`; tests keep a fresh key in memory.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JSONWebKeySet, type JWK } from 'jose';

export const SIGNING_ALG = 'ES256';

/** Issuer Supabase uses for the anon and service-role keys of local projects. */
const API_KEY_ISSUER = 'supabase-demo';
const API_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 60 * 60;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** Private JWK (with `d`), as persisted. */
  privateJwk: JWK;
  /** Public JWK with kid, alg and use, as published in the JWKS. */
  publicJwk: JWK;
}

async function fromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d || !jwk.x || !jwk.y || !jwk.kid) {
    throw new Error('signing key file must hold an EC P-256 private JWK with a kid');
  }
  const publicJwk: JWK = {
    kty: 'EC',
    crv: 'P-256',
    x: jwk.x,
    y: jwk.y,
    kid: jwk.kid,
    alg: SIGNING_ALG,
    use: 'sig',
  };
  const privateKey = await importJWK({ ...jwk, alg: SIGNING_ALG }, SIGNING_ALG);
  const publicKey = await importJWK(publicJwk, SIGNING_ALG);
  if (!(privateKey instanceof CryptoKey) || !(publicKey instanceof CryptoKey)) {
    throw new Error('unexpected key type from importJWK');
  }
  return { kid: jwk.kid, privateKey, publicKey, privateJwk: jwk, publicJwk };
}

async function createSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return fromPrivateJwk({ ...jwk, kid: randomUUID(), alg: SIGNING_ALG, use: 'sig' });
}

/**
 * Reads the key pair at `path`, creating (and saving) one when the file does not exist.
 * Without a path the key lives only in memory.
 */
export async function loadOrCreateSigningKey(path?: string): Promise<SigningKey> {
  if (!path) return createSigningKey();
  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) return fromPrivateJwk(JSON.parse(text) as JWK);

  const key = await createSigningKey();
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(key.privateJwk, null, 2) + '\n', { mode: 0o600 });
  return key;
}

/** A Supabase-style API key: a long-lived JWT whose only meaningful claim is the role. */
export async function mintApiKey(key: SigningKey, role: 'anon' | 'service_role'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role })
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(API_KEY_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + API_KEY_LIFETIME_SECONDS)
    .sign(key.privateKey);
}

/** The JWKS document served at /auth/v1/.well-known/jwks.json. */
export function publicJwks(key: SigningKey): JSONWebKeySet {
  return { keys: [{ ...key.publicJwk, key_ops: ['verify'] }] };
}
