/**
 * A path whose percent-escapes spell no UTF-8 text (`/orders/%E0%A4%A`): Hono reads such a
 * parameter as written, so the request went on for an order literally named `%E0%A4%A` and was
 * answered 404 for it. The client's encoder is what is wrong: said as such, 400.
 */
import type { MiddlewareHandler } from 'hono';
import type { SandboxEnv } from './env.js';
import { Refusal } from '../state/refusal.js';

/** The path of a request's URL, as sent (escapes kept), without its query. */
function pathAsSent(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const end = url.indexOf('?', start);
  return url.slice(start, end < 0 ? undefined : end);
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const refuseUndecodablePath: MiddlewareHandler<SandboxEnv> = async (c, next) => {
  if (c.req.url.includes('%') && !decodes(pathAsSent(c.req.url))) {
    throw Refusal.invalidField('path', 'has a percent-escape that spells no UTF-8 text: escape each byte of an id’s UTF-8 as %XX (or send it as it is)');
  }
  await next();
};
