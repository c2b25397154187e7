/**
 * What an API route does not take is refused before it runs, by name — a query parameter on a
 * route that reads none, a body on a route that reads none — as a route's own validator refuses
 * a field it does not take (400 `invalid_request`, `amount: is not allowed`). Unchecked, it was
 * ignored and the request ran: `POST …/refund?amount=1` refunded the whole order,
 * `DELETE …/cards/:id` with `{"x":1}` deleted the card.
 *
 * What a route takes is what the route catalog (the OpenAPI document's source) declares for it:
 * its `query`, its `body`. A route with a query or a body validates it itself, strictly (a test
 * sends every route a parameter and a field it does not take); the others are checked here, in
 * one place, so no route can forget to. Routes the catalog does not
 * list (a host's own, mounted beside the companion) are left alone.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { ApiProblem } from './problem.js';
import { takesNoBody, takesNoQuery } from './validate.js';

/** A route as the catalog declares it: Hono's path (`/api/orders/:order_id`), and what it reads. */
export interface DeclaredRoute {
  readonly method: string;
  readonly path: string;
  readonly query?: unknown;
  readonly body?: unknown;
}

/** Where the check is mounted (app.ts): every catalog route it checks starts with `/api/`. */
export const DECLARED_INPUT_PATH = '/api/*';

/**
 * Mounted at DECLARED_INPUT_PATH. A GET takes no body by HTTP's rules, and the Node listener drops
 * one unread: a client that sends its filters as one (`requests.get(url, json=filters)`) would be
 * answered as if it asked for everything. Its headers say it came: refused, naming `body`.
 */
export function refuseUndeclaredInput(routes: readonly DeclaredRoute[]): MiddlewareHandler {
  const queryCheck = takesNoQuery();
  // The pay route's hot path has no query: nothing to parse then.
  const noQuery: MiddlewareHandler = (c, next) => (c.req.url.includes('?') ? queryCheck(c, next) : next());
  const noBody = takesNoBody();
  const checks = new Map<string, MiddlewareHandler>();
  for (const route of routes) {
    const query = route.query === undefined;
    const body = route.body !== undefined ? undefined : route.method === 'get' ? noGetBody : noBody;
    const check: MiddlewareHandler | undefined =
      query && body ? (c, next) => noQuery(c, async () => void (await body(c, next))) : query ? noQuery : body;
    if (check) checks.set(`${route.method.toUpperCase()} ${route.path}`, check);
  }
  return (c, next) => {
    // Routes are registered below the base path, and below the host's own path when mounted in
    // another app: the same prefix this middleware's path has before DECLARED_INPUT_PATH.
    const matched = matchedRoutes(c);
    const prefix = (matched[c.req.routeIndex]?.path.length ?? 0) - DECLARED_INPUT_PATH.length;
    // The route this request is for: among those matched (middleware is ALL), the one the catalog lists.
    for (const { method, path } of matched) {
      const check = checks.get(`${method} ${path.slice(prefix)}`);
      if (check) return check(c, next);
    }
    return next();
  };
}

/** A GET that says it carries a body (a length above 0, or chunks). */
const noGetBody: MiddlewareHandler = (c, next) => {
  const length = c.req.header('content-length');
  if ((length === undefined || length === '0') && c.req.header('transfer-encoding') === undefined) return next();
  throw ApiProblem.invalid({ body: 'a GET takes none: send its parameters in the query string' });
};
