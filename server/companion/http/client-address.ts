/**
 * The customer's IP address, for `customer_ip`, the 3-D Secure `browserIpAddress` and the
 * per-client rate limit: the socket's peer, or — only when the companion is told it sits behind
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
  const peer = c.env?.incoming?.socket?.remoteAddress;
  return peer ? plain(peer) : undefined;
}

// An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d; the gateway wants a.b.c.d.
function plain(address: string): string | undefined {
  const unmapped = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return isIP(unmapped) ? unmapped : undefined;
}
