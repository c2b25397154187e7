/**
 * Capture, void and refund (and their split forms) as the merchant asks for them: the money
 * rules are checked and the amount reserved in the ledger under the order's lock before the
 * gateway is called — so 50 refunds racing through any number of instances never return more
 * than was paid — then the gateway's answer settles the reservation (a decline releases it).
 * An answer lost on the way is found in the order's state, never by sending again.
 */
import {
  GatewayError, NetworkError, OutcomeUnknownError, UnexpectedResponseError,
} from '@payform/gateway';
import type { Operation as GatewayOperation } from '@payform/gateway';
import type { Operation, OperationKind, OperationRequest, OperationResult, Payment, SplitShare } from '../../ledger/index.js';
import { isLedgerUnavailable, OperationRefused, sentInFull } from '../../ledger/index.js';
import type { HeldAnswers } from '../checkout/held-answers.js';
import type { PaymentFlowDeps } from '../context.js';
import { formatLimit, minorUnits, StatusCode } from '@payform/gateway';
import { minorUnitsIn } from '../http/amounts.js';
import { gatewayProblem } from '../http/failure-problems.js';
import { ApiProblem, capitalise } from '../http/problem.js';
import { definedFields } from '../optional-fields.js';
import { operationResult, paymentUpdate } from '../payments/gateway-facts.js';
import { notSentProblemOf, notSentReason, refusedByGateway } from '../payments/not-sent.js';
import type { OperationBody } from './operation-request.js';
import { paymentToActOn } from './unpaid-order.js';


/** The outcome: settled by the gateway's answer, or still pending when it was lost. */
export interface OperationOutcome {
  readonly operation: Operation;
  readonly settled: boolean;
}

/**
 * The order is known here, so the gateway's 404 to a re-send that named an operation or a
 * transaction is about that one: said naming the field, not as an order the gateway lost.
 */
function unknownEvent(problem: ApiProblem, operation: string | undefined, transactionId: string | undefined): ApiProblem {
  if (problem.code !== 'not_found_at_gateway' || (operation === undefined && transactionId === undefined)) return problem;
  const fields = {
    ...(operation !== undefined && { operation: `the gateway has no ${operation} of this order${transactionId === undefined ? '' : ' with this transaction_id'} to send again` }),
    ...(transactionId !== undefined && { transaction_id: 'is no transaction of this order at the gateway' }),
  };
  return new ApiProblem(404, 'not_found_at_gateway', `The gateway has no such ${transactionId === undefined ? operation : 'transaction'} of this order: nothing was sent again`, fields);
}

/** The gateway's code for an amount past what it allows (gateway-notes.md), a capture's past the project's over-capture percentage among them. */
const AMOUNT_LIMIT = StatusCode.AmountLimitExceeded;

export class SecondaryOperations {
  readonly #deps: PaymentFlowDeps;
  readonly #held: HeldAnswers;
  #toldOverCapture = false;

  constructor(deps: PaymentFlowDeps, held: HeldAnswers) {
    this.#deps = deps;
    this.#held = held;
  }

