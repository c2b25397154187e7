/** Addresses of this machine only: a gateway there is a sandbox or a stand-in, a listener there is private. */
import { isIP } from 'node:net';

/** An IP address of the loopback interface (127.0.0.0/8, ::1). */
export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.');
}

/** A URL's host name that resolves to this machine (`127.example.com` is a name, not an address). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || (isIP(hostname) !== 0 && isLoopback(hostname));
}

/** A host a browser takes to this machine: `localhost`'s subdomains too (`shop.localhost`), which browsers resolve themselves. */
export function isBrowserLoopbackHost(hostname: string): boolean {
  return isLoopbackHost(hostname) || hostname.endsWith('.localhost');
}

/** A gateway at a plain-http address of this machine: the sandbox, whose pages are served so. */
export function isLocalHttpGateway(url: URL): boolean {
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** Plain http to another machine: what crosses the network there crosses it unencrypted. */
export function isPlainHttpElsewhere(url: URL): boolean {
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}
