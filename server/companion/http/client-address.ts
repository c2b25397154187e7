/**
 * The customer's IP address, for `customer_ip`, the 3-D Secure `browserIpAddress` and the
 * per-client rate limit: the socket's peer (or the address a host without Node sockets passes as
 * `clientAddress`), or — only when the companion is told it sits behind
 * one trusted proxy — the last address of X-Forwarded-For, the one that proxy saw (earlier
 * entries are whatever the client claimed).
 */
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';

export function clientAddress(c: Context<CompanionEnv>, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    const address = forwarded && plain(forwarded);
    if (address) return address;
  }
  const peer = c.env?.incoming?.socket?.remoteAddress ?? c.env?.clientAddress;
  return peer ? plain(peer) : undefined;
}

/**
 * What a client's rate limit line adds when the request came through a proxy the companion does
 * not trust: every customer then counts as the proxy, and the first busy minute limits them all.
 */
export function untrustedProxy(c: Context<CompanionEnv>, trustProxy: boolean): { readonly fix?: string } {
  // Any client can send the header: only a peer on this machine or a private network can be the
  // operator's own proxy, and only then is trusting it the advice.
  if (trustProxy || c.req.header('x-forwarded-for') === undefined) return NO_FIX;
  const peer = clientAddress(c, false);
  return peer !== undefined && isPrivate(peer) ? TRUST_IT : NO_FIX;
}

// Shared: every pay request asks (pay-limits.ts), and most have nothing to add.
const NO_FIX: { readonly fix?: string } = Object.freeze({});
const TRUST_IT = Object.freeze({ fix: 'the requests carry X-Forwarded-For: behind your own proxy, set PAYFORM_TRUST_PROXY=true, or every customer counts as that proxy' });

/** Loopback, RFC 1918 and IPv6 unique-local or link-local addresses. */
export function isPrivate(address: string): boolean {
  return /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|f[cd][0-9a-f]{2}:|fe80:)/i.test(address);
}

// An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d; the gateway wants a.b.c.d.
function plain(address: string): string | undefined {
  const unmapped = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return isIP(unmapped) ? unmapped : undefined;
}

/** The key of clients whose address the host did not pass (a fetch handler without `clientAddress`). */
export const UNKNOWN_CLIENT = 'unknown';

/** The key the per-client limits count under: the client's network, or UNKNOWN_CLIENT. */
export function clientKey(c: Context<CompanionEnv>, trustProxy: boolean): string {
  const address = clientAddress(c, trustProxy);
  return address === undefined ? UNKNOWN_CLIENT : clientNetwork(address);
}

/**
 * What the per-client limits count: an IPv4 address as it is, an IPv6 one by its /64 — one
 * subscriber is usually given a whole /64 and could otherwise change address every request.
 * Written `a:b:c:d::/64`, each group without its leading zeros (wideNetwork reads it so).
 */
export function clientNetwork(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.replace(/%.*$/, '').split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const tailGroups = tail ? tail.split(':') : [];
    // An IPv4 tail (64:ff9b::192.0.2.1) fills two groups.
    const tailWidth = tailGroups.reduce((width, group) => width + (group.includes('.') ? 2 : 1), 0);
    groups.push(...Array<string>(8 - groups.length - tailWidth).fill('0'), ...tailGroups);
  }
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
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
