/**
 * The client address and the proxy in front, said once per companion at the first payment that
 * shows the setting wrong, in each way it can be:
 *
 * - PAYFORM_TRUST_PROXY on, yet a payment came without X-Forwarded-For: nothing in front of the
 *   companion adds the header. Behind a proxy of the operator's that sends none, every customer
 *   is that proxy to the gateway's fraud checks (`customer_ip`, 3-D Secure's `browserIpAddress`)
 *   and to the per-client pay limits. A proxy sets the header on every request it forwards, so
 *   behind one that does this is never said.
 * - PAYFORM_TRUST_PROXY on, yet a payment came with X-Forwarded-For from a peer it does not trust
 *   (a public address it does not list): the header is ignored. A CDN's edge whose networks are
 *   not listed (every customer then counts as the edge), or a client reaching the companion
 *   around the proxy, choosing what the header says.
 * - PAYFORM_TRUST_PROXY unset, yet a payment came with X-Forwarded-For from a peer on this
 *   machine or a private network: the operator's own proxy (nginx in front of the bin). Every
 *   customer then is that proxy — the gateway's fraud checks get its address, and the per-client
 *   pay limit becomes the whole shop's — which otherwise shows only once customers are refused 429.
 */
import type { Context } from 'hono';
import type { CompanionEnv, CompanionServices } from '../context.js';
import { clientAddress, peerAddress, untrustedProxy } from './client-address.js';
import { PRIVATE_PROXIES } from './proxy-trust.js';
import type { ProxyTrust } from './proxy-trust.js';

const told = new WeakSet<CompanionServices>();
const toldUntrusted = new WeakSet<CompanionServices>();
const toldUnlisted = new WeakSet<CompanionServices>();

export function noteUnforwarded(c: Context<CompanionEnv>): void {
  const services = c.get('services');
  const trust = services.options.trustProxy;
  if (!trust) return noteUntrustedProxy(c, services);
  if (c.req.header('x-forwarded-for') !== undefined) return noteUnlistedProxy(c, services, trust);
  if (told.has(services)) return;
  told.add(services);
  const peer = peerAddress(c) ?? 'a client';
  services.logger.warn(
    `PAYFORM_TRUST_PROXY is on, but a payment came from ${peer} without X-Forwarded-For: nothing in front of the companion adds the header, ` +
      `so the gateway and the per-client pay limits take ${peer} for the customer — every customer, if it is a proxy. Turn PAYFORM_TRUST_PROXY off, or have your proxy set X-Forwarded-For`,
  );
}

function noteUnlistedProxy(c: Context<CompanionEnv>, services: CompanionServices, trust: ProxyTrust): void {
  if (toldUnlisted.has(services)) return;
  const peer = peerAddress(c);
  if (peer === undefined || trust.trusts(peer)) return;
  toldUnlisted.add(services);
  const trusted = trust.entries.map((entry) => (entry === PRIVATE_PROXIES ? 'proxies on this machine or a private network' : entry)).join(', ');
  // An error: behind a CDN's edges every customer now counts as an edge, the per-client limits
  // and the card-testing cool-down falling on all of them together.
  services.logger.error(
    `a payment came with X-Forwarded-For from ${peer}, a peer PAYFORM_TRUST_PROXY does not trust (${trusted}): ` +
      `the header is ignored and ${peer} is taken for the customer — every customer behind it, if it is a proxy. If it is one of yours (a CDN's edge, a cloud balancer with public addresses), ` +
      "list its networks, comma-separated: PAYFORM_TRUST_PROXY=private,203.0.113.0/24,… (the trustProxy option); if not, a client reaches the companion around your proxy: let only the proxy reach it",
    { proxy: peer },
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
