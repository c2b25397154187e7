/**
 * `GET /checkout/return/:id` — the `result_url` the customer lands on after 3-D Secure or the
 * hosted page. The gateway documents no query parameters here, so the landing proves nothing:
 * the outcome comes from the ledger (webhooks), refreshed by an order-state read while it is
 * still open — at most one per session every few seconds, however often the page is loaded.
 * The customer is then sent on to the merchant's return URL with the session's state — or,
 * without one, back to the page they paid from (`?page=`, checked again here: the landing is
 * public) — and shown a short page only when neither is known (outcome-page.ts).
 */
import { Hono } from 'hono';
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { CheckoutSession } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { RateLimiter } from '../http/rate-limit.js';
import { customerLanguage, customerPage, notFoundPage, sendPage } from './customer-page.js';
import { outcomePage } from './outcome-page.js';
import { returnablePage, shopHome } from './payer-page.js';
import { viewStatus } from './session-view.js';
import type { SessionViewStatus } from './session-view.js';

const REFRESH_READ_MS = 3_000;
/** A reload within this long answers from the ledger: the page is public, the gateway's reads are not free. */
const REFRESH_EVERY_MS = 5_000;
/** Failed reads remembered at most (those past their time dropped first): beyond, a reload within the window says `open`. */
const UNREAD_KEPT = 10_000;

export function returnRoutes(clock: () => number): Hono<CompanionEnv> {
  const routes = new Hono<CompanionEnv>();
  const refreshes = new RateLimiter(1, REFRESH_EVERY_MS, clock);
  // Attempts whose last read on return failed (by order id), until when: a reload the limiter
  // answers from the ledger says what that read would, while the attempt is the session's still.
  const unreadUntil = new Map<string, number>();

  routes.get('/return/:id', (c) => customerPage(c, async () => {
    const { ledger, orderState, logger, outage } = c.var.services;
    const id = c.req.param('id');
    let session = await ledger.getSession(id);
    if (!session) return notFoundPage(c, 'notFound');
    c.set('payformOrderId', session.orderId);
    const open = session.status === 'processing' ? session.payment : null;
    let unread = open !== null && (unreadUntil.get(open.orderId) ?? 0) > clock();
    if (open && refreshes.take(id).allowed) {
      unread = false;
      unreadUntil.delete(open.orderId);
      try {
        // The read's retries share its 3 s: the customer waits on this page.
        await orderState.refresh(open.orderId, 'order_state', { timeoutMs: REFRESH_READ_MS, signal: AbortSignal.timeout(REFRESH_READ_MS), payment: open });
        session = (await ledger.getSession(id)) ?? session;
      } catch (error) {
        // The database going away as the answer was written is the outage's to say (once, no
        // stack); the customer still sees the session as it was read.
        if (isLedgerUnavailable(error)) outage.noticed(error);
        else logger.warn('the order state could not be read on return; the webhook will settle it', { order_id: open.orderId, err: error });
        unread = true;
        if (unreadUntil.size >= UNREAD_KEPT) for (const [orderId, until] of unreadUntil) if (until <= clock()) unreadUntil.delete(orderId);
        if (unreadUntil.size < UNREAD_KEPT) unreadUntil.set(open.orderId, clock() + REFRESH_EVERY_MS);
      }
    }
    const seen = viewStatus(session);
    // Back from a hosted page that may well have been paid on: unknown, not open to pay again,
    // until a read or the webhook says the customer left it unpaid.
    const { status, message } = unread && seen.status === 'open' ? { status: 'pending' as const, message: undefined } : seen;
    const returnTo = session.returnUrl ?? returnablePage(c.req.query('page'), c.var.services.options);
    if (returnTo) return c.redirect(merchantReturn(returnTo, session, status), 303);
    const language = customerLanguage(c, session.customer.lang);
    return sendPage(c, language, outcomePage(language, session, status, message, shopHome(c.var.services.options)));
  }));
  // A link cut short or run on (`/checkout/return/`, `…/<id>/x`) is a page too, never the API's JSON.
  routes.get('/return/*', (c) => notFoundPage(c, 'notFound'));

  return routes;
}

/** The merchant's return URL (or the page paid from) with `checkout_session`, `order_id` and `status` added. */
function merchantReturn(returnTo: string, session: CheckoutSession, status: SessionViewStatus): string {
  const url = new URL(returnTo);
  url.searchParams.set('checkout_session', session.id);
  url.searchParams.set('order_id', session.payment?.orderId ?? session.orderId);
  url.searchParams.set('status', status);
  return url.toString();
}
