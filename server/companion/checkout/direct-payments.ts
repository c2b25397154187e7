/**
 * A direct payment from the widget: the companion holds the card data for the length of this
 * one call, sends it to the gateway once, and answers from what the ledger then knows.
 *
 * One attempt per session at a time: the ledger's claim makes a payment row before the
 * gateway is called, so a second click (or tab, or instance) is answered with the attempt in
 * flight. When the gateway's answer is lost (timeout, 5xx, dropped connection) the order's
 * state is read instead — a payment is never created twice.
 */
import { DuplicateOrderError, minorUnits, readRichAnswer, RichAnswerError } from '@payform/gateway';
import type { RichAnswer } from '@payform/gateway';
import type { Payment as GatewayPayment, DirectPaymentParams, DirectSplitPurchaseParams } from '@payform/gateway';
import { LedgerNotFound, holdsSession, isLedgerUnavailable } from '../../ledger/index.js';
import type { CheckoutSession, CustomerDetails, PayAttemptClaim, Payment, PaymentUpdate } from '../../ledger/index.js';
import type { PaymentFlowDeps } from '../context.js';
import { UNKNOWN_CLIENT } from '../http/client-address.js';
import { ApiProblem } from '../http/problem.js';
import { definedFields } from '../optional-fields.js';
import { paymentUpdate } from '../payments/gateway-facts.js';
import { customerDetails, customerParams } from './customer.js';
import type { Customer } from './customer.js';
import { heldAnswer, joinedAnswer, payAnswer } from './pay-answer.js';
import type { PayAnswer } from './pay-answer.js';
import type { HeldAnswers } from './held-answers.js';
import type { BrowserFingerprint, CardInput } from './pay-request.js';
import { cancelHostedPage, endTakenAttempt, endUnsentAttempt, readOrderState, madeHere, sentBefore } from './attempt-outcomes.js';
import type { AttemptSend } from './attempt-outcomes.js';
import { closedSessionProblem, liveAttempt, payableSession, requireCustomer } from './session-access.js';
import { resultUrl } from './payer-page.js';
import type { PayerPages } from './payer-page.js';
import type { KnownSessions, SessionTerms } from './session-terms.js';
import { brandRefusal, maskBrandRefusal } from './accepted-brands.js';
import { hasExpired } from '@payform/card/fields';
import { originOf, unsafeRedirectFix } from '../payments/redirects.js';
import { offers } from './session-view.js';

/** What the HTTP request adds: who is paying, from where, with which browser. */
export interface PayingClient {
  readonly ip: string;
  readonly accept: string;
  readonly userAgent: string;
}

export interface DirectPayment {
  readonly sessionId: string;
  readonly card: CardInput;
  readonly customer: Customer | undefined;
  readonly fingerprint: BrowserFingerprint;
  readonly client: PayingClient;
  /** The page paid from (the widget's `page_url`), checked: the return after 3-D Secure goes there. */
  readonly pageUrl?: string | undefined;
  /** Told the order an attempt is made for, before it is sent: the request's line names it. */
  readonly attempting?: (orderId: string) => void;
}

/** A customer's address nobody knows (the pay route's fallback too). */
const UNKNOWN_ADDRESS = '0.0.0.0';

/** A charge without the customer has no browser: the fingerprint's fields go empty. */
const ABSENT_BROWSER: BrowserFingerprint = {
  browserColorDepth: '', browserScreenHeight: '', browserScreenWidth: '', browserJavaEnabled: '',
  browserLanguage: '', browserTimeZone: '', browserTimeZoneOffset: '',
};

/**
 * The address the pay request came from, for its log line and its network's declines:
 * UNKNOWN_CLIENT for a customer whose address the host did not pass (counted in the decline rate
 * only); none for a merchant's charge (no browser: its server asked, and the address it gave is
 * the customer's at some other time).
 */
const payerAddress = (request: DirectPayment): string | undefined =>
  request.fingerprint === ABSENT_BROWSER ? undefined : request.client.ip === UNKNOWN_ADDRESS ? UNKNOWN_CLIENT : request.client.ip;

const REFUSED_PAGES_KEPT = 1_000;

/** The gateway asked for its 3-D Secure page, and the update left it out: not an address to send a customer to. */
const redirectRefused = (answer: GatewayPayment, update: PaymentUpdate): boolean => answer.status === 'pending' && Boolean(answer.user_action_url) && !update.userActionUrl;

