// The caller's address, as the proxies in front of the function saw it. Each proxy appends the
// address it received the request from to X-Forwarded-For, so the entries a client may write
// itself are on the left, and only the last `trustedHops` entries (TRUSTED_PROXY_HOPS, default 1:
// the platform's gateway) were written by proxies we trust. The client is the leftmost of those:
// `trustedHops` entries from the right. With fewer entries than that, every entry came from a
// trusted proxy and the leftmost is the client. Taking the first entry instead would let a client
// choose its own address (and a fresh one for every request it wants to escape a limit with).
// Only well-formed IPv4/IPv6 literals are returned, since the value is stored.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+(:(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})?$/i;
/** An IPv4 address in IPv6 form ("::ffff:127.0.0.1"), as Node's sockets report IPv4 peers. */
const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

function normalise(candidate: string | undefined): string | null {
  if (!candidate) return null;
  let value = candidate.trim();
  // "[::1]:1234" and "1.2.3.4:5678" carry a port
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  const mapped = IPV4_MAPPED.exec(value)?.[1];
  if (mapped && IPV4.test(mapped)) return mapped;
  if (IPV4.test(value)) return value;
  if (value.includes(':') && IPV6.test(value) && value.length <= 45) return value.toLowerCase();
  return null;
}

/**
 * The client address the trusted proxies report, or null when the request carries none (or the
 * entry at the trusted position is not an address).
 */
export function clientIp(headers: { get(name: string): string | null }, trustedHops = 1): string | null {
  const forwarded = headers.get('x-forwarded-for');
  if (!forwarded) return null;
  const entries = forwarded.split(',');
  const hops = Math.max(1, Math.floor(trustedHops));
  return normalise(entries[Math.max(0, entries.length - hops)]);
}
