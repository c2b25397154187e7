/**
 * Hosted checkout: the gateway's own page collects the card, which keeps card data off the
 * merchant entirely (the low PCI scope path). The companion creates the hosted payment and
 * hands the widget the page's address from the 303 `Location`; a second click gets the same
 * page. An order id someone else already used at the gateway (P-409) is left to them: the page
 * opens under the session's next order id.
 */
import { DuplicateOrderError, minorUnits } from '@payform/gateway';
import type { HostedPaymentParams, HostedSplitPurchaseParams } from '@payform/gateway';
import { holdsSession } from '../../ledger/index.js';
import type { CheckoutSession, CustomerDetails, Payment } from '../../ledger/index.js';
import type { PaymentFlowDeps } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import { definedFields } from '../optional-fields.js';
import { isAllowedRedirect, originOf, unsafeRedirectFix } from '../payments/redirects.js';
import { pageLost } from '../payments/lost-page.js';
import { cancelHostedPage, endNotSent, endTakenAttempt, endUnsentAttempt, readOrderState, madeHere, sentBefore } from './attempt-outcomes.js';
import type { AttemptSend } from './attempt-outcomes.js';
import { customerDetails, customerParams } from './customer.js';
import type { Customer } from './customer.js';
import { browserLanguage } from './page-words.js';
import { closedSessionProblem, liveAttempt, payableSession, requireCustomer } from './session-access.js';
import { resultUrl } from './payer-page.js';
import type { PayerPages } from './payer-page.js';

/**
 * Who opens the page. `pageUrl`: the page paid from (the widget's `page_url`); checked, the
 * customer returns there. `client`: the customer's address (UNKNOWN_CLIENT when the host passed
 * none), whose record the page's decision joins. `acceptLanguage`: the browser's, for the page's
 * language when the session names none.
 */
export interface HostedOpener {
  readonly pageUrl?: string | undefined;
  readonly client?: string | undefined;
  readonly acceptLanguage?: string | undefined;
  /** Told the order a page is opened for: the request's line names it. */
  readonly attempting?: (orderId: string) => void;
}

const tryAgain = () => new ApiProblem(503, 'gateway_unavailable', 'The payment page could not be opened; try again', undefined, { 'Retry-After': '2' });

export class HostedCheckouts {
  readonly #deps: PaymentFlowDeps;
  readonly #pages: PayerPages;

  constructor(deps: PaymentFlowDeps, pages: PayerPages) {
    this.#deps = deps;
    this.#pages = pages;
  }

