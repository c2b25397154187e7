/**
 * `GET /checkout/challenge/:id` — the link a merchant sends a customer whose saved card the
 * gateway wants 3-D Secure for (a charge's `challenge_url`). The session id is the capability.
 * While the charge waits for the customer it answers a page saying what is to be confirmed, with
 * the way on to the gateway's challenge (an address the ledger only keeps when it is https or the
 * sandbox). A page, not a redirect: mail scanners open links before people do, and must not
 * spend the bank's one challenge. Otherwise it goes on to the return page, which shows how the
 * charge ended.
 */
import { Hono } from 'hono';
import { formatMinorUnits } from '@payform/gateway';
import type { CompanionEnv } from '../context.js';
import { customerPage, PAGE_POLICY, page } from './return-routes.js';
import { SESSION_ID } from './session-access.js';

export function challengeRoutes(): Hono<CompanionEnv> {
  const routes = new Hono<CompanionEnv>();

  routes.get('/challenge/:id', (c) => customerPage(c, async () => {
    const id = c.req.param('id');
    const session = SESSION_ID.test(id) ? await c.var.services.ledger.getSession(id) : undefined;
    if (!session) {
      c.header('Content-Security-Policy', PAGE_POLICY);
      return c.html(page('Payment link not found', 'This payment link does not exist. Ask the shop for a new one.'), 404);
    }
    const payment = session.payment;
    const waiting = payment && (payment.status === 'init' || payment.status === 'pending') ? payment.userActionUrl : null;
    if (!waiting) return c.redirect(`${c.var.services.options.basePath}/checkout/return/${encodeURIComponent(session.id)}`, 303);
    c.header('Content-Security-Policy', PAGE_POLICY);
    const amount = formatMinorUnits(session.amount, session.currency);
    return c.html(
      page('Confirm your payment', `${session.description}: ${amount}. Your bank asks you to confirm this payment.`, {
        href: waiting,
        label: 'Continue to your bank',
      }),
    );
  }));

  return routes;
}