type CardSource = { readonly cc_token: string } | { readonly cc_number: string; readonly exp_month: number; readonly exp_year: number; readonly card_cvv: string };

/** What the gateway is sent for the card, and whether it is one of the customer's saved cards. */
interface PayingCard {
  readonly source: CardSource;
  readonly saved: boolean;
}

/** A card of a scheme the shop does not take (acceptedBrands), named by its scheme, never its digits. */
const notAccepted = (field: 'card.number' | 'card.token', reason: string) =>
  new ApiProblem(422, 'card_brand_not_accepted', 'The shop does not take cards of this scheme', { [field]: reason });

export class DirectPayments {
  readonly #deps: PaymentFlowDeps;
  readonly #held: HeldAnswers;
  readonly #known: KnownSessions;
  readonly #pages: PayerPages;
  /** A sealed token that did not open has been logged (#unsealed). */
  #toldSealKey = false;
  /** Card data refused in tokenize mode has been logged (#cardSource). */
  #toldCardData = false;
  /** Order ids whose 3-D Secure page the gateway gave was refused (#update): their attempts cannot go on. */
  readonly #refusedPages = new Set<string>();

  constructor(deps: PaymentFlowDeps, held: HeldAnswers, known: KnownSessions, pages: PayerPages) {
    this.#deps = deps;
    this.#held = held;
    this.#known = known;
    this.#pages = pages;
  }

