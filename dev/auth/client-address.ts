// The client address the limits and sessions use. X-Forwarded-For is written left to right: the
// client may put anything in it, and each proxy appends the address it received the request from.
// So only the entries the trusted proxies appended count: with N trusted hops (TRUSTED_PROXY_HOPS,
// default 1: the gateway), the Nth entry from the right. Without the header, the socket's peer.
//
// A trusted server calling on a user's behalf (the api function) can name the user's address in
// Sb-Forwarded-For, as with Supabase Auth's "IP address forwarding": honoured only on requests that
// carry the service-role key (on Supabase: a secret key), since anyone could send the header.
import { isIP } from 'node:net';

export const SB_FORWARDED_FOR = 'sb-forwarded-for';

/** A literal IPv4/IPv6 address, IPv4-mapped IPv6 written as IPv4; otherwise null. */
export function normaliseAddress(value: string | undefined | null): string | null {
  let candidate = value?.trim() ?? '';
  if (candidate.startsWith('[') && candidate.includes(']')) candidate = candidate.slice(1, candidate.indexOf(']'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(candidate);
  if (mapped?.[1]) candidate = mapped[1];
  if (isIP(candidate) === 0) return null;
  return candidate.toLowerCase();
}

export interface AddressSources {
  forwardedFor: string | undefined;
  sbForwardedFor: string | undefined;
  /** The request authenticates with the service-role key. */
  trustedCaller: boolean;
  socketAddress: string | undefined;
}

export function clientAddress(sources: AddressSources, trustedHops: number): string | null {
  if (sources.trustedCaller && sources.sbForwardedFor) {
    const forwarded = normaliseAddress(sources.sbForwardedFor.split(',')[0]);
    if (forwarded) return forwarded;
  }
  const socket = normaliseAddress(sources.socketAddress);
  const entries = (sources.forwardedFor ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (trustedHops > 0 && entries.length > 0) {
    // Fewer entries than hops: the request came in behind fewer proxies, and the leftmost entry
    // is the one the outermost of them appended.
    const appended = entries[Math.max(0, entries.length - trustedHops)];
    return normaliseAddress(appended) ?? socket;
  }
  return socket;
}

/** TRUSTED_PROXY_HOPS as a whole number, default 1. */
export function trustedHopsFromEnv(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0) throw new Error(`TRUSTED_PROXY_HOPS must be a whole number, got "${value}"`);
  return hops;
}
