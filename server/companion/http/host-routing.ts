/**
 * A request under the companion's base path that none of its routes takes (a widget `endpoint`
 * with `/api` after the base path), in a Hono server that mounts it with `route()`: Hono copies
 * the companion's routes into the host's but not its 404, so the host's 404 answered, with the
 * companion's same-origin policy and no CORS, and the widget saw only a connection that failed.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { CompanionEnv } from '../context.js';

/**
 * Answers what no route of the companion took with its own 404 (`unrouted`), as when it serves
 * itself, so the widget can read that there is no route there and name the endpoint to give.
 * `answeredBy`: a header the companion's own 404 carries. Only a 404 costs the look at what matched.
 */
export function answerUnrouted(unrouted: (c: Context<CompanionEnv>) => Promise<Response>, answeredBy: string): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 404 || c.res.headers.has(answeredBy) || matchedRoutes(c).some((route) => route.method !== 'ALL')) return;
    const answer = await unrouted(c);
    // Not merged into the host's answer again, which would keep its headers over the answer's.
    c.res = undefined;
    c.res = answer;
  };
}
