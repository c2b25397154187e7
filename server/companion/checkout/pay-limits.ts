/**
 * Card testing defence: pay and hosted requests are counted per checkout session and per
 * client address; past either limit the answer is 429 with Retry-After, before the body is
 * even read.
 */
import type { MiddlewareHandler } from 'hono';
import type { CompanionEnv } from '../context.js';
import { clientAddress } from '../http/client-address.js';
import { ApiProblem } from '../http/problem.js';

export function limitPayAttempts(): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    const { payLimits, options, logger } = c.var.services;
    const client = clientAddress(c, options.trustProxy) ?? 'unknown';
    const bySession = payLimits.perSession.take(`session:${c.req.param('id') ?? ''}`);
    const byClient = payLimits.perClient.take(`client:${client}`);
    const refused = [bySession, byClient].filter((decision) => !decision.allowed);
    if (refused.length > 0) {
      const waitMs = Math.max(...refused.map((decision) => decision.retryAfterMs));
      logger.warn('pay attempts rate limited', { client, by: bySession.allowed ? 'client' : 'session' });
      throw new ApiProblem(429, 'rate_limited', 'Too many payment attempts; wait a moment and try again', undefined, {
        'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    }
    await next();
  };
}
