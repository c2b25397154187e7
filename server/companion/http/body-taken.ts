/**
 * A request whose body the host read before handing it over cannot be read again: the webhook's
 * signature is checked on the body as it came, and a session's or a payment's JSON is gone. Left
 * to the route, that is a TypeError and a bare 500 with a stack; instead it is answered 500
 * `body_already_read` saying what to change, and said once as an error (the same mistake on the
 * requests after it at debug). Express's body parsers are caught by the Node listener
 * (node-listener.ts); this catches a Hono middleware that read `c.req.raw`, and a fetch handler
 * that read the Request.
 */
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';
import { problemBody } from './problem.js';

/** The answer to a request whose body is gone, with the fix for the host that took it. */
export function bodyTakenAnswer(fix: string): { readonly headers: Record<string, string>; readonly body: string } {
  const message = `The server read this request’s body before the payment companion could: ${fix}`;
  return {
    // Readable by any page, as the companion's 404 is: the widget's pay request would otherwise
    // meet a CORS refusal and tell of a network failure, and the browser hide this answer. It
    // says nothing but the setup mistake.
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' },
    body: JSON.stringify(problemBody('body_already_read', message)),
  };
}

/**
 * The fix for a Node host, said to the Node listener's request: Express's parsers by name, and
 * the other hosts' ways in. Fastify has parsed a route's body before its handler runs, so only a
 * middleware (middie's `use`) sees the request unread; NestJS adds its parsers at listen(), and a
 * MiddlewareConsumer middleware runs after them.
 */
export const parserFix = (basePath: string): string =>
  `mount the companion before body parsers such as express.json() and express.urlencoded(); in NestJS, with app.use('${basePath || '/'}', …) in main.ts before listen() and before any app.useBodyParser(), not in a MiddlewareConsumer middleware; ` +
  `in Fastify, with @fastify/middie's fastify.use('${basePath || '/'}', …), not in a route, whose body Fastify has already read; in Koa, before the body parser, with ctx.respond = false`;

const FETCH_HOST_FIX =
  'in a Hono app read it through c.req (c.req.json(), c.req.text(), c.req.parseBody(): Hono keeps it for the companion), not c.req.raw; in a fetch handler (a Next.js route, a SvelteKit handle hook, an Astro middleware), hand the companion the request unread, or a request.clone() taken before reading it';

/**
 * The answer to a request whose body the host took, or undefined: run by the companion's first
 * middleware, so the check costs no dispatch of its own.
 */
export function takenBody(): (c: Context<CompanionEnv>) => Response | undefined {
  let said = false;
  return (c) => {
    // Hono keeps what it read in bodyCache, and the companion's reads take it from there.
    if (!c.req.raw.bodyUsed || Object.keys(c.req.bodyCache).length > 0) return undefined;
    c.get('logger')[said ? 'debug' : 'error'](`the request body was read before the companion got it: ${FETCH_HOST_FIX}`);
    said = true;
    const { headers, body } = bodyTakenAnswer(FETCH_HOST_FIX);
    return new Response(body, { status: 500, headers });
  };
}
