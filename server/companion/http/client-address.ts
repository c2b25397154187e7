/**
 * The customer's IP address, for `customer_ip`, the 3-D Secure `browserIpAddress`, the per-client
 * rate limits and the card-testing cool-down: the socket's peer (or the address a host without
 * Node sockets passes as `clientAddress`), or — when that peer is a proxy the companion trusts
 * (proxy-trust.ts), or unknown under a host that passes none — the one X-Forwarded-For names:
 * its last entry that is not a trusted proxy too, so a balancer in front of nginx is looked
 * through. Entries before it are whatever the client claimed, and are never read.
 */
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';
import { isPrivate } from './proxy-trust.js';
import type { ProxyTrust } from './proxy-trust.js';

export { isPrivate };

/** `trustProxy` as the companion holds it: false, or which peers it trusts. */
export type TrustProxy = false | ProxyTrust;

export function clientAddress(c: Context<CompanionEnv>, trust: TrustProxy): string | undefined {
  const peer = peerAddress(c);
  if (!trust) return peer;
  // No peer and no socket: a host without sockets (a platform's function behind its own edge)
  // told none, and the header is the only word on the client there is. A socket without a peer
  // is a client gone (a reset): its header is its own word.
  if (peer === undefined ? c.env?.incoming !== undefined : !trust.trusts(peer)) return peer;
  const forwarded = c.req.header('x-forwarded-for');
  if (!forwarded) return peer;
  const walk = forwardedClient(forwarded, trust);
  if (walk.unreadable !== undefined) noteUnreadable(c, walk.unreadable, walk.client ?? peer);
  else if (walk.onlyProxies) noteOnlyProxies(c, walk.client!);
  return walk.client ?? peer;
}

const toldUnreadable = new WeakSet<object>();
const toldOnlyProxies = new WeakSet<object>();

/**
 * Said once: the header, past the addresses proxies of the operator's vouch for, held what is no
 * address (`unknown`, a host name), written by the client or a proxy not trusted: the last
 * address vouched for stands in for the client — every customer, if a proxy writes none.
 */
function noteUnreadable(c: Context<CompanionEnv>, entry: string, taken: string | undefined): void {
  const services = c.get('services');
  if (toldUnreadable.has(services)) return;
  toldUnreadable.add(services);
  services.logger.warn(
    `X-Forwarded-For holds ${JSON.stringify(entry.slice(0, 64))}, no address, before the addresses proxies you trust vouch for: ${taken ?? 'the proxy'} is taken for the client. ` +
      "Written by the client, it is harmless; if every customer is taken for one address, a proxy of yours writes no address (nginx: $proxy_add_x_forwarded_for)",
  );
}

/**
 * Said once: the header named proxies the operator trusts and nothing else, so the first stands
 * in for the client: a customer on a private network, or a proxy of the operator's that
 * overwrote the header (nginx's `$remote_addr`) — then every customer is that one address, for
 * the gateway, the pay limits and the card-testing cool-down.
 */
function noteOnlyProxies(c: Context<CompanionEnv>, first: string): void {
  const services = c.get('services');
  if (toldOnlyProxies.has(services)) return;
  toldOnlyProxies.add(services);
  services.logger.warn(
    `X-Forwarded-For named only addresses PAYFORM_TRUST_PROXY trusts: the first, ${first}, is taken for the client. If that is a proxy of yours, ` +
      'one after it overwrites the header instead of appending to it (nginx: $proxy_add_x_forwarded_for, not $remote_addr), or it is not listed beside the others of the chain, and every customer counts as it',
  );
}

/** The socket's peer, plain; without a Node socket, the address the host passed. */
export function peerAddress(c: Context<CompanionEnv>): string | undefined {
  const incoming = c.env?.incoming;
  const peer = incoming ? incoming.socket?.remoteAddress : c.env?.clientAddress;
  return peer ? plain(peer) : undefined;
}

/**
 * Whether the client closed its connection before its address was read (a reset right after
 * sending): no answer reaches it, and it cannot be counted as any client, so its attempt is not
 * made. A Unix socket's peer has no address, and is open.
 */
export const clientGone = (c: Context<CompanionEnv>): boolean => c.env?.incoming?.socket?.destroyed === true && c.env.incoming.socket.remoteAddress === undefined;

/**
 * The client X-Forwarded-For names, read from its end: the first entry that is not a trusted
 * proxy, or the last trusted one before an entry that is no address (`unreadable`: what stands
 * before it was not written by a proxy of ours); the first entry when every one is trusted
 * (`onlyProxies`).
 */
