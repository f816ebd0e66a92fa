// The caller's address as the platform's proxy reports it: the first x-forwarded-for entry, else
// x-real-ip. Only well-formed IPv4/IPv6 literals are returned, since the value is stored.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+(:(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})?$/i;

function normalise(candidate: string | undefined): string | null {
  if (!candidate) return null;
  let value = candidate.trim();
  // "[::1]:1234" and "1.2.3.4:5678" carry a port
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  if (IPV4.test(value)) return value;
  if (value.includes(':') && IPV6.test(value) && value.length <= 45) return value.toLowerCase();
  return null;
}

export function clientIp(headers: { get(name: string): string | null }): string | null {
  const forwarded = headers.get('x-forwarded-for');
  return normalise(forwarded?.split(',')[0]) ?? normalise(headers.get('x-real-ip') ?? undefined);
}
