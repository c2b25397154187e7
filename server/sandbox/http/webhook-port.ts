/**
 * The live gateway posts webhooks to ports 443 and 8443; another port "needs prior notice to the
 * service" (gateway-interface.md, Events, Delivery). The sandbox posts to any port, as a receiver
 * on the developer's machine needs, so a server_url that works here (Spring Boot's and Tomcat's
 * 8080, plain http's 80) may get nothing from the live gateway: the request inspector says so,
 * for any host but this machine's.
 */
import { isIP } from 'node:net';
import type { WarningNote } from '../inspector/notes.js';

const WEBHOOK_PORTS: ReadonlySet<string> = new Set(['443', '8443']);

const isThisMachine = (hostname: string): boolean => {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';
};

/** The warning for a server_url the live gateway would not post to without notice, or undefined. */
export function webhookPortWarning(serverUrl: string | undefined): Omit<WarningNote, 'kind'> | undefined {
  const url = serverUrl === undefined ? null : URL.parse(serverUrl);
  if (url === null) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (WEBHOOK_PORTS.has(port) || isThisMachine(url.hostname)) return undefined;
  return {
    field: 'server_url',
    what: `port ${port}: the live gateway posts webhooks to ports 443 and 8443, and to another only after the service has been told`,
    rule: 'webhook target ports are typically 443 and 8443; other ports need prior notice to the service (the interface\'s Events, Delivery)',
  };
}
