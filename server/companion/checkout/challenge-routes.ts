/**
 * `GET /checkout/challenge/:id` — the link a merchant sends a customer whose saved card the
 * gateway wants 3-D Secure for (a charge's `challenge_url`). The session id is the capability.
 * While the charge waits for the customer it goes on to the gateway's challenge page (an
 * address the ledger only keeps when it is https or the sandbox); otherwise to the return page,
 * which shows how the charge ended.
 */
import { Hono } from 'hono';
import type { CompanionEnv } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import { SESSION_ID } from './session-access.js';

export function challengeRoutes(): Hono<CompanionEnv> {
  const routes = new Hono<CompanionEnv>();

  routes.get('/challenge/:id', async (c) => {
    const id = c.req.param('id');
    const session = SESSION_ID.test(id) ? await c.var.services.ledger.getSession(id) : undefined;
    if (!session) throw ApiProblem.notFound('The checkout session', 'session_not_found');
    const payment = session.payment;
    const waiting = payment && (payment.status === 'init' || payment.status === 'pending') ? payment.userActionUrl : null;
    return c.redirect(waiting ?? `/checkout/return/${encodeURIComponent(session.id)}`, 303);
  });

  return routes;
}
