/**
 * Which peers may tell the companion the client's address (X-Forwarded-For): `trustProxy`. With
 * `true`, proxies on this machine or a private network — the operator's nginx, a cloud balancer
 * inside its network. A proxy with a public address (a CDN's edges) is trusted only when its
 * networks are listed: trusting any peer's header let a client that reaches the companion around
 * the proxy choose its own address, past the per-client limits and the card-testing cool-down.
 */
import { BlockList, isIP } from 'node:net';

// Loopback, RFC 1918, carrier-grade NAT (RFC 6598: a provider's own network, never a customer's
// address on the internet), IPv4 and IPv6 link-local, IPv6 unique-local.
const PRIVATE = /^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|169\.254\.|::1$|f[cd][\da-f]{2}:|fe[89ab][\da-f]:)/i;

/** Loopback and private addresses: this machine, a private network, a provider's NAT inside it. */
export const isPrivate = (address: string): boolean => PRIVATE.test(address);

/** A network as written in `trustProxy` (`203.0.113.0/24`, `2001:db8::/32`, or one address); undefined when it is none. */
export function parseNetwork(text: string): { readonly address: string; readonly prefix: number; readonly family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, extra] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return undefined;
  const longest = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? longest : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= longest)) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export class ProxyTrust {
  readonly #listed: BlockList | undefined;
  /** The networks listed besides the private ones, as written. */
  readonly networks: readonly string[];

  /** `networks`: the public networks of proxies of the operator's (checked: parseNetwork). */
  constructor(networks: readonly string[] = []) {
    this.networks = networks;
    if (networks.length === 0) return;
    this.#listed = new BlockList();
    for (const text of networks) {
      const network = parseNetwork(text);
      if (!network) throw new TypeError(`trustProxy: ${JSON.stringify(text)} is no address or network (203.0.113.0/24, 2001:db8::/32)`);
      this.#listed.addSubnet(network.address, network.prefix, network.family);
    }
  }

  /** Whether a request from `address` (a plain address: clientAddress's) may carry the client's. */
  trusts(address: string): boolean {
    if (isPrivate(address)) return true;
    return this.#listed !== undefined && this.#listed.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
  }
}
