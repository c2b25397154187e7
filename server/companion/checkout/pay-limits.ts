/**
 * Card testing defence: pay and hosted requests are counted per client and per checkout
 * session; past either limit the answer is 429 with Retry-After, before the body is even read.
 * Only what can be a session is counted, and only for a client still within its own limit, so
 * one client cannot fill the counters with made-up ids. Without a client address there is no
 * client to count: then only the session is (see noteUnknownClient). An attempt answered 503 is
 * not counted.
 */
import type { MiddlewareHandler } from 'hono';
import type { CompanionEnv } from '../context.js';
import { clientAddress, clientKey, untrustedProxy } from '../http/client-address.js';
import { ApiProblem } from '../http/problem.js';
import type { RateDecision } from '../http/rate-limit.js';
import { noteUnforwarded } from '../http/unforwarded.js';
import { noteUnknownClient } from '../http/unknown-client.js';
import { SESSION_ID } from './session-access.js';

const UNCOUNTED: RateDecision = { allowed: true, retryAfterMs: 0, justExceeded: false };

export function limitPayAttempts(): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    const { payLimits, options, logger } = c.get('services');
    const id = c.req.param('id') ?? '';
    if (!SESSION_ID.test(id)) throw ApiProblem.notFound('The checkout session', 'session_not_found');
    noteUnforwarded(c);
    const client = clientAddress(c, options.trustProxy);
    if (client === undefined) noteUnknownClient(c.get('services'));
    const clientCounter = client === undefined ? undefined : `client:${clientKey(c, options.trustProxy)}`;
    const byClient = clientCounter === undefined ? UNCOUNTED : payLimits.perClient.take(clientCounter);
    const decision = byClient.allowed ? payLimits.perSession.take(`session:${id}`) : byClient;
    if (!decision.allowed) {
      // Once as a client or session crosses its limit, not for every refused request after.
      if (decision.justExceeded) logger.warn('pay attempts rate limited', { client, by: byClient.allowed ? 'session' : 'client', ...(byClient.allowed ? {} : untrustedProxy(c, options.trustProxy)) });
      throw ApiProblem.tooMany('Too many payment attempts; wait a moment and try again', decision.retryAfterMs);
    }
    await next();
    // Not served (the ledger away, the companion starting): no attempt was made, and a customer
    // who waits as Retry-After says must not find the limit used up when the companion is back.
    if (c.res.status === 503) {
      payLimits.perSession.giveBack(`session:${id}`);
      if (clientCounter !== undefined) payLimits.perClient.giveBack(clientCounter);
    }
  };
}
