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
import { BIDI_CONTROLS } from '@payform/gateway/wire';
import type { CompanionEnv } from '../context.js';
import { customerLanguage, customerPage, notFoundPage, sendPage } from './customer-page.js';
import { pageWords } from './page-words.js';
import { SESSION_ID } from './session-access.js';

const DIRECTION_CONTROLS = new RegExp(BIDI_CONTROLS.source, 'gu');

export function challengeRoutes(): Hono<CompanionEnv> {
  const routes = new Hono<CompanionEnv>();

  routes.get('/challenge/:id', (c) => customerPage(c, async () => {
    const id = c.req.param('id');
    const session = SESSION_ID.test(id) ? await c.var.services.ledger.getSession(id) : undefined;
    if (!session) return notFoundPage(c, 'linkNotFound');
    const payment = session.payment;
    const waiting = payment && (payment.status === 'init' || payment.status === 'pending') ? payment.userActionUrl : null;
    if (!waiting) return c.redirect(`${c.var.services.options.basePath}/checkout/return/${encodeURIComponent(session.id)}`, 303);
    const amount = formatMinorUnits(session.amount, session.currency);
    const language = customerLanguage(c, session.customer.lang);
    const { confirm } = pageWords(language);
    return sendPage(c, language, {
      heading: confirm.heading,
      // Isolated (FSI … PDI), its own direction controls left out (a PDI of its own would end
      // the isolate early): an override in the merchant's text cannot turn the amount around.
      text: `\u2068${session.description.replace(DIRECTION_CONTROLS, '')}\u2069: ${amount}. ${confirm.text}`,
      link: { href: waiting, label: confirm.link },
    });
  }));
  // A link cut short or run on is a page too, never the API's JSON.
  routes.get('/challenge/*', (c) => notFoundPage(c, 'linkNotFound'));

  return routes;
}
