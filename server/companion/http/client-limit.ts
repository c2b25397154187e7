/**
 * A per-client request limit as middleware (the demo shop's session opening uses it): each
 * request counts for the client's network; past the limit the answer is 429 with Retry-After,
 * before the body is read, and the burst is logged once. A client whose address is unknown is
 * not counted: one count for everyone would be an off switch anyone can flip.
 */
import type { MiddlewareHandler } from 'hono';
import type { CompanionEnv } from '../context.js';
import { clientAddress, clientKey, untrustedProxy } from './client-address.js';
import { ApiProblem } from './problem.js';
import type { RateLimiter } from './rate-limit.js';
import { noteUnknownClient } from './unknown-client.js';

/** `what` names the requests counted, in the plural: "checkout sessions opened". */
export function limitPerClient(limiter: RateLimiter, what: string): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    const { options, logger } = c.get('services');
    if (clientAddress(c, options.trustProxy) === undefined) {
      noteUnknownClient(c.get('services'));
      return next();
    }
    const decision = limiter.take(clientKey(c, options.trustProxy));
    if (!decision.allowed) {
      if (decision.justExceeded) logger.warn(`${what}: client rate limited`, { client: clientAddress(c, options.trustProxy), ...untrustedProxy(c, options.trustProxy) });
      throw ApiProblem.tooMany(`Too many ${what}; wait a moment and try again`, decision.retryAfterMs);
    }
    await next();
  };
}
