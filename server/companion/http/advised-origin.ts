/**
 * A refused origin is named in an operator's log line beside the advice to allow it: the one
 * part of that line the requester chose. So it is named only when it is one origin as a browser
 * sends it — `scheme://host[:port]` exactly as URL serialises it, a host of DNS letters within a
 * DNS name's length, or `null` — and otherwise said to be NOT_AN_ORIGIN without being echoed.
 * WHATWG URL takes a comma in a host (`https://a.example,evil.example` is its own origin), and
 * PAYFORM_ALLOWED_ORIGINS splits on commas: named, that text would have the operator allow
 * evil.example.
 */

export const NOT_AN_ORIGIN = 'an origin that is not one';

/** Longest host a DNS name can be (RFC 1035), the bound on what a log line repeats. */
const HOST_MAX = 253;
/** Letters, digits, hyphens, dots (punycode for the rest), `_` in container names; or an IPv6 literal. */
const PLAIN_HOST = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])$/;

/** `value` when an advice may name it, else undefined. */
export function originToName(value: string): string | undefined {
  if (value === 'null') return value;
  if (value.length > 'https://'.length + HOST_MAX + ':65535'.length) return undefined;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value) return undefined;
  return url.hostname.length <= HOST_MAX && PLAIN_HOST.test(url.hostname) ? value : undefined;
}