  /** The address of the gateway's payment page for this session, opened by `payer` as `from` says. */
  async open(sessionId: string, payer: Customer | undefined, from: HostedOpener = {}): Promise<string> {
    const { pageUrl, client } = from;
    const { ledger } = this.#deps;
    const session = await payableSession(ledger, sessionId, 'hosted', this.#deps.options.tokenizer !== undefined);
    from.attempting?.(session.orderId);
    const live = session.payment && holdsSession(session.payment) ? session.payment : undefined;
    if (live) return this.#pageOf(live);
    if (session.status === 'closed' || session.status === 'expired') throw closedSessionProblem(session.status);
    // The page in the customer's language when the merchant named none, as the companion's own pages are.
    const spoken = session.customer.lang === undefined ? browserLanguage(from.acceptLanguage)?.toUpperCase() : undefined;
    const customer: CustomerDetails = { ...customerDetails(payer ?? {}), ...session.customer, ...(spoken && { lang: spoken }) };
    requireCustomer('hosted', customer, session.method, this.#deps.options.merchantSector);
    const claim = await ledger.claimPayAttempt(session.id, { mode: 'hosted', customer });
    if (!claim.claimed) return this.#pageOf(liveAttempt(claim));
    const page = session.returnUrl ? undefined : this.#pages.returnable(pageUrl);
    return this.#attempt(session, claim.payment, customer, page, { retry: true, resent: claim.resent }, client);
  }

  /**
   * Closes the session to further attempts and cancels the page of one opened and left unpaid:
   * a checkout the merchant closed (the cart changed, the stock gone) is not then paid on a page
   * still open. A page the customer is paying on right now, like any attempt in flight, is left
   * to finish (the gateway refuses to cancel it). Undefined for an unknown session.
   */
  async close(sessionId: string): Promise<CheckoutSession | undefined> {
    const { ledger } = this.#deps;
    if (!(await ledger.getSession(sessionId))) return undefined;
    const session = await ledger.closeSession(sessionId);
    const live = session.payment;
    if (live?.mode !== 'hosted' || live.status !== 'init' || live.unsentAt !== null) return session;
    // Not cancelled now (the gateway away): reconciliation cancels a closed session's page.
    if (!(await cancelHostedPage(this.#deps, live))) return session;
    return (await ledger.getSession(sessionId)) ?? session;
  }

  /**
   * Creates one attempt's page. An order id someone else used at the gateway goes on once under
   * the next — unless this attempt was sent before: then the duplicate may be its first send.
   */
  async #attempt(session: CheckoutSession, payment: Payment, customer: CustomerDetails, page: string | undefined, send: AttemptSend, client: string | undefined): Promise<string> {
    // Its decision comes by webhook or a read: it is counted against the client then (not sent, it is not).
    if (client !== undefined) this.#deps.reactions.awaitDecision(payment.orderId, client);
    try {
      return await this.#create(session, payment, customer, page);
    } catch (error) {
      if (!(error instanceof DuplicateOrderError)) return this.#recover(payment, error, send);
      if (send.resent || madeHere(payment)) return this.#recover(payment, sentBefore(payment, error), send);
      await endTakenAttempt(this.#deps, payment);
      if (!send.retry) throw tryAgain();
      const next = await this.#deps.ledger.claimPayAttempt(session.id, { mode: 'hosted', customer });
      if (!next.claimed) return this.#pageOf(liveAttempt(next));
      return this.#attempt(session, next.payment, customer, page, { retry: false, resent: next.resent }, client);
    }
  }

  /**
   * An attempt already under way: its page when it is a hosted one still open. One whose page's
   * address was lost with the gateway away (pageLost) is cancelled by reconciliation, and the next
   * click opens a fresh one — so, try again; one being opened now is in progress.
   */
  #pageOf(payment: Payment): string {
    if (payment.status === 'success') throw new ApiProblem(409, 'already_paid', 'This checkout session is paid');
    if (payment.mode === 'hosted' && payment.checkoutUrl) return payment.checkoutUrl;
    if (pageLost(payment, this.#deps.clock(), this.#deps.gateway.timeoutMs)) throw tryAgain();
    throw new ApiProblem(409, 'payment_in_progress', 'A payment for this checkout session is in progress');
  }

  async #create(session: CheckoutSession, payment: Payment, customer: CustomerDetails, page: string | undefined): Promise<string> {
    const { gateway, ledger, options, clock } = this.#deps;
    const params = definedFields({
      mode: 'hosted' as const,
      method: session.method,
      amount: minorUnits(session.amount),
      currency: session.currency,
      description: session.description,
      order_id: payment.orderId,
      ...customerParams(customer),
      // The gateway takes no language for a lookup's page.
      customer_lang: session.method === 'lookup' ? undefined : customer.lang,
      customer_id: session.customerId ?? undefined,
      server_url: `${options.publicUrl}/webhooks/gateway`,
      result_url: resultUrl(options, session.id, page),
      // The page lives no longer than the session it pays.
      order_timeout: Math.max(60, Math.ceil((session.expiresAt - clock()) / 1000)),
    });
    const split = session.split?.map((share) => ({ amount: minorUnits(share.amount), sub_merchant_id: share.subMerchantId }));
    const checkout = split
      ? await gateway.payments.createSplit({ ...params, method: 'purchase', split } as HostedSplitPurchaseParams)
      : await gateway.payments.create(params as HostedPaymentParams);
    if (!isAllowedRedirect(checkout.checkout_url, options.sandboxOrigin)) {
      const origin = originOf(checkout.checkout_url);
      this.#deps.logger.error(`the gateway sent a payment page that is neither https nor the sandbox: ${unsafeRedirectFix(origin, this.#deps.options.sandboxOrigin)}`, { order_id: payment.orderId, origin });
      await cancelHostedPage(this.#deps, payment);
      throw new ApiProblem(502, 'unsafe_redirect', 'The gateway’s payment page address is not safe to open');
    }
    const stored = await ledger.advancePayment(payment.orderId, { status: 'init', checkoutUrl: checkout.checkout_url });
    if (stored.payment.status === 'init' && stored.payment.checkoutUrl === checkout.checkout_url) return checkout.checkout_url;
    // Ended while it was being opened (a card payment in another tab cancelled it): the page is
    // gone; the session's attempt now is the answer.
    const current = (await ledger.getSession(payment.sessionId))?.payment;
    if (current && current.status !== 'failure') return this.#pageOf(current);
    throw tryAgain();
  }

  async #recover(payment: Payment, error: unknown, send: AttemptSend): Promise<string> {
    const unknown = await endUnsentAttempt(this.#deps, payment, error, send);
    const state = await readOrderState(this.#deps, payment, unknown);
    // Created but its address lost: nobody can reach that page, so it is cancelled and the
    // next click opens a fresh one. (An attempt sent before may have been a card payment.)
    if (state?.found === false) await endNotSent(this.#deps, payment, 'Not created at the gateway', send, 'order_state');
    else if (state?.payment?.status === 'init') await cancelHostedPage(this.#deps, payment);
    else if (state?.payment) return this.#pageOf(state.payment);
    throw tryAgain();
  }
}
