/**
 * The client address and the proxy in front, said once per companion at the first payment, in
 * either direction the setting can be wrong:
 *
 * - PAYFORM_TRUST_PROXY=true, yet a payment came without X-Forwarded-For: nothing in front of the
 *   companion adds the header, so it arrives as any client wrote it — an address of its choosing
 *   sent to the gateway's fraud checks (`customer_ip`, 3-D Secure's `browserIpAddress`), and a new
 *   one at each request past the per-client pay limits. A proxy sets the header on every request
 *   it forwards, so behind one this is never said; without one, said once per companion.
 * - PAYFORM_TRUST_PROXY unset, yet a payment came with X-Forwarded-For from a peer on this
 *   machine or a private network: the operator's own proxy (nginx in front of the bin). Every
 *   customer then is that proxy — the gateway's fraud checks get its address, and the per-client
 *   pay limit becomes the whole shop's — which otherwise shows only once customers are refused 429.
 */
import type { Context } from 'hono';
import type { CompanionEnv, CompanionServices } from '../context.js';
import { clientAddress, untrustedProxy } from './client-address.js';

const told = new WeakSet<CompanionServices>();
const toldUntrusted = new WeakSet<CompanionServices>();

export function noteUnforwarded(c: Context<CompanionEnv>): void {
  const services = c.get('services');
  if (!services.options.trustProxy) return noteUntrustedProxy(c, services);
  if (told.has(services) || c.req.header('x-forwarded-for') !== undefined) return;
  told.add(services);
  services.logger.warn(
    `PAYFORM_TRUST_PROXY is on, but a payment came from ${clientAddress(c, false) ?? 'a client'} without X-Forwarded-For: nothing in front of the companion adds the header, ` +
      'so any client can send one and choose the address the gateway and the per-client pay limits see. Turn PAYFORM_TRUST_PROXY off, or have your proxy set X-Forwarded-For',
  );
}

function noteUntrustedProxy(c: Context<CompanionEnv>, services: CompanionServices): void {
  if (toldUntrusted.has(services) || untrustedProxy(c, false).fix === undefined) return;
  toldUntrusted.add(services);
  const proxy = clientAddress(c, false);
  const { perClient, windowMs } = services.options.rateLimits;
  services.logger.warn(
    `a payment came through a proxy (from ${proxy}, with X-Forwarded-For) while PAYFORM_TRUST_PROXY is off: every customer counts as ${proxy} — ` +
      `the gateway's fraud checks get it as the customer's IP address, and the per-client pay limit (${perClient} per ${windowMs / 1000} s) is the whole shop's, so customers are refused 429 once it is reached. ` +
      'Behind one proxy of yours that appends X-Forwarded-For, set PAYFORM_TRUST_PROXY=true (the trustProxy option)',
    { proxy },
  );
}
