/**
 * The control plane takes no credentials, so it answers only requests that no other website
 * can make or read through a browser:
 *
 * - Host must be a name the sandbox is reached by (known-hosts.ts, before this guard), so DNS
 *   rebinding cannot read `/_sandbox/webhooks`, whose signed bodies carry card tokens.
 * - A browser's `Sec-Fetch-Site` must be same-origin (or none: typed in the address bar), and
 *   an `Origin` must be the sandbox's own; tools that send neither (tests, curl) pass.
 * - POST and PUT must be `application/json`: a type a cross-site form or a simple request can
 *   never carry, so a `text/plain` form on any website cannot reset the sandbox.
 */
import type { MiddlewareHandler } from 'hono';
import { originOf } from '../pages/layout.js';
import { Refusal } from '../state/refusal.js';
import type { SandboxEnv } from './env.js';
import { isJsonType } from './request-input.js';

export interface ControlGuardSettings {
  readonly publicUrl: string | undefined;
}

const forbidden = (message: string) => new Refusal(403, message, { code: 'P-403' });

export function guardControlPlane(settings: ControlGuardSettings): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const own = new URL(c.req.url);
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    if ((site !== undefined && site !== 'same-origin' && site !== 'none') || (origin !== undefined && origin !== own.origin && !originOf(settings.publicUrl).includes(origin))) {
      throw forbidden('The control plane does not answer requests from other websites');
    }
    if ((c.req.method === 'POST' || c.req.method === 'PUT') && !isJsonType(c.req.header('content-type'))) {
      throw new Refusal(406, 'A control-plane command must be sent with Content-Type: application/json', { code: 'P-406' });
    }
    await next();
  };
}
