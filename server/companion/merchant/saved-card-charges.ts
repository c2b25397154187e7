/**
 * Charges of a saved card from the merchant's server, without the customer (renewals, top-ups,
 * a second delivery). Each charge is a direct payment with the card's `cc_token`, made through
 * a checkout session of its own: the ledger, webhooks, reconciliation and `onPaymentEvent` take
 * it like any payment, and when the gateway asks for 3-D Secure that session is what the
 * customer is sent to (`challenge_url`) to complete it — with that card only: the session is
 * bound to it, so the link cannot pay the charge with another of the customer's cards.
 *
 * A card that is gone or past its token's expiry is refused before the gateway is called.
 */
import * as z from 'zod';
import { isUnsent, LedgerConflict, madeNoPayment } from '../../ledger/index.js';
import type { CheckoutSession, CustomerDetails, NewCheckoutSession, Payment, SavedCard, SplitShare } from '../../ledger/index.js';
import type { DirectPayments } from '../checkout/direct-payments.js';
import { payAnswer } from '../checkout/pay-answer.js';
import type { PayAnswer } from '../checkout/pay-answer.js';
import { paymentFields, sessionChecks, toNewSession } from '../checkout/session-request.js';
import { requireCustomer } from '../checkout/session-access.js';
import type { PaymentFlowDeps } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import { AmountView } from '../http/amounts.js';
import { gatewayTime } from '../payments/gateway-time.js';
import { currencyNotTaken } from '../checkout/accepted-currencies.js';
import { sectorDetailsMissing } from '../checkout/merchant-sector.js';

/** `POST /api/customers/:customer_id/cards/:card_id/charges`. */
export const ChargeRequest = sessionChecks(z.strictObject({ ...paymentFields, method: z.enum(['purchase', 'auth']).default('purchase') })).transform(toNewSession);
export type ChargeRequest = z.output<typeof ChargeRequest>;

export const ChargeAnswer = z.object({
  order_id: z.string(),
  payment_id: z.string().optional(),
  method: z.enum(['purchase', 'auth']),
  amount: AmountView,
  currency: z.string(),
  card_id: z.string(),
  status: z
    .enum(['success', 'failure', 'pending', 'action_required'])
    .describe('action_required: the gateway asks for 3-D Secure; send the customer to challenge_url. The final state arrives as for any payment.'),
  message: z.string().optional().describe('Customer-safe reason of a failure'),
  status_code: z.string().optional().describe('With failure: the gateway’s status code, its reason (4009 insufficient funds, 4001 card expired…), for deciding whether to charge again; absent when the gateway gave none'),
  challenge_url: z.string().optional().describe('With action_required: the companion page that takes the customer to the 3-D Secure challenge'),
});
export type ChargeAnswer = z.infer<typeof ChargeAnswer>;

interface ChargeDeps extends PaymentFlowDeps {
  readonly directPayments: DirectPayments;
}

export class SavedCardCharges {
  readonly #deps: ChargeDeps;

  constructor(deps: ChargeDeps) {
    this.#deps = deps;
  }

