/**
 * `GET /checkout/return/:id` — the `result_url` the customer lands on after 3-D Secure or the
 * hosted page. The gateway documents no query parameters here, so the landing proves nothing:
 * the outcome comes from the ledger (webhooks), refreshed by an order-state read while it is
 * still open — at most one per session every few seconds, however often the page is loaded.
 * The customer is then sent on to the merchant's return URL with the session's state — or,
 * without one, back to the page they paid from (`?page=`, checked again here: the landing is
 * public) — and shown a short page only when neither is known.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { html } from 'hono/html';
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { CheckoutSession } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { LEDGER_RETRY_AFTER_SECONDS } from '../http/failure-problems.js';
import { RateLimiter } from '../http/rate-limit.js';
import { returnablePage } from './payer-page.js';
import { viewStatus } from './session-view.js';
import type { SessionViewStatus } from './session-view.js';

const REFRESH_READ_MS = 3_000;
/** A reload within this long answers from the ledger: the page is public, the gateway's reads are not free. */
const REFRESH_EVERY_MS = 5_000;

const HEADINGS: Record<SessionViewStatus, string> = {
  success: 'Payment received',
  failure: 'Payment not completed',
  pending: 'Payment is being processed',
  open: 'Payment not completed',
  expired: 'This checkout has expired',
};

/** A card verification (lookup) paid nothing: its page speaks of the card. */
const VERIFICATION_HEADINGS: Partial<Record<SessionViewStatus, string>> = {
  success: 'Card saved',
  failure: 'Card not saved',
  open: 'Card not saved',
  pending: 'Card is being verified',
};

/** The page's own policy: text, a link and an inline style, nothing else. */
export const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function returnRoutes(clock: () => number): Hono<CompanionEnv> {
  const routes = new Hono<CompanionEnv>();
  const refreshes = new RateLimiter(1, REFRESH_EVERY_MS, clock);

  routes.get('/return/:id', (c) => customerPage(c, async () => {
    const { ledger, orderState, logger } = c.var.services;
    const id = c.req.param('id');
    let session = await ledger.getSession(id);
    if (!session) {
      c.header('Content-Security-Policy', PAGE_POLICY);
      return c.html(page('Checkout not found', 'This checkout does not exist. Return to the shop and start again.'), 404);
    }
    const open = session.status === 'processing' ? session.payment : null;
    if (open && refreshes.take(id).allowed) {
      try {
        await orderState.refresh(open.orderId, 'order_state', { timeoutMs: REFRESH_READ_MS, payment: open });
        session = (await ledger.getSession(id)) ?? session;
      } catch (error) {
        logger.warn('the order state could not be read on return; the webhook will settle it', { order_id: open.orderId, err: error });
      }
    }
    const { status, message } = viewStatus(session);
    const returnTo = session.returnUrl ?? returnablePage(c.req.query('page'), c.var.services.options);
    if (returnTo) return c.redirect(merchantReturn(returnTo, session, status), 303);
    c.header('Content-Security-Policy', PAGE_POLICY);
    const heading = (session.method === 'lookup' ? VERIFICATION_HEADINGS[status] : undefined) ?? HEADINGS[status];
    return c.html(page(heading, message ?? (status === 'success' ? 'Thank you. You can close this page.' : 'You can close this page.')));
  }));

  return routes;
}

/**
 * A page a customer's browser opens (the return, the bank's challenge link): while the database
 * cannot be reached it answers a page they can read — their payment is not lost, reload, do not
 * pay again — rather than the merchant API's JSON. The outage is noticed as the app's error
 * handler notices it.
 */
export async function customerPage(c: Context<CompanionEnv>, render: () => Promise<Response>): Promise<Response> {
  try {
    return await render();
  } catch (error) {
    if (!isLedgerUnavailable(error)) throw error;
    c.var.services.outage.noticed(error);
    c.header('Content-Security-Policy', PAGE_POLICY);
    c.header('Retry-After', LEDGER_RETRY_AFTER_SECONDS);
    return c.html(page('Your payment is being checked', 'We cannot look it up right now. Your payment is not lost: reload this page in a few seconds, and please do not pay again.'), 503);
  }
}

/** The merchant's return URL (or the page paid from) with `checkout_session`, `order_id` and `status` added. */
function merchantReturn(returnTo: string, session: CheckoutSession, status: SessionViewStatus): string {
  const url = new URL(returnTo);
  url.searchParams.set('checkout_session', session.id);
  url.searchParams.set('order_id', session.payment?.orderId ?? session.orderId);
  url.searchParams.set('status', status);
  return url.toString();
}

/** A short page for the customer; `link` is where they may go on to (a bank's challenge). */
export function page(heading: string, text: string, link?: { readonly href: string; readonly label: string }) {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}</style></head>
<body><main><h1>${heading}</h1><p>${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}</main></body>
</html>`;
}
