/**
 * Card testing defence: pay and hosted requests are counted per client and per checkout
 * session; past either limit the answer is 429 with Retry-After, before the body is even read.
 * Only what can be a session is counted, and only for a client still within its own limit, so
 * one client cannot fill the counters with made-up ids. Without a client address there is no
 * client to count: then only the session is (see noteUnknownClient). An attempt answered 503 is
 * not counted.
 *
 * A client is its network (an IPv4 address, an IPv6 /64); an IPv6 client's /48 is counted too,
 * with twice the allowance, so a site cannot rotate /64s. Declines weigh more than attempts: a
 * network declined `declinesPerClient` times within 15 minutes (twice that for a /48) is cooled
 * down (client-declines.ts) — refused 429 for 15 minutes, longer at each strike — which a
 * customer retrying a card or two never reaches.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { CompanionEnv } from '../context.js';
import { clientAddress, clientGone, clientNetwork, isPrivate, untrustedProxy, wideNetwork } from '../http/client-address.js';
import { ApiProblem } from '../http/problem.js';
import type { RateDecision } from '../http/rate-limit.js';
import { noteUnforwarded } from '../http/unforwarded.js';
import { noteUnknownClient } from '../http/unknown-client.js';
import type { CoolDown } from './client-declines.js';
import { SESSION_ID } from './session-access.js';

const UNCOUNTED: RateDecision = { allowed: true, retryAfterMs: 0, justExceeded: false, count: 0 };
const TOO_MANY = 'Too many payment attempts; wait a moment and try again';

export function limitPayAttempts(): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    const { payLimits, options, logger } = c.get('services');
    const id = c.req.param('id') ?? '';
    if (!SESSION_ID.test(id)) throw ApiProblem.notFound('The checkout session', 'session_not_found');
    noteUnforwarded(c);
    const client = clientAddress(c, options.trustProxy);
    if (client === undefined && clientGone(c)) throw new ApiProblem(400, 'request_aborted', 'The client closed its connection before its payment was sent');
    if (client === undefined) noteUnknownClient(c.get('services'));
    const network = client === undefined ? undefined : clientNetwork(client);
    const wide = network === undefined ? undefined : wideNetwork(network);
    const proxy = untrustedProxy(c, options.trustProxy);
    if (network !== undefined) refuseCooledDown(c, client!, network, wide, proxy.fix !== undefined);
    const clientCounter = network === undefined ? undefined : `client:${network}`;
    const wideCounter = wide === undefined ? undefined : `client:${wide}`;
    const byClient = clientCounter === undefined ? UNCOUNTED : payLimits.perClient.take(clientCounter);
    const byNetwork = wideCounter === undefined || !byClient.allowed ? UNCOUNTED : payLimits.perClient.take(wideCounter, 2 * options.rateLimits.perClient);
    const counted = byClient.allowed ? byNetwork : byClient;
    const decision = counted.allowed ? payLimits.perSession.take(`session:${id}`) : counted;
    if (!decision.allowed) {
      // Once as a client or session crosses its limit, not for every refused request after.
      const by = !byClient.allowed ? 'client' : !byNetwork.allowed ? 'network' : 'session';
      if (decision.justExceeded) {
        // The limit and where it is set: a merchant's own tests from one address meet it first.
        const { perClient, perSession, windowMs } = options.rateLimits;
        const limit = `${by === 'session' ? perSession : by === 'network' ? 2 * perClient : perClient} per ${windowMs / 1000} s, set by PAYFORM_RATE_LIMITS (the rateLimits setting)`;
        logger.warn('pay attempts rate limited', { client, by, limit, ...(by === 'network' ? { network: wide } : {}), ...(by === 'client' ? proxy : {}) });
      }
      throw ApiProblem.tooMany(TOO_MANY, decision.retryAfterMs);
    }
    await next();
    // Not served (the ledger away, the companion starting): no attempt was made, and a customer
    // who waits as Retry-After says must not find the limit used up when the companion is back.
    if (c.res.status === 503) {
      payLimits.perSession.giveBack(`session:${id}`);
      if (clientCounter !== undefined) payLimits.perClient.giveBack(clientCounter);
      if (wideCounter !== undefined) payLimits.perClient.giveBack(wideCounter);
    }
  };
}

/**
 * 429 while the client's network, or its /48, is cooled down for its declines. Not for a proxy of
 * the operator's the companion does not trust: every customer is that proxy, and a cool-down
 * would refuse the whole shop for a quarter of an hour and more (its per-client limit still
 * holds, and its warning says to trust the proxy).
 */
function refuseCooledDown(c: Context<CompanionEnv>, client: string, network: string, wide: string | undefined, proxied: boolean): void {
  // A private or loopback client is a proxy of the operator's (trusted, but sending no
  // X-Forwarded-For) or the shop's own network: every customer there would be cooled down together.
  if (proxied || isPrivate(client)) return;
  const { reactions, options, logger, metrics } = c.get('services');
  const allowance = options.rateLimits.declinesPerClient ?? 2 * options.rateLimits.perSession;
  let cooled: CoolDown | undefined = reactions.declines.coolDown(network, allowance);
  let by: 'client' | 'network' = 'client';
  if (cooled === undefined && wide !== undefined) {
    cooled = reactions.declines.coolDown(wide, 2 * allowance);
    by = 'network';
  }
  if (cooled === undefined) return;
  if (cooled.began) {
    // Once as it begins, with the figures: the declines before it are each on their own line.
    metrics.declineCoolDown(by);
    logger.warn('pay attempts cooled down after declines: card testing from this client network, most likely', {
      client,
      network: by === 'client' ? network : wide,
      by,
      declines: cooled.began.declines,
      strike: cooled.began.strike,
      retry_after_seconds: Math.ceil(cooled.retryAfterMs / 1000),
    });
  }
  throw ApiProblem.tooMany(TOO_MANY, cooled.retryAfterMs);
}