  /** `keyedOrderId`: the order id its Idempotency-Key gives a charge sent without its own. */
  async charge(customerId: string, cardId: string, request: ChargeRequest, keyedOrderId?: string): Promise<ChargeAnswer> {
    const { ledger, options, directPayments, logger } = this.#deps;
    const currency = currencyNotTaken(request.currency, options.currencies);
    if (currency) throw ApiProblem.invalid({ currency });
    const card = await this.#chargeableCard(customerId, cardId);
    // Who the cardholder is: what the merchant sends over what they last paid with.
    const known: CustomerDetails = (await ledger.cardholderOf(customerId, card.ccToken)) ?? {};
    const customer: CustomerDetails = { ...known, ...request.customer };
    requireCustomer('direct', customer, request.method, options.merchantSector);
    const sectorDetails = sectorDetailsMissing(options.merchantSector, { ...request, customer });
    if (sectorDetails) throw ApiProblem.invalid(sectorDetails);
    const orderId = request.orderId ?? keyedOrderId;
    const terms: NewCheckoutSession = { ...request, ...(orderId && { orderId }), customer, customerId, cardId: card.id, allowedModes: ['direct'], ttlSeconds: options.sessionTtlSeconds };
    const anew = request.orderId === undefined ? 'a new Idempotency-Key (this order id is its key’s)' : 'a new order id';
    const session = await ledger.createSession(terms).catch(async (error: unknown) => (await this.#takenUp(terms, anew, error)) ?? Promise.reject(error));
    logger.info('charging a saved card for the merchant', { order_id: session.orderId, amount: session.amount, currency: session.currency });
    const answer = await directPayments.chargeSavedCard(session, card.ccToken, customer).catch((error: unknown) => {
      // Said of a charge, not of a checkout the merchant never opened.
      if (!(error instanceof ApiProblem) || error.code !== 'retry_unavailable') throw error;
      throw new ApiProblem(409, 'retry_unavailable', `order id ${session.orderId} takes no more attempts (its ten attempts are used up); charge again under ${anew}`);
    });
    // A decline's reason is the merchant's to act on (retry later, or ask for another card).
    const failed = answer.status === 'failure' ? await ledger.getPayment(answer.order_id) : undefined;
    return this.#answer(session, answer, card.id, failed?.statusCode);
  }

  /**
   * A charge as the ledger has it, by its order id: what a retry of a request interrupted
   * mid-way is answered once its payment has left `init` (then the gateway has spoken). Undefined
   * while that is not known, or when no charge has this order id.
   */
  async known(orderId: string): Promise<ChargeAnswer | undefined> {
    const session = await this.#deps.ledger.findSessionOfOrder(orderId);
    const payment = session?.payment;
    if (!session?.cardId || !payment || payment.status === 'init') return undefined;
    return this.#answer(session, payAnswer(payment), session.cardId, payment.statusCode);
  }

  /**
   * The session a charge whose order id is taken goes on with: this very charge's — the same
   * customer, card and terms — while the gateway holds no payment of it. Made by a run that
   * stopped before claiming an attempt (the database went away, its instance stopped), it is
   * taken up again. After a refusal up front (422), a call the gateway never received (503), or
   * an attempt reconciliation ended as never sent, the retry those answers invite — the next day
   * too — is claimed as its next attempt (`<order_id>:2`, as a checkout's retry is), or the unsent
   * one again under its own order id. Otherwise order_id_taken stands, saying why when the order
   * is this customer's charge.
   */
  async #takenUp(terms: NewCheckoutSession, anew: string, error: unknown): Promise<CheckoutSession | undefined> {
    const { orderId } = terms;
    if (!(error instanceof LedgerConflict) || error.reason !== 'order_id_taken' || orderId === undefined) return undefined;
    const { ledger, options } = this.#deps;
    const session = await ledger.findSessionOfOrder(orderId);
    if (!session?.cardId || session.customerId !== terms.customerId) return undefined;
    const taken = (why: string) => new ApiProblem(409, 'order_id_taken', `order id ${orderId} ${why}`);
    if (session.payment && !madeNoPayment(session.payment)) throw taken(takenBecause(orderId, session.payment, anew));
    if (!sameCharge(session, terms)) {
      throw taken(`is a charge the gateway never took, of other terms (card, amount, currency, method, description or split): send it again as it was, or this one under ${anew}`);
    }
    const reopening = await ledger.reopenCharge(session.id, options.sessionTtlSeconds);
    if (reopening === 'reopened') return session;
    if (reopening === 'closed') {
      // Ended as never sent, its first send may still land: a charge under a new order id would pay beside it.
      const unsent = session.payment && isUnsent(session.payment);
      throw taken(`is a charge whose session was closed; ${unsent ? `its last attempt may still reach the gateway: see GET /api/orders/${orderId} before charging under ${anew}` : `charge again under ${anew}`}`);
    }
    // Taken meanwhile, or an earlier attempt the gateway answered: a decline, the latest a try never sent.
    const now = (await ledger.getSession(session.id))?.payment;
    throw taken(now && !madeNoPayment(now) ? takenBecause(orderId, now, anew) : `was declined by the gateway in an earlier attempt; charge again under ${anew}`);
  }

  #answer(session: CheckoutSession, answer: PayAnswer, cardId: string, statusCode?: string | null): ChargeAnswer {
    return {
      ...chargeStatus(answer, `${this.#deps.options.publicUrl}/checkout/challenge/${session.id}`),
      ...(answer.status === 'failure' && statusCode ? { status_code: statusCode } : {}),
      order_id: answer.order_id,
      ...(answer.payment_id ? { payment_id: answer.payment_id } : {}),
      method: session.method === 'auth' ? 'auth' : 'purchase',
      amount: session.amount,
      currency: session.currency,
      card_id: cardId,
    };
  }

  /** The customer's card by its id, refused (409) when it is gone or expired. */
  async #chargeableCard(customerId: string, cardId: string): Promise<SavedCard> {
    const card = cardId.length <= 64 ? await this.#deps.ledger.findCard(customerId, cardId) : undefined;
    // Only by its id: the token is never a name the merchant holds.
    if (card?.id !== cardId) {
      throw new ApiProblem(409, 'card_not_saved', 'This customer has no such saved card (deleted, or never saved)');
    }
    const expiresAt = gatewayTime(card.tokenExpiration);
    if (expiresAt !== undefined && expiresAt < this.#deps.clock()) {
      throw new ApiProblem(409, 'card_expired', `The saved card expired at ${new Date(expiresAt).toISOString()}; ask the customer for another card`);
    }
    return card;
  }
}

/** Why a charge's order id takes no retry: the gateway has a payment of it, or may have. */
function takenBecause(orderId: string, latest: Payment, anew: string): string {
  if (latest.status === 'success') return `succeeded (its attempt ${latest.orderId})`;
  if (latest.status === 'failure') return `failed at the gateway (${latest.statusCode ?? latest.statusDescription ?? 'no reason given'}); charge again under ${anew}`;
  return `is being charged: its outcome is not known yet, and GET /api/orders/${orderId} tells it (charging again could pay twice)`;
}

/** Whether a charge's session is the one these terms make: a session is paid on the terms it was opened with. */
function sameCharge(session: CheckoutSession, terms: NewCheckoutSession): boolean {
  const shares = (split: readonly SplitShare[] | null | undefined) => JSON.stringify(split?.map((share) => `${share.subMerchantId} ${share.amount}`).sort() ?? null);
  const same = session.cardId === terms.cardId && session.amount === terms.amount && session.currency === terms.currency && session.method === terms.method;
  return same && session.description === terms.description && shares(session.split) === shares(terms.split);
}

function chargeStatus(answer: PayAnswer, challengeUrl: string): Pick<ChargeAnswer, 'status' | 'message' | 'challenge_url'> {
  switch (answer.status) {
    case 'redirect':
      return { status: 'action_required', challenge_url: challengeUrl };
    case 'failure':
      return { status: 'failure', ...(answer.message ? { message: answer.message } : {}) };
    default:
      return { status: answer.status };
  }
}
