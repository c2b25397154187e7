/**
 * Which peers may tell the companion the client's address (X-Forwarded-For): `trustProxy`, a
 * list of `private` — proxies on this machine or a private network: the operator's nginx, a cloud
 * balancer inside its network — and the addresses or networks of proxies with public ones (a
 * CDN's edges); `true` is `private` alone. Trusting any peer's header let a client that reaches
 * the companion around the proxy choose its own address, past the per-client limits and the
 * card-testing cool-down; listing the networks without `private` trusts exactly those.
 */
import { BlockList, isIP } from 'node:net';

// Loopback, RFC 1918, carrier-grade NAT (RFC 6598: a provider's own network, never a customer's
// address on the internet), IPv4 and IPv6 link-local, IPv6 unique-local.
const PRIVATE = /^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|169\.254\.|::1$|f[cd][\da-f]{2}:|fe[89ab][\da-f]:)/i;

/** Loopback and private addresses: this machine, a private network, a provider's NAT inside it. */
export const isPrivate = (address: string): boolean => PRIVATE.test(address);

/** What `trustProxy` lists for every loopback and private address. */
export const PRIVATE_PROXIES = 'private';

/** A network as written in `trustProxy` (`203.0.113.0/24`, `2001:db8::/32`, or one address); undefined when it is none, or wider than a /8 (IPv6: /16). */
export function parseNetwork(text: string): { readonly address: string; readonly prefix: number; readonly family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, extra] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return undefined;
  const longest = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? longest : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  // Wider than a /8 (a /16 of IPv6) is no proxy's network: 0.0.0.0/0 would trust every peer.
  if (!(prefix >= (version === 4 ? 8 : 16) && prefix <= longest)) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** What is wrong with `text` as an entry of `trustProxy`'s list, said with the fix; undefined when it may stand there. */
export function proxyEntryProblem(text: string): string | undefined {
  const entry = text.trim();
  const quoted = JSON.stringify(entry);
  // A dual-stack socket's IPv4 peer is read as IPv4 (client-address.ts): a mapped network never matches.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)(?:\/(\d{1,3}))?$/i.exec(entry);
  if (mapped && isIP(mapped[1]!) === 4) return `${quoted} is an IPv4 address written as IPv6: write ${mapped[1]}${mapped[2] === undefined ? '' : `/${Number(mapped[2]) - 96}`}, as peers are compared`;
  if (entry === PRIVATE_PROXIES || parseNetwork(entry) !== undefined) return undefined;
  if (/^(true|yes|1)$/i.test(entry)) return `${quoted} stands alone: in a list, write private for proxies on this machine or a private network`;
  if (entry.toLowerCase() === PRIVATE_PROXIES) return `${quoted}: write private, in lower case`;
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return `${quoted} is no network: one prefix after one /`;
  const version = isIP(address);
  if (version !== 0 && prefix !== undefined && /^\d{1,3}$/.test(prefix)) {
    const widest = version === 4 ? 8 : 16;
    return Number(prefix) < widest
      ? `${quoted} is too wide: no proxy's network is wider than a /${widest} in IPv${version}, and a wider one trusts nearly every peer`
      : `${quoted} is no network: its prefix is longer than IPv${version}'s addresses`;
  }
  const withoutPort = /^\[?([\da-f:.]+?)\]?:\d{1,5}$/i.exec(entry)?.[1];
  if (withoutPort && isIP(withoutPort) !== 0) return `${quoted} holds a port: write the address alone (${withoutPort})`;
  return `${quoted} is neither private nor an IP address or network (203.0.113.0/24, 2001:db8::/32)`;
}

/** An IPv4 address as a 32-bit number. */
const ipv4Number = (address: string): number => address.split('.').reduce((value, part) => value * 256 + Number(part), 0);

export class ProxyTrust {
  readonly #private: boolean;
  /** IPv4 networks as [first address, mask]: compared as numbers, a tenth of BlockList's cost per check. */
  readonly #ipv4: (readonly [number, number])[] = [];
  readonly #ipv6: BlockList | undefined;
  /** What it trusts, as listed (`private` for `true`). */
  readonly entries: readonly string[];

  /** `entries`: `private`, and networks (checked: proxyEntryProblem). */
  constructor(entries: readonly string[] = [PRIVATE_PROXIES]) {
    this.entries = entries.map((entry) => entry.trim());
    this.#private = this.entries.includes(PRIVATE_PROXIES);
    for (const text of this.entries) {
      if (text === PRIVATE_PROXIES) continue;
      const problem = proxyEntryProblem(text);
      if (problem) throw new TypeError(`trustProxy: ${problem}`);
      const network = parseNetwork(text)!;
      if (network.family === 'ipv4') {
        // A /8 at the widest (parseNetwork): the shift never reaches 32.
        const mask = (~0 << (32 - network.prefix)) >>> 0;
        this.#ipv4.push([(ipv4Number(network.address) & mask) >>> 0, mask]);
      } else {
        this.#ipv6 ??= new BlockList();
        this.#ipv6.addSubnet(network.address, network.prefix, 'ipv6');
      }
    }
  }

  /** Whether a request from `address` (a plain address: clientAddress's) may carry the client's. */
  trusts(address: string): boolean {
    if (this.#private && isPrivate(address)) return true;
    if (address.includes(':')) return this.#ipv6 !== undefined && this.#ipv6.check(address, 'ipv6');
    if (this.#ipv4.length === 0) return false;
    const value = ipv4Number(address);
    return this.#ipv4.some(([first, mask]) => ((value & mask) >>> 0) === first);
  }
}
