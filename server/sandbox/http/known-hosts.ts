/**
 * The names the sandbox answers to on the surfaces a web page must not reach by another: the
 * control plane (no credentials) and the gateway API (the test project's credentials are
 * public). Loopback names, IP addresses, publicUrl's host and allowedHosts pass; any other Host
 * is refused, so DNS rebinding (evil.example resolving to 127.0.0.1) cannot read a developer's
 * payments or make new ones. An IP address always passes: no rebinding produces one.
 *
 * A refused name is logged once: it is either how someone reaches the sandbox (a container's
 * service name, not yet named) or a page trying to, and either way the fix is one setting.
 *
 * The API refuses with 421 Misdirected Request (a Host this server does not serve), not 403: a
 * gateway client reads a 401 or 403 as its credentials refused, and would send its operator
 * checking four keys that are right. The control plane keeps its 403, as for a foreign Origin.
 */
import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { maskCardData } from '@payform/gateway';
import { SaidOnce } from '../said-once.js';
import { Refusal } from '../state/refusal.js';
import type { SandboxEnv } from './env.js';

export interface KnownHostSettings {
  readonly publicUrl: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly log: (line: string) => void;
}

/** Refused names remembered as said: a scan of made-up ones makes it start over, it does not grow. */
const REFUSED_HOSTS_SAID = 64;
/**
 * A Host is the requester's text, named beside the advice to allow it only when it is a host
 * name: DNS letters within a DNS name's 253. WHATWG URL, and so the server, takes a comma in a
 * host (`evil.example,sandbox`), and SANDBOX_ALLOWED_HOSTS splits on commas: named, that text
 * would have the operator allow evil.example.
 */
const HOST_NAME = /^[a-z0-9_.-]{1,253}$/;
/** What any other Host is called, in the log and the answer: one key, said once, never echoed. */
const NOT_A_HOST_NAME = 'a Host that is no host name';

export class KnownHosts {
  readonly #named: ReadonlySet<string>;
  readonly #log: (line: string) => void;
  readonly #said = new SaidOnce(REFUSED_HOSTS_SAID);

  constructor(settings: KnownHostSettings) {
    this.#named = new Set(
      [...settings.allowedHosts, ...(settings.publicUrl ? [new URL(settings.publicUrl).hostname] : [])].map((host) => host.toLowerCase()),
    );
    this.#log = settings.log;
  }

  #answersTo(written: string): boolean {
    // A fully qualified name's trailing dot (`localhost.`, `sandbox.`) names the same host.
    const hostname = written.endsWith('.') ? written.slice(0, -1) : written;
    return hostname === 'localhost' || hostname.endsWith('.localhost') || isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0 || this.#named.has(hostname);
  }

  /** A middleware refusing `surface` (`The control plane`) under any other name, with `status`. */
  guard(surface: string, status: 403 | 421): MiddlewareHandler<SandboxEnv> {
    return async (c, next) => {
      const hostname = new URL(c.req.url).hostname.toLowerCase();
      if (!this.#answersTo(hostname)) throw this.#refuse(surface, hostname, status);
      await next();
    };
  }

  #refuse(surface: string, hostname: string, status: 403 | 421): Refusal {
    const named = HOST_NAME.test(hostname);
    const host = named ? maskCardData(hostname) : NOT_A_HOST_NAME;
    const configured = this.#named.size ? [...this.#named].sort().join(', ') : 'none';
    const fix = named ? "name it in SANDBOX_ALLOWED_HOSTS (createSandbox's allowedHosts), or give it as the host of --public-url" : 'no setting allows it';
    if (this.#said.first(host)) {
      this.#log(
        named
          ? `payform sandbox: refused a request for ${host} (421 on the gateway API, 403 on the control plane; the pages still answer): it answers only to loopback addresses, IP addresses and the hosts it is configured for (${configured}). If ${host} is how you reach this sandbox, ${fix}; if not, a web page may be trying to reach it through DNS rebinding (said once)`
          : `payform sandbox: refused a request for ${host} (not DNS letters within 253; 421 on the gateway API, 403 on the control plane): ${fix}, and no client that reaches this sandbox by a name sends one; a client outside a browser may have made it up (said once)`,
      );
    }
    return new Refusal(status, `${surface} answers only to loopback addresses and the hosts it is configured for (${configured}), not ${host}: ${fix}`, { code: `P-${status}` });
  }
}
