/**
 * What a pay or hosted attempt does when the gateway's answer to its create is not a payment:
 * a definite refusal or a call never sent ends the attempt (the session may try again under a
 * new order id); an answer that may have been lost leads to the order's state instead; an order
 * id someone else already used at the gateway ends it too, never adopting their payment.
 */
import { GatewayError, InvalidRequestError, OutcomeUnknownError } from '@payform/gateway';
import type { DuplicateOrderError, MerchantSector } from '@payform/gateway';
import { isNewOrderId, REFUSED_REASON } from '../../ledger/index.js';
import type { Payment } from '../../ledger/index.js';
import type { PaymentFlowDeps } from '../context.js';
import { gatewayProblem } from '../http/failure-problems.js';
import { isKeyedOrderId } from '../http/keyed-order-id.js';
import { ApiProblem, fieldReasons } from '../http/problem.js';
import { definedFields } from '../optional-fields.js';
import { notSentProblemOf, notSentReason } from '../payments/not-sent.js';
import { RECOVERY_READ_MS } from '../payments/order-state.js';
import type { OrderRefresh } from '../payments/order-state.js';
import type { ChangeSource } from '../payments/payment-change.js';
import { tellRefusedCurrency } from './refused-currency.js';
import { requestField } from './request-fields.js';

/** Ends an attempt that got no decision from the gateway, so the session can take another. */
export async function endAttempt(deps: PaymentFlowDeps, payment: Payment, reason: string, statusCode?: string, source: ChangeSource = 'gateway_answer'): Promise<void> {
  const update = definedFields({ status: 'failure' as const, statusDescription: reason.slice(0, 2048), statusCode });
  const progress = await deps.ledger.advancePayment(payment.orderId, update);
  await deps.reactions.paymentProgressed(progress, source);
}

/**
 * P-409 on an order id this ledger has just claimed for a new attempt: the ledger never sends a
 * create twice, so the id was used at the gateway by someone else — another integration on the
 * same project, or this companion before its database was restored from a backup older than
 * that payment (madeHere tells the second). Nothing of another's is touched: the attempt ends,
 * and the caller goes on under the session's next order id.
 */
export async function endTakenAttempt(deps: PaymentFlowDeps, payment: Payment): Promise<void> {
  deps.logger.warn('the order id is already used at the gateway by another payment; the checkout goes on under its next order id', { order_id: payment.orderId });
  await endAttempt(deps, payment, ORDER_ID_TAKEN);
}

export const ORDER_ID_TAKEN = 'The order id is already used at the gateway by another payment';

/** How an attempt is being sent: whether a taken order id may go on under the next, and whether it was sent before. */
export interface AttemptSend {
  readonly retry: boolean;
  /** Sent again after it was ended as never sent (PayAttemptClaim `resent`). */
  readonly resent: boolean;
  /**
   * A merchant's charge of a saved card: a refusal of its terms leaves its session open, for the
   * merchant may send it again once the gateway project takes them; a checkout's is closed.
   */
  readonly charge?: boolean;
}

/**
 * P-409 on an attempt sent again under its own order id: its first send may have landed after
 * all. Never ended nor moved to the next order id — that could pay twice —, it is an outcome to
 * read from the order's state, like a lost answer.
 */
export function sentBefore(payment: Payment, duplicate: DuplicateOrderError): OutcomeUnknownError {
  return new OutcomeUnknownError('create payment', payment.orderId, duplicate);
}

/**
 * Whether the attempt's order id is one this companion made — its session's, without the
 * attempt's `:n`, random (newOrderId) or derived from the merchant's own key (keyedOrderId) — so
 * that no other integration holds it: P-409 on it is this companion's own earlier send, which its
 * ledger lost (restored from a backup older than it), read like a lost answer and never charged
 * again under the next id. An id the merchant chose may be another integration's, whose payment
 * is left alone.
 */
export function madeHere(payment: Pick<Payment, 'sessionOrderId'>): boolean {
  return isNewOrderId(payment.sessionOrderId) || isKeyedOrderId(payment.sessionOrderId);
}

/** Fields the customer typed or the browser sent (the client's address and language among them). */
const PAYER_FIELD = /^(card|customer|fingerprint)\./;

/** The customer's details only the merchant gives, prefilled in the session: no payer types them. */
const PREFILLED_ONLY = /^customer\.(birthday|tax_id|patronym|country|city)$/;

/** The customer's details only a microfinance or iGaming merchant's gateway project requires (interface, endpoint 1, rules 3–4). */
const SECTOR_FIELD = /^customer\.(birthday|tax_id|fname|lname)$/;

/**
 * Whether the payer could have given `field`. A hosted page's names are asked of them only when
 * the merchant's sector is set: without it, names the attempt went without are the setting's.
 */
function typedByPayer(field: string, payment: Payment, sector: MerchantSector | undefined): boolean {
  const name = /^customer\.([fl]name)$/.exec(field)?.[1] as 'fname' | 'lname' | undefined;
  if (name && payment.mode === 'hosted' && sector === undefined && !payment.customer[name]) return false;
  return PAYER_FIELD.test(field) && !PREFILLED_ONLY.test(field);
}