  /** `requestKey`: the request's Idempotency-Key digest, kept with the reservation (keyed-truth.ts). */
  async perform(orderId: string, kind: OperationKind, body: OperationBody, requestKey?: string): Promise<OperationOutcome> {
    const { ledger, logger } = this.#deps;
    const payment = await paymentToActOn(ledger, orderId);
    const shareField = (i: number) => `split[${i}].amount`;
    const units = minorUnitsIn(payment.currency, {
      ...(body.amount === undefined ? {} : { amount: body.amount }),
      ...Object.fromEntries(body.split?.map((share, i) => [shareField(i), share.amount]) ?? []),
    });
    const request = definedFields<OperationRequest>({
      kind,
      amount: units.amount,
      // Masked as the body was read (operation-request.ts).
      comment: body.comment,
      split: body.split?.map((share, i): SplitShare => ({ subMerchantId: share.sub_merchant_id, amount: units[shareField(i)]! })),
      overCapturePercent: kind === 'capture' ? this.#deps.options.captureOverReservePercent : undefined,
      requestKey,
    });
    let reservation: Operation;
    try {
      reservation = await ledger.reserveOperation(orderId, request);
    } catch (error) {
      if (!(error instanceof OperationRefused)) throw error;
      throw (await this.#paidElsewhere(payment, kind, error)) ?? refusalProblem(error, kind, payment.currency, request.split ?? [], request.overCapturePercent);
    }
    logger.info('operation reserved', { order_id: orderId, operation: kind, amount: reservation.amount, currency: payment.currency });
    let result: OperationResult;
    try {
      result = operationResult(await this.#send(payment, reservation, body));
    } catch (error) {
      return this.#recover(payment, reservation, error);
    }
    let operation: Operation;
    try {
      operation = await this.#settle(reservation, result);
    } catch (error) {
      if (!isLedgerUnavailable(error)) throw error;
      // The gateway made it and the database went away meanwhile: pending, as an answer lost on
      // the way is, never "try again" (a retry would move the money twice). The answer is
      // written once the database is back; the reservation, kept, holds its amount until then.
      this.#held.hold(`operation ${reservation.id}`, orderId, error, async () => void (await this.#settle(reservation, result)));
      return { operation: reservation, settled: false };
    }
    if (sentInFull(payment, reservation) && operation.status === 'success' && operation.amount !== reservation.amount) this.#otherAmount(payment, reservation, operation);
    if (operation.kind === 'capture' && operation.status === 'failure' && operation.statusCode === AMOUNT_LIMIT && operation.amount > payment.amount) this.#overCaptureRefused(payment, operation);
    return { operation, settled: true };
  }

  /**
   * The gateway refused a capture over the reserve that PAYFORM_CAPTURE_OVER_RESERVE_PERCENT let
   * through: the project allows less, and the back office and the API go on offering what it
   * refuses. Said once.
   */
  #overCaptureRefused(payment: Payment, operation: Operation): void {
    if (this.#toldOverCapture) return;
    this.#toldOverCapture = true;
    const percent = this.#deps.options.captureOverReservePercent;
    this.#deps.logger.warn(
      `the gateway refused a capture of ${formatLimit(operation.amount, payment.currency)} over the reserve of ${formatLimit(payment.amount, payment.currency)} (${AMOUNT_LIMIT}, amount limit exceeded): ` +
        `PAYFORM_CAPTURE_OVER_RESERVE_PERCENT (captureOverReservePercent) is ${percent}, more than the gateway project allows, so the companion offers captures the gateway refuses; ` +
        'set it to the over-capture percentage of the project’s settings. Said once',
      { order_id: payment.orderId, operation: operation.id, capture_over_reserve_percent: percent },
    );
  }

  /**
   * An attempt that was not paid, whose session another attempt paid: a shop that kept its own
   * order id (`shop-1001`) asks for the first attempt, and is told which one to ask for
   * (`shop-1001:2`) rather than only that this one was not paid.
   */
  async #paidElsewhere(payment: Payment, kind: OperationKind, error: OperationRefused): Promise<ApiProblem | undefined> {
    if (error.reason !== 'payment_not_successful') return undefined;
    const { orders } = await this.#deps.ledger.listOrders({ sessionId: payment.sessionId, limit: 200 });
    const paid = orders.find((attempt) => attempt.status === 'success' && attempt.orderId !== payment.orderId);
    if (!paid) return undefined;
    return new ApiProblem(
      409,
      error.reason,
      `Order ${payment.orderId} was not paid; its checkout session was paid under order ${paid.orderId}: ${kind} that one`,
    );
  }

