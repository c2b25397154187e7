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
import { LedgerConflict } from '../../ledger/index.js';
import type { CheckoutSession, CustomerDetails, NewCheckoutSession, SavedCard } from '../../ledger/index.js';
import type { DirectPayments } from '../checkout/direct-payments.js';
import { payAnswer } from '../checkout/pay-answer.js';
import type { PayAnswer } from '../checkout/pay-answer.js';
import { paymentFields, sessionChecks, toNewSession } from '../checkout/session-request.js';
import { requireCustomer } from '../checkout/session-access.js';
import type { PaymentFlowDeps } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import { AmountView } from '../http/amounts.js';
import { gatewayTime } from '../payments/gateway-time.js';

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

  async charge(customerId: string, cardId: string, request: ChargeRequest): Promise<ChargeAnswer> {
    const { ledger, options, directPayments, logger } = this.#deps;
    const card = await this.#chargeableCard(customerId, cardId);
    // Who the cardholder is: what the merchant sends over what they last paid with.
    const known: CustomerDetails = (await ledger.cardholderOf(customerId, card.ccToken)) ?? {};
    const customer: CustomerDetails = { ...known, ...request.customer };
    requireCustomer('direct', customer, request.method);
    const session = await ledger
      .createSession({
        ...request,
        customer,
        customerId,
        cardId: card.id,
        allowedModes: ['direct'],
        ttlSeconds: options.sessionTtlSeconds,
      } satisfies NewCheckoutSession)
      .catch(async (error: unknown) => (await this.#unpaidChargeOf(request, customerId, card.id, error)) ?? Promise.reject(error));
    logger.info('charging a saved card for the merchant', { order_id: session.orderId, amount: session.amount, currency: session.currency });
    return this.#answer(session, await directPayments.chargeSavedCard(session, card.ccToken), card.id);
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
    return this.#answer(session, payAnswer(payment), session.cardId);
  }

  /**
   * The session of this very charge, made by a run of it that stopped before any payment was
   * claimed (the database went away between the two, or its instance stopped): taken up again,
   * since the gateway never heard of it. Undefined for any other session of the order id, whose
   * order_id_taken stands.
   */
  async #unpaidChargeOf(request: ChargeRequest, customerId: string, cardId: string, error: unknown): Promise<CheckoutSession | undefined> {
    if (!(error instanceof LedgerConflict) || error.reason !== 'order_id_taken' || request.orderId === undefined) return undefined;
    const session = await this.#deps.ledger.findSessionOfOrder(request.orderId);
    const same = session && !session.payment && session.customerId === customerId && session.cardId === cardId;
    return same && session.amount === request.amount && session.currency === request.currency && session.method === request.method ? session : undefined;
  }

  #answer(session: CheckoutSession, answer: PayAnswer, cardId: string): ChargeAnswer {
    return {
      ...chargeStatus(answer, `${this.#deps.options.publicUrl}/checkout/challenge/${session.id}`),
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
