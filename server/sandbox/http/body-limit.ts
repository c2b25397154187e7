/**
 * 413 for a body larger than the limit, whether its length is declared or only found while it
 * is read.
 *
 * A declared Content-Length (without Transfer-Encoding) is the body's length by HTTP framing,
 * so the header alone decides and the body is left unread. Hono's bodyLimit asks for the body
 * stream first: served by @hono/node-server that turns the Node request into a web Request over
 * a web stream, and every later read of the body goes through it — a tenth of the sandbox's CPU
 * a payment. A body without a declared length (chunked, or a Request built in process) is
 * counted as it is read, by Hono's bodyLimit.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { SandboxEnv } from './env.js';

export function limitBody(maxBytes: number, refuse: (c: Context<SandboxEnv>) => Response): MiddlewareHandler<SandboxEnv> {
  const counting = bodyLimit({ maxSize: maxBytes, onError: refuse });
  return (c, next) => {
    const declared = declaredLength(c.req.raw.headers);
    if (declared === undefined) return counting(c, next);
    if (declared > maxBytes) return Promise.resolve(refuse(c));
    return next();
  };
}

/** Content-Length when it alone frames the body, else undefined. */
function declaredLength(headers: Headers): number | undefined {
  const length = headers.get('content-length');
  if (length === null || headers.has('transfer-encoding')) return undefined;
  return /^\s*\d+\s*$/.test(length) ? Number(length) : undefined;
}