function forwardedClient(header: string, trust: ProxyTrust): { readonly client: string | undefined; readonly unreadable?: string; readonly onlyProxies?: boolean } {
  const entries = header.split(',');
  let nearest: string | undefined;
  for (let at = entries.length - 1; at >= 0; at -= 1) {
    const entry = entries[at]!.trim();
    const address = plain(withoutPort(entry));
    if (address === undefined) return { client: nearest, unreadable: entry };
    if (!trust.trusts(address)) return { client: address };
    nearest = address;
  }
  return { client: nearest, onlyProxies: nearest !== undefined };
}

/** An entry as some proxies write it: `203.0.113.5:41234`, `[2001:db8::1]:443`, `[2001:db8::1]`. */
function withoutPort(entry: string): string {
  if (entry.startsWith('[')) return entry.slice(1, entry.indexOf(']') >>> 0);
  const colon = entry.indexOf(':');
  return colon > 0 && colon === entry.lastIndexOf(':') ? entry.slice(0, colon) : entry;
}

/**
 * What a client's rate limit line adds when the request came through a proxy the companion does
 * not trust: every customer then counts as the proxy, and the first busy minute limits them all.
 */
export function untrustedProxy(c: Context<CompanionEnv>, trust: TrustProxy): { readonly fix?: string } {
  // Any client can send the header: only a peer on this machine or a private network can be the
  // operator's own proxy, and only then is trusting it the advice.
  if (trust || c.req.header('x-forwarded-for') === undefined) return NO_FIX;
  const peer = peerAddress(c);
  return peer !== undefined && isPrivate(peer) ? TRUST_IT : NO_FIX;
}

// Shared: every pay request asks (pay-limits.ts), and most have nothing to add.
const NO_FIX: { readonly fix?: string } = Object.freeze({});
const TRUST_IT = Object.freeze({ fix: 'the requests carry X-Forwarded-For: behind your own proxy, set PAYFORM_TRUST_PROXY=true, or every customer counts as that proxy' });

/**
 * An address as the gateway and the limits take it, or undefined when it is none a client can
 * have. An IPv4 peer on a dual-stack socket shows as an IPv4-mapped IPv6 address, in any of its
 * spellings (`::ffff:192.0.2.1`, `::ffff:c000:201`, `0:0:0:0:0:ffff:…`): the gateway wants
 * 192.0.2.1, and the limits must count it as that. A zone (`%eth0`) names this machine's
 * interface, not the client; the unspecified address (`::`, `0.0.0.0`) is nobody's.
 */
function plain(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4) return address === '0.0.0.0' ? undefined : address;
  if (version === 0) return undefined;
  const groups = ipv6Groups(address);
  if (groups.every((group) => group === 0)) return undefined;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return plain(`${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`);
  const zone = address.indexOf('%');
  return zone < 0 ? address : address.slice(0, zone);
}

/** An IPv6 address's eight 16-bit groups, `::` filled and an IPv4 tail (`64:ff9b::192.0.2.1`) read as two. */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.replace(/%.*$/, '').split('::');
  const read = (part: string) =>
    part
      ? part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [a * 256 + b, c * 256 + d];
        })
      : [];
  const before = read(head);
  if (tail === undefined) return before;
  const after = read(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The key of clients whose address the host did not pass (a fetch handler without `clientAddress`). */
export const UNKNOWN_CLIENT = 'unknown';

/** The key the per-client limits count under: the client's network, or UNKNOWN_CLIENT. */
export function clientKey(c: Context<CompanionEnv>, trust: TrustProxy): string {
  const address = clientAddress(c, trust);
  return address === undefined ? UNKNOWN_CLIENT : clientNetwork(address);
}

/**
 * What the per-client limits count: an IPv4 address as it is, an IPv6 one by its /64 — one
 * subscriber is usually given a whole /64 and could otherwise change address every request.
 * Written `a:b:c:d::/64`, each group without its leading zeros (wideNetwork reads it so).
 */
export function clientNetwork(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${ipv6Groups(address).slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * The /48 of an IPv6 client's network (`a:b:c::/48` of clientNetwork's `a:b:c:d::/64`), counted
 * too with a higher allowance: a site is often given a /48, and could otherwise pay from a new
 * /64 every few attempts. Undefined for an IPv4 address.
 */
export function wideNetwork(network: string): string | undefined {
  if (!network.endsWith('::/64')) return undefined;
  const third = network.indexOf(':', network.indexOf(':', network.indexOf(':') + 1) + 1);
  return `${network.slice(0, third)}::/48`;
}
