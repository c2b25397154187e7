/**
 * Which requests the metrics listener (PAYFORM_METRICS_ADDRESS) answers by their Host. It takes
 * no token: bound to this machine, it is meant for a Prometheus there. But any web page the
 * machine's browser opens reaches it too, by DNS rebinding — a name of the page's own that
 * turns to 127.0.0.1 once the page is loaded — and then reads the shop's payments, declines and
 * gateway trouble as its own origin's. Such a request names the page's host, never an address
 * and never `localhost` (a browser resolves `*.localhost` itself): on a loopback listener only
 * those are answered. A listener on another interface is reached by whatever name the network
 * gives it (a container's service name): its Host is not judged.
 */
import { isIP } from 'node:net';
import { requestAddress } from '../http/request-address.js';
import { isBrowserLoopbackHost, isLoopbackHost } from '../loopback.js';

/**
 * For a listener bound to `boundHost`: the Host of a request to `requestUrl` that a rebound name
 * would send (undefined for one it answers). A Host no URL can hold is refused as well.
 */
export function rebindingHost(boundHost: string, requestUrl: string): string | undefined {
  if (!isLoopbackHost(boundHost)) return undefined;
  const address = requestAddress(requestUrl);
  if (!address) return 'a host no URL can hold';
  const { hostname } = address;
  return isBrowserLoopbackHost(hostname) || isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0 ? undefined : hostname;
}