  /** The widget sends cards to the gateway's tokenizer: this companion takes tokens only. */
  get #tokenizes(): boolean {
    return this.#deps.options.tokenizer !== undefined;
  }

  async pay(request: DirectPayment): Promise<PayAnswer> {
    // An answer the database missed is written first, so the attempt below reads as the gateway left it.
    await this.#held.release(request.sessionId);
    const terms = this.#known.terms(request.sessionId);
    const answer = (terms && (await this.#payKnown(terms, request))) ?? (await this.#payRead(request));
    // The gateway asked for a page the customer cannot be sent to (#update said why): told, at the
    // first click and at any later one, not left on "Confirming your payment…" for a challenge
    // nobody can take. (A merchant's saved-card charge answers pending, its customer elsewhere.)
    if (answer.status === 'pending' && this.#refusedPages.has(answer.order_id)) {
      throw new ApiProblem(502, 'unsafe_redirect', 'The gateway’s 3-D Secure page address is not safe to open');
    }
    return answer;
  }

  /**
   * The answer of an attempt that may have failed: a failure says whether the session takes
   * another, judged by that attempt's number, not by the session as it is now (another tab may
   * be paying it). Not once its failures used up its attempts, so the widget closes the form
   * rather than offer one the claim would refuse; a read only from the tenth on. The ledger
   * away for it, the decline is still told as it happened, without `retryable`.
   */
  async #answer(payment: Payment): Promise<PayAnswer> {
    const answer = payAnswer(payment);
    if (answer.status !== 'failure') return answer;
    try {
      return { ...answer, retryable: await this.#deps.ledger.takesAnotherAttempt({ id: payment.sessionId, payment }) };
    } catch (error) {
      if (isLedgerUnavailable(error)) return answer;
      throw error;
    }
  }

  /**
   * A session this process knows the terms of: they are checked, and the claim — which reads the
   * session's closing and attempts under its lock — decides the rest, one read fewer. Undefined
   * when the answer is another than a new attempt or the attempt in flight (a check refused, the
   * session closed, expired or gone, a hosted page left unpaid): the path that reads the session
   * first gives it, its checks in its order.
   */
  async #payKnown(terms: SessionTerms, request: DirectPayment): Promise<PayAnswer | undefined> {
    if (!offers(terms, 'direct', this.#tokenizes)) return undefined;
    const customer = this.#customerOf(terms, request);
    let card: PayingCard;
    try {
      this.#refuseCardData(request.card);
      requireCustomer('direct', customer, terms.method, this.#deps.options.merchantSector);
      card = await this.#cardSource(terms, request.card);
    } catch (error) {
      if (error instanceof ApiProblem) return undefined;
      throw error;
    }
    let claim: PayAttemptClaim;
    try {
      claim = await this.#deps.ledger.claimPayAttempt(terms.id, { mode: 'direct', customer });
    } catch (error) {
      if (error instanceof LedgerNotFound) return undefined;
      throw error;
    }
    if (claim.claimed) return this.#attempt(terms, claim.payment, card, customer, request, { retry: true, resent: claim.resent });
    const live = claim.payment;
    const holds = claim.reason === 'in_flight' || claim.reason === 'paid';
    return holds && live && !(live.mode === 'hosted' && live.status === 'init') ? joinedAnswer(live) : undefined;
  }

  /** What the merchant prefilled is not the payer's to change. */
  #customerOf(terms: SessionTerms, request: DirectPayment): CustomerDetails {
    return { ...customerDetails(request.customer ?? {}), ...terms.customer };
  }

  async #payRead(request: DirectPayment): Promise<PayAnswer> {
    const { ledger } = this.#deps;
    let session = await payableSession(ledger, request.sessionId, 'direct', this.#tokenizes);
    const live = session.payment && holdsSession(session.payment) ? session.payment : undefined;
    if (live) {
      // A hosted page opened and left unpaid gives way to paying by card here.
      const abandoned = live.mode === 'hosted' && live.status === 'init' && (await cancelHostedPage(this.#deps, live));
      if (!abandoned) return joinedAnswer(live);
      session = await payableSession(ledger, request.sessionId, 'direct', this.#tokenizes);
    }
    if (session.status === 'closed' || session.status === 'expired') throw closedSessionProblem(session.status);
    const customer = this.#customerOf(session, request);
    this.#refuseCardData(request.card);
    requireCustomer('direct', customer, session.method, this.#deps.options.merchantSector);
    const card = await this.#cardSource(session, request.card);

    const claim = await ledger.claimPayAttempt(session.id, { mode: 'direct', customer });
    if (!claim.claimed) return joinedAnswer(liveAttempt(claim));
    return this.#attempt(session, claim.payment, card, customer, request, { retry: true, resent: claim.resent });
  }

  /**
   * A merchant-initiated payment of `session` (opened for it) with a saved card's token. The
   * customer is not there: no browser to describe, and their address is not known. `customer`:
   * the details a retry of the charge sends, which may correct those its session was opened with.
   */
  async chargeSavedCard(session: CheckoutSession, ccToken: string, customer: CustomerDetails = session.customer): Promise<PayAnswer> {
    const claim = await this.#deps.ledger.claimPayAttempt(session.id, { mode: 'direct', customer });
    if (!claim.claimed) return joinedAnswer(liveAttempt(claim));
    const request: DirectPayment = {
      sessionId: session.id,
      card: { kind: 'token', token: ccToken },
      customer: undefined,
      fingerprint: ABSENT_BROWSER,
      client: { ip: customer.ip ?? UNKNOWN_ADDRESS, accept: '', userAgent: '' },
    };
    return this.#attempt(session, claim.payment, { source: { cc_token: ccToken }, saved: true }, customer, request, { retry: true, resent: claim.resent });
  }

  /**
   * Sends one attempt. An order id someone else used at the gateway goes on once under the next
   * — unless this attempt was sent before: then the duplicate may be its first send, landed late.
   */
  async #attempt(session: SessionTerms, payment: Payment, card: PayingCard, customer: CustomerDetails, request: DirectPayment, send: AttemptSend): Promise<PayAnswer> {
    request.attempting?.(payment.orderId);
    // Kept before it is sent: a decision a webhook or a read brings (the answer lost) counts against the client too.
    const client = payerAddress(request);
    if (client !== undefined) this.#deps.reactions.awaitDecision(payment.orderId, client);
    // Its success then refreshes the card while it is saved, never saves it again once deleted.
    if (card.saved) await this.#deps.ledger.markSavedCardPayment(payment.orderId);
    let answer: GatewayPayment;
    try {
      answer = await this.#create(session, payment, card.source, customer, request);
    } catch (error) {
      if (!(error instanceof DuplicateOrderError)) return this.#recover(session, payment, error, send);
      if (send.resent || madeHere(payment)) return this.#recover(session, payment, sentBefore(payment, error), send);
      await endTakenAttempt(this.#deps, payment);
      if (!send.retry) return this.#answer((await this.#deps.ledger.getPayment(payment.orderId)) ?? payment);
      const next = await this.#deps.ledger.claimPayAttempt(session.id, { mode: 'direct', customer });
      if (!next.claimed) return joinedAnswer(liveAttempt(next));
      return this.#attempt(session, next.payment, card, customer, request, { ...send, retry: false, resent: next.resent });
    }
    return this.#recordOrHold(session, payment, this.#update(payment, answer), client);
  }

  async #recordOrHold(session: SessionTerms, payment: Payment, update: PaymentUpdate, client: string | undefined): Promise<PayAnswer> {
    try {
      return await this.#record(payment, update, client);
    } catch (error) {
      if (!isLedgerUnavailable(error)) throw error;
      // The gateway has the payment; the database is away. Written once it is back; the customer
      // is answered from it meanwhile, never told to try again what has happened.
      this.#held.hold(session.id, payment.orderId, error, async () => void (await this.#record(payment, update, client)));
      return heldAnswer(payment, update);
    }
  }

  /** Card data where the widget tokenizes: refused as the body's 400, before any 422 of the payment's rules. */
  #refuseCardData(card: CardInput): void {
    if (card.kind === 'card' && this.#tokenizes) {
      // A page or client of before the widget key (a cached script, an integration of its own)
      // fails every payment so, and only the operator can see why: said once.
      if (!this.#toldCardData) {
        this.#toldCardData = true;
        this.#deps.logger.warn(
          'a client sent card data to pay with, which this companion refuses since PAYFORM_GATEWAY_WIDGET_KEY has <pay-form> tokenize cards: every such payment fails; ' +
            'serve the pages the current widget (not a copy cached from before), or have your own client send the tokenizer’s token as card.token. Said once',
        );
      }
      throw new ApiProblem(400, 'card_data_refused', 'This checkout takes no card data: the card goes to the gateway’s tokenizer, and its token is paid with', {
        'card.number': 'is not accepted here; send the tokenizer’s token as card.token',
      });
    }
  }

  /**
   * Full card data, or the gateway token of one of this customer's saved cards, or — when the
   * widget tokenizes — the token the gateway's tokenizer gave the browser. A companion whose widget
   * tokenizes takes no card number: its server stays out of the card's way.
   */
  async #cardSource(session: SessionTerms, card: CardInput): Promise<PayingCard> {
    // A charge's session (its 3-D Secure link) pays that charge with the charged card only: after
    // a failed challenge, whoever holds the link must not pick a card that needs no challenge.
    if (session.cardId !== null && (card.kind !== 'token' || card.token !== session.cardId)) {
      throw new ApiProblem(422, 'card_not_allowed', 'This payment can only be made with the saved card it was made for', {
        card: 'must be the saved card this payment was made for',
      });
    }
    const tokenizes = this.#tokenizes;
    const { acceptedBrands } = this.#deps.options;
    if (card.kind === 'card') {
      const refusal = brandRefusal(card.number, acceptedBrands);
      if (refusal) throw notAccepted('card.number', refusal);
      if (hasExpired(card.expMonth, card.expYear, this.#deps.clock())) throw new ApiProblem(422, 'card_expired', 'The card has expired', { 'card.exp_month': 'the card has expired' });
      return { source: { cc_number: card.number, exp_month: card.expMonth, exp_year: card.expYear, card_cvv: card.cvv }, saved: false };
    }
    // A card verification takes card data only: the gateway refuses a token in a lookup.
    const saved = session.customerId && session.method !== 'lookup' ? await this.#deps.ledger.findCard(session.customerId, card.token) : undefined;
    // A card known by its mask is held to the schemes too: the widget key is public, any client may tokenize.
    const known = saved ? { token: saved.ccToken, card_mask: saved.ccMask } : tokenizes && session.method !== 'lookup' ? this.#unsealed(card.token) : undefined;
    if (!known) throw new ApiProblem(422, 'unknown_card', 'The saved card was not found', { 'card.token': 'is not a saved card of this customer' });
    const refusal = maskBrandRefusal(known.card_mask, acceptedBrands);
    if (refusal) throw notAccepted('card.token', refusal);
    return { source: { cc_token: known.token }, saved: saved !== undefined };
  }

  /**
   * What the tokenizer sealed for this shop: the token and the card's mask. A plain card token is
   * refused: one got anywhere else (a leaked webhook, another system) would charge that card here unasked.
   */
  #unsealed(sealed: string): RichAnswer {
    try {
      return readRichAnswer(sealed, this.#deps.options.tokenizer!.sealKey);
    } catch (error) {
      if (!(error instanceof RichAnswerError)) throw error;
      // In the sealed form yet not opening: another key sealed it. Every customer's payment would be
      // refused so, and a forger's too: said once, for the operator to compare the secret.
      if (error.cause !== undefined && !this.#toldSealKey) {
        this.#toldSealKey = true;
        this.#deps.logger.error(
          'a card token the widget sent is sealed, but not with PAYFORM_GATEWAY_API_SECRET (the gatewayApiSecret option): if every tokenized payment is refused (422 unknown_card), check it against the gateway project’s secret key (a lone forged token reads the same)',
        );
      }
      throw new ApiProblem(422, 'unknown_card', 'The card token is neither the tokenizer’s, sealed for this shop, nor a saved card of this customer', {
        'card.token': 'is not a token the tokenizer sealed for this shop, nor a saved card of this customer',
      });
    }
  }

  #create(session: SessionTerms, payment: Payment, card: CardSource, customer: CustomerDetails, request: DirectPayment): Promise<GatewayPayment> {
    const { gateway, options } = this.#deps;
    const { client } = request;
    const params = definedFields({
      mode: 'direct' as const,
      method: session.method,
      amount: minorUnits(session.amount),
      currency: session.currency,
      description: session.description,
      order_id: payment.orderId,
      ...card,
      ...customerParams(customer),
      customer_id: session.customerId ?? undefined,
      customer_ip: client.ip,
      browser_fingerprint: {
        ...request.fingerprint,
        browserAcceptHeader: client.accept.slice(0, 2048),
        browserIpAddress: client.ip,
        browserUserAgent: client.userAgent.slice(0, 2048),
      },
      server_url: `${options.publicUrl}/webhooks/gateway`,
      // The merchant's return_url wins at the landing: the page is only its stand-in.
      result_url: resultUrl(options, session.id, session.returnUrl ? undefined : this.#pages.returnable(request.pageUrl)),
    });
    if (!session.split) return gateway.payments.create(params as DirectPaymentParams);
    const split = session.split.map((share) => ({ amount: minorUnits(share.amount), sub_merchant_id: share.subMerchantId }));
    return gateway.payments.createSplit({ ...params, method: 'purchase', split } as DirectSplitPurchaseParams);
  }

  /** What the gateway's answer says of `payment`, its redirect kept only when it is safe to send a customer to. */
  #update(payment: Payment, answer: GatewayPayment): PaymentUpdate {
    const update = paymentUpdate(answer, this.#deps.options.sandboxOrigin);
    if (redirectRefused(answer, update)) {
      // Only a development gateway's (production takes https pages only): a handful, kept for the process.
      if (this.#refusedPages.size >= REFUSED_PAGES_KEPT) this.#refusedPages.clear();
      this.#refusedPages.add(payment.orderId);
      const origin = originOf(answer.user_action_url);
      this.#deps.logger.error(`refused a redirect that is neither https nor the sandbox: ${unsafeRedirectFix(origin, this.#deps.options.sandboxOrigin)}`, { order_id: payment.orderId, origin });
    }
    return update;
  }

  /** The gateway answered: store what it said (unless a webhook got there first) and answer. */
  async #record(payment: Payment, update: PaymentUpdate, client: string | undefined): Promise<PayAnswer> {
    const { ledger, reactions, logger } = this.#deps;
    // The claim before the call was synced; the gateway keeps this answer and sends it again.
    const progress = await ledger.advancePayment(payment.orderId, update, { relaxed: true });
    await reactions.paymentProgressed(progress, 'gateway_answer', client);
    if (progress.progress === 'mismatch') logger.error('the gateway answered with another amount, currency or payment id; not applied', { order_id: payment.orderId, client });
    return this.#answer(progress.payment);
  }

  async #recover(session: SessionTerms, payment: Payment, error: unknown, send: AttemptSend): Promise<PayAnswer> {
    // A merchant's charge, whoever pays it (the merchant's call, or its 3-D Secure link's).
    const unknown = await endUnsentAttempt(this.#deps, payment, error, { ...send, charge: session.cardId != null });
    // It may have happened: the gateway's order state says what did.
    const state = await readOrderState(this.#deps, payment, unknown);
    if (state?.found && state.payment) return this.#answer(state.payment);
    // Still unknown: the reconciler settles it; the widget keeps waiting.
    return this.#answer((await this.#deps.ledger.getPayment(payment.orderId)) ?? payment);
  }
}

