/**
 * Payouts to cards: POST /api/v1/payment with `method: credit` (gateway-notes.md, "Payouts to
 * cards"). A credit is decided at once like a direct payment, after the same validation_url
 * preflight, and follows the test cards — but asks no 3-D Secure (the recipient is not there to
 * answer a challenge) and issues no token (the card is the recipient's, not the payer's):
 *
 *   credit ── card number / token ──► success 1000 | failure 4001/4009/4012/4144/4153
 *                                   └► pending 2119 ── after a delay ──► success
 *
 * Like every credit it has a `credit` webhook, a receipt and credit references.
 */
import type { CreditRequest } from '@payform/gateway/wire';
import { StatusCode } from '@payform/gateway/wire';
import type { Project } from './config.js';
import type { RequestId } from './inspector/request-log.js';
import { currencyIssues, move, newPayment, pickDetails } from './payments.js';
import { minorUnits } from './state/amounts.js';
import { hasExpired, readCard } from './state/cards.js';
import { commission } from './state/fees.js';
import type { CardOnFile, Order } from './state/records.js';
import { Refusal } from './state/refusal.js';
import type { SimulatedGateway } from './simulated-gateway.js';
import { tokenExpiration } from './state/tokens.js';

/** POST /api/v1/payment with method credit, after its schema has passed. */
export async function createPayout(gateway: SimulatedGateway, cause: RequestId | undefined, project: Project, request: CreditRequest, baseUrl: string): Promise<Order> {
  if (gateway.store.order(project.posId, request.order_id)) throw Refusal.duplicateOrder(request.order_id);
  const issues = currencyIssues(project, request.currency);
  if (issues.length > 0) throw Refusal.invalid(issues);

  const payment = newPayment(gateway, {
    posId: project.posId,
    orderId: request.order_id,
    mode: 'direct',
    method: 'credit',
    endpoint: 'credit',
    amount: minorUnits(request.amount, request.currency, 'amount'),
    currency: request.currency,
    description: request.description,
    details: pickDetails(request, project),
    baseUrl,
    split: undefined,
  });
  payment.status = 'pending';
  payment.statusCode = StatusCode.Pending;
  const order = gateway.store.addOrder(payment);
  const target = payment.details.validation_url;
  if (target && !(await gateway.confirmWithMerchant(cause, order, target))) {
    move(gateway, cause, order, 'failure', StatusCode.TransactionRejected, 'Transaction rejected: the merchant’s validation_url did not confirm the payment');
    return order;
  }
  payOut(gateway, cause, order, request);
  return order;
}

function payOut(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, request: CreditRequest): void {
  const payment = order.payment;
  const card = request.cc_number !== undefined ? recipientCard(request.cc_number) : gateway.vault.resolve(payment.posId, request.cc_token ?? '');
  if (!card) return move(gateway, cause, order, 'failure', StatusCode.InvalidCardData, 'Invalid card data: unknown cc_token');
  payment.card = card;
  if (request.cc_token !== undefined) payment.token = { value: request.cc_token, expiration: tokenExpiration(card) };
  if (hasExpired(card.expMonth, card.expYear, gateway.clock.now())) return move(gateway, cause, order, 'failure', StatusCode.CardExpired);
  if (payment.amount > gateway.projectOf(order).amountLimitMinor) return move(gateway, cause, order, 'failure', StatusCode.AmountLimitExceeded);
  switch (card.behaviour) {
    case 'success':
    case 'wallet':
    case 'three_ds_challenge':
      return succeed(gateway, cause, order);
    case 'slow_pending':
      payment.timer = gateway.scheduler.after(gateway.config.timings.slowCardDelayMs, () => succeed(gateway, cause, order));
      return move(gateway, cause, order, 'pending', StatusCode.Processing);
    case 'rejected':
      return move(gateway, cause, order, 'failure', StatusCode.TransactionRejected);
    case 'insufficient_funds':
      return move(gateway, cause, order, 'failure', StatusCode.InsufficientFunds);
    case 'expired':
      return move(gateway, cause, order, 'failure', StatusCode.CardExpired);
    case 'not_a_test_card':
      return move(gateway, cause, order, 'failure', StatusCode.TransactionRejected, 'Transaction rejected: the sandbox accepts its test cards only');
  }
}

function succeed(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order): void {
  const payment = order.payment;
  payment.timer = undefined;
  payment.fees = commission(payment.amount, payment.currency, gateway.projectOf(order));
  move(gateway, cause, order, 'success', StatusCode.TransactionSuccessful);
}

/**
 * A payout names the recipient's card by its number alone. Its expiry is not known, so — like a
 * wallet card's — it is taken as far off: nothing of a credit shows it, and no token is issued.
 */
function recipientCard(number: string): CardOnFile {
  return readCard(number, 12, 2099);
}
