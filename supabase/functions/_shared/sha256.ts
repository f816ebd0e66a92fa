// SHA-256 of a text's UTF-8 bytes, computed here only: tokens and OAuth states stored as their
// hash, ids derived from a key (an inbound email, a test payment), PKCE challenges, and secrets
// compared without leaking how close a guess came.
const encoder = new TextEncoder();

export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** The digest as lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  return Array.from(await sha256(text), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
