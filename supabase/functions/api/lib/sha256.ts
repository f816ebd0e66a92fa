// A text's SHA-256 as lowercase hex: how an OAuth state is stored, and an inbound email's id when
// it has no Message-ID.
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