/**
 * A refusal of what the customer typed is theirs to correct. One of the session's fields (a
 * currency the gateway project has not enabled, an amount over its limit, a detail its sector
 * requires) fails every payment of such sessions, and only the operator can fix it: the line
 * names the fields, not values. A currency is said once for all its payments
 * (refused-currency.ts). Whether any was the session's.
 */
function warnOfMerchantFields(deps: PaymentFlowDeps, payment: Payment, fields: Readonly<Record<string, string>>): boolean {
  const { currency, ...others } = fields;
  if (currency !== undefined) tellRefusedCurrency(deps, payment.currency, currency, payment.orderId);
  const sector = deps.options.merchantSector;
  const merchant = Object.entries(others).filter(([field]) => !typedByPayer(field, payment, sector));
  if (merchant.length > 0) {
    const reasons = merchant.map(([field, reason]) => `${field} ${reason}`).join('; ');
    // The gateway asks these only of a microfinance or iGaming merchant: the setting that asks for them is missing.
    const setting =
      sector === undefined && merchant.some(([field]) => SECTOR_FIELD.test(field))
        ? '; if the gateway project is a microfinance or iGaming merchant’s, set PAYFORM_MERCHANT_SECTOR (the gateway client’s merchantSector): customers are then asked for their names on the gateway’s page, and a session without the date of birth or tax id a microfinance payment needs is refused as it opens'
        : '';
    deps.logger.warn(`the gateway refused a payment for what the session asked, not what the customer typed (${reasons}): check the sessions your server opens against the gateway project${setting}`, {
      order_id: payment.orderId,
    });
  }
  return currency !== undefined || merchant.length > 0;
}

/**
 * For a create that threw (other than P-409): ends the attempt and throws the answer when
 * nothing can have happened; returns when it may have (a lost answer).
 */
export async function endUnsentAttempt(deps: PaymentFlowDeps, payment: Payment, error: unknown, send: AttemptSend): Promise<OutcomeUnknownError> {
  if (!(error instanceof GatewayError)) throw error;
  if (error instanceof OutcomeUnknownError) return error;
  if (error instanceof InvalidRequestError) {
    await endNotSent(deps, payment, `${REFUSED_REASON} ${error.message}`, send);
    const fields = fieldReasons(error.fields, requestField);
    // The session's own terms refused: every payment of it would be, and the customer can change
    // none. Closed, so a reload or another tab says so instead of taking the card for the same no.
    if (warnOfMerchantFields(deps, payment, fields)) {
      if (!send.charge) await deps.ledger.closeSession(payment.sessionId);
      throw new ApiProblem(422, 'session_refused', 'The gateway refuses the terms of this payment (the fields say which): no payment on them can succeed until they or the gateway project change', fields);
    }
    throw new ApiProblem(422, 'payment_rejected', 'The gateway refused the payment details', fields);
  }
  // Refused credentials, rate limited, no connection, a permanent redirect (what answered is not
  // the gateway, and redirects are not followed): the request was not processed. The
  // gateway's trouble is logged once as such (operator/gateway-trouble.ts); this is the order's.
  deps.logger[deps.gatewayTrouble.paymentLineLevel]('a payment could not be sent to the gateway', { order_id: payment.orderId, err: error });
  await endNotSent(deps, payment, notSentReason(error), send, 'not_sent');
  // A create answered 404 without the gateway's error body met no payment endpoint: for the
  // customer, like a gateway away (503), not "not found" — the session is there, and paying
  // again works once the address is fixed. The gateway's own 404 ({message, args}) stays its.
  throw gatewayProblem(notSentProblemOf(error));
}

/**
 * Ends an attempt this send did not reach the gateway with — unless it was sent before: its
 * first send may still land, so it keeps its order id (the session's next attempt must not take
 * another) and waits for the never-sent window again.
 */
export async function endNotSent(deps: PaymentFlowDeps, payment: Payment, reason: string, send: AttemptSend, source: ChangeSource = 'gateway_answer'): Promise<void> {
  if (!send.resent) await endAttempt(deps, payment, reason, undefined, source);
}

/** The order's state at the gateway, applied to the ledger; undefined when it cannot be read now. */
export async function readOrderState(deps: PaymentFlowDeps, payment: Payment, cause: unknown): Promise<OrderRefresh | undefined> {
  deps.logger[deps.gatewayTrouble.paymentLineLevel]('the outcome of a payment is unknown; reading the order state', { order_id: payment.orderId, err: cause });
  return deps.orderState.readWhileWaiting(payment.orderId);
}

/**
 * Cancels an unpaid hosted page at the gateway and ends its attempt; true when it ended. A page
 * the customer is paying on right now is no longer `init` and is refused by the gateway: false.
 */
export async function cancelHostedPage(deps: PaymentFlowDeps, payment: Payment): Promise<boolean> {
  try {
    await deps.gateway.payments.cancel(payment.orderId, { timeoutMs: RECOVERY_READ_MS });
    await endAttempt(deps, payment, 'Payment cancelled', '6007');
    return true;
  } catch (error) {
    deps.logger.warn('a hosted payment could not be cancelled now; reconciliation will look at it', { order_id: payment.orderId, err: error });
    return false;
  }
}
