/**
 * PAYFORM_TRUST_PROXY=true, yet a payment came without X-Forwarded-For: nothing in front of the
 * companion adds the header, so it arrives as any client wrote it — an address of its choosing
 * sent to the gateway's fraud checks (`customer_ip`, 3-D Secure's `browserIpAddress`), and a new
 * one at each request past the per-client pay limits. A proxy sets the header on every request
 * it forwards, so behind one this is never said; without one, said once per companion.
 */
import type { Context } from 'hono';
import type { CompanionEnv, CompanionServices } from '../context.js';
import { clientAddress } from './client-address.js';

const told = new WeakSet<CompanionServices>();

export function noteUnforwarded(c: Context<CompanionEnv>): void {
  const services = c.get('services');
  if (!services.options.trustProxy || told.has(services) || c.req.header('x-forwarded-for') !== undefined) return;
  told.add(services);
  services.logger.warn(
    `PAYFORM_TRUST_PROXY is on, but a payment came from ${clientAddress(c, false) ?? 'a client'} without X-Forwarded-For: nothing in front of the companion adds the header, ` +
      'so any client can send one and choose the address the gateway and the per-client pay limits see. Turn PAYFORM_TRUST_PROXY off, or have your proxy set X-Forwarded-For',
  );
}