  /** Cancels an unpaid hosted payment (status init) and closes its checkout session. */
  async cancel(orderId: string): Promise<Payment> {
    const { ledger, gateway, reactions, options } = this.#deps;
    const payment = await paymentToActOn(this.#deps.ledger, orderId);
    if (payment.mode !== 'hosted' || payment.status !== 'init') {
      throw new ApiProblem(409, 'not_cancellable', `Only an unpaid hosted payment can be cancelled; this one is ${payment.mode}, ${payment.status}`);
    }
    try {
      const answer = await gateway.payments.cancel(orderId);
      const entry = answer.find((candidate) => candidate.order_id === orderId);
      if (entry) {
        const progress = await ledger.advancePayment(orderId, paymentUpdate(entry, options.sandboxOrigin));
        await reactions.paymentProgressed(progress, 'gateway_answer');
      }
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError)) throw error instanceof GatewayError ? gatewayProblem(error) : error;
      await this.#deps.orderState.readWhileWaiting(orderId);
    }
    await ledger.closeSession(payment.sessionId);
    return (await ledger.getPayment(orderId)) ?? payment;
  }

  /** Asks the gateway to deliver an operation's webhook again (the primary payment's by default). */
  async resendWebhook(orderId: string, operation: string | undefined, transactionId: string | undefined): Promise<string> {
    const payment = await paymentToActOn(this.#deps.ledger, orderId);
    const method = (operation ?? payment.method) as Payment['method'] | OperationKind;
    try {
      await this.#deps.gateway.orders.resendWebhook(orderId, method, definedFields({ transactionId }), { currency: payment.currency });
    } catch (error) {
      throw error instanceof GatewayError ? unknownEvent(gatewayProblem(error), operation, transactionId) : error;
    }
    return method;
  }

  /**
   * The gateway made the whole payment's "full" operation another amount than the ledger's rest:
   * an operation made at the gateway (its portal, another system) has not reached the ledger, its
   * webhook lost. The gateway's order state names no operation ids, so the ledger cannot take it
   * from there without risking it twice once the webhook comes: the operator is told.
   */
  #otherAmount(payment: Payment, reservation: Operation, operation: Operation): void {
    const money = (minor: number) => formatLimit(minor, payment.currency);
    this.#deps.logger.warn(
      `the gateway's full ${reservation.kind} came to ${money(operation.amount)}, where the ledger had ${money(reservation.amount)} left: ` +
        `a ${reservation.kind} made at the gateway (its portal, another system) has not reached this ledger, its webhook lost; find it at the gateway and have its webhook sent again ` +
        `(the back office's Re-send webhook of that kind, or POST /api/orders/${payment.orderId}/resend-webhook with its operation and transaction_id), so the ledger's totals agree`,
      { order_id: payment.orderId, operation: operation.id },
    );
  }

  #send(payment: Payment, reservation: Operation, body: OperationBody): Promise<GatewayOperation> {
    const { gateway, options } = this.#deps;
    const target = { order_id: payment.orderId, comment: reservation.comment ?? undefined, server_url: `${options.publicUrl}/webhooks/gateway` };
    const split = reservation.split?.map((share) => ({ amount: minorUnits(share.amount), sub_merchant_id: share.subMerchantId }));
    const amount = minorUnits(reservation.amount);
    const whole = sentInFull(payment, reservation);
    switch (reservation.kind) {
      case 'capture':
        return split
          ? gateway.operations.splitCapture(definedFields({ ...target, order_currency: payment.currency, charge_amount: amount, split }))
          : gateway.operations.capture(definedFields({ ...target, order_currency: payment.currency, charge_amount: whole ? undefined : amount }));
      case 'void':
        return gateway.operations.void(definedFields({ ...target, order_currency: payment.currency }));
      case 'refund':
        return split
          ? gateway.operations.splitRefund(definedFields({ ...target, currency: payment.currency, refund_amount: amount, split }))
          : gateway.operations.refund(
              definedFields({
                ...target,
                order_currency: payment.currency,
                refund_amount: whole ? undefined : amount,
                f_receipt_delivery: body.f_receipt_delivery,
              }),
            );
    }
  }

  async #settle(reservation: Operation, result: OperationResult): Promise<Operation> {
    const settled = await this.#deps.ledger.settleOperation(reservation.id, result);
    if (settled.progress === 'advanced') await this.#deps.reactions.operationAdvanced(settled.operation, 'gateway_answer');
    return settled.operation;
  }

  async #recover(payment: Payment, reservation: Operation, error: unknown): Promise<OperationOutcome> {
    const { logger } = this.#deps;
    if (!(error instanceof GatewayError)) throw error;
    const lost = error instanceof OutcomeUnknownError || error instanceof UnexpectedResponseError || (error instanceof NetworkError && !error.connectFailed);
    if (!lost) {
      // A definite refusal or a call never sent: nothing moved, the reservation is released.
      // Which of the two the operation and the log say: a gateway out of reach refused nothing.
      const refused = refusedByGateway(error);
      logger.warn(refused ? 'the gateway refused an operation' : 'an operation could not be sent to the gateway', { order_id: payment.orderId, operation: reservation.kind, err: error });
      await this.#settle(reservation, { status: 'failure', statusDescription: (refused ? `Refused: ${error.message}` : notSentReason(error)).slice(0, 2048) });
      throw gatewayProblem(notSentProblemOf(error));
    }
    logger[this.#deps.gatewayTrouble.paymentLineLevel]('the outcome of an operation is unknown; reading the order state', { order_id: payment.orderId, operation: reservation.kind, err: error });
    const state = await this.#deps.orderState.readWhileWaiting(payment.orderId);
    try {
      const operation =
        state?.found && state.shown.has(reservation.id)
          ? // The gateway shows it (settled by that read, or pending there too): its own words.
            ((await this.#deps.ledger.getOperation(reservation.id)) ?? reservation)
          : // Not shown yet: it says why it waits, for whoever looks at it meanwhile. Settled
            // since (a webhook, another instance's read), forward only, this changes nothing.
            await this.#settle(reservation, { status: 'pending', statusDescription: answerLost(error) });
      return { operation, settled: operation.status !== 'pending' };
    } catch (failure) {
      // The gateway may have made it: pending, never "try again"; reconciliation reads it later.
      if (!isLedgerUnavailable(failure)) throw failure;
      return { operation: reservation, settled: false };
    }
  }
}

/** Why a reservation is still pending after its call: what went wrong with the answer, and what happens next. */
function answerLost(error: GatewayError): string {
  // The cause's own words: the outer error's end in advice for the developer.
  const cause = error instanceof OutcomeUnknownError ? error.cause : error;
  const what = cause instanceof GatewayError ? cause.message : cause instanceof Error ? cause.name : 'aborted';
  return `Outcome not known yet: the gateway's answer was lost (${what}); payform reads it from the gateway's order state`.slice(0, 2048);
}

const NO_OVER_CAPTURE =
  ': the reserve, as PAYFORM_CAPTURE_OVER_RESERVE_PERCENT (captureOverReservePercent) is 0; to capture more than was held, set it to the over-capture percentage of the gateway project’s settings';

const VERB: Record<OperationKind, string> = { capture: 'captured', void: 'voided', refund: 'refunded' };

/**
 * A money rule said no: the reason as the code, worded here from the refusal's values (the
 * limit in the order's currency, the share of the request that broke it).
 */
function refusalProblem(error: OperationRefused, kind: OperationKind, currency: string, split: readonly SplitShare[], overCapturePercent?: number): ApiProblem {
  const limit = error.available === undefined ? undefined : formatLimit(error.available, currency);
  const share = `split[${Math.max(0, split.findIndex((candidate) => candidate.subMerchantId === error.subMerchantId))}]`;
  switch (error.reason) {
    case 'exceeds_capturable':
    case 'exceeds_refundable': {
      // Over the reserve with no allowance set: the setting is what the merchant may be missing.
      const allowance = error.reason === 'exceeds_capturable' && overCapturePercent === 0 ? NO_OVER_CAPTURE : '';
      return new ApiProblem(422, error.reason, `At most ${limit} can be ${VERB[kind]}${allowance}`, { amount: `must be at most ${limit}` });
    }
    case 'split_not_whole_reserve':
      return new ApiProblem(422, error.reason, `A split capture without an amount captures the whole reserve, ${limit}: its shares must add up to it (to capture another amount, part of it or more, give amount)`, {
        split: `must add up to ${limit}, the whole reserve, when amount is left out`,
      });
    case 'exceeds_sub_merchant_share':
      return new ApiProblem(422, error.reason, `At most ${limit} can be refunded to sub-merchant ${error.subMerchantId}`, { [`${share}.amount`]: `must be at most ${limit}` });
    case 'unknown_sub_merchant':
      return new ApiProblem(422, error.reason, `Sub-merchant ${error.subMerchantId} has no share in this order`, { [`${share}.sub_merchant_id`]: 'has no share in this order' });
    case 'split_refund_required':
      return new ApiProblem(422, error.reason, `Part of a split payment is refunded per sub-merchant (split-refund); a plain refund must be the whole ${limit}`, {
        split: 'is required to refund part of a split payment',
      });
    default:
      return new ApiProblem(409, error.reason, capitalise(error.message));
  }
}
