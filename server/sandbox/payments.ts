/**
 * Primary payments and their states:
 *
 *   direct create ── card/token ──► success 1000 (auth 1002) | failure 40xx
 *                                 ├► pending 2122 ── challenge page / control plane ──► success | failure 4153
 *                                 │                └─ no answer in time ──────────────► failure 4147
 *                                 └► pending 2119 ── after a delay ───────────────────► success
 *   hosted create ─► init 2123 ── checkout form ──► as a direct payment
 *                              ├─ cancel ─────────► failure 6007
 *                              └─ order_timeout ──► failure 4149
 *
 * Every status a payment enters is reported by webhook, the one a direct create answers too;
 * `init` is not (it is the hosted create's answer itself). Each webhook names its `cause`, the recorded request that set the change
 * going (inspector/request-log.ts): a task scheduled for later (the slow card's success, an
 * order_timeout, an unanswered challenge) captures it, so its webhook names that request rather
 * than whichever one finds the task due.
 */
import { maskFreeText } from '@payform/gateway';
import type { FieldIssue, CreatePaymentRequest, SplitPurchaseRequest } from '@payform/gateway/wire';
import { characters, SECONDARY_ORDER_ID_MAX, sectorIssues, StatusCode } from '@payform/gateway/wire';
import type { Project } from './config.js';
import type { RequestId } from './inspector/request-log.js';
import { minorUnits } from './state/amounts.js';
import { cvvProblem, hasExpired, readCard } from './state/cards.js';
import { commission } from './state/fees.js';
import { newCapability, newUuid, randomDigits, transactionIdentifiers } from './state/identifiers.js';
import { PAYMENT_DETAIL_FIELDS } from './state/records.js';
import type { CardOnFile, Order, Payment, PaymentDetails, Share } from './state/records.js';
import { Refusal } from './state/refusal.js';
import type { SimulatedGateway } from './simulated-gateway.js';
import { tokenExpiration } from './state/tokens.js';
import { chargeAsPayment } from './views.js';

/** Card data as the payer gave it: full card data or a token. Lives for one request only. */
export type PayerCard =
  | { readonly kind: 'card'; readonly number: string; readonly expMonth: number; readonly expYear: number; readonly cvv: string }
  | { readonly kind: 'token'; readonly token: string };

export type CreateRequest = CreatePaymentRequest | SplitPurchaseRequest;

/** No hosted payment waits longer than ten years. */
const MAX_LIFESPAN_SECONDS = 10 * 365 * 86_400;


/**
 * Whether a payment could be created but never captured, voided or refunded: an auth or purchase
 * whose order_id is longer than the secondary operations take. The create endpoints take up to
 * 256 characters (the interface types order_id String(≤256) in responses and bounds it only on
 * secondary operations), so a tolerant project creates it, with a warning; a strict one refuses.
 */
export function outlivesSecondaryOperations(request: { readonly method: string; readonly order_id: string }): boolean {
  return (request.method === 'auth' || request.method === 'purchase') && characters(request.order_id) > SECONDARY_ORDER_ID_MAX;
}

/** Why, in a warning or a strict project's refusal. */
export const LONG_ORDER_ID_REASON = `capture, void and refund take an order_id of at most ${SECONDARY_ORDER_ID_MAX} characters, so this payment could never be captured, voided or refunded`;

/**
 * POST /api/v1/payment and /api/v1/split/purchase after their schema has passed. Refuses a
 * taken order_id (P-409, failed payments included) and what the project's settings forbid
 * (a strict project: an auth or purchase order_id over 32 characters).
 */
export async function createPayment(gateway: SimulatedGateway, cause: RequestId | undefined, project: Project, request: CreateRequest, baseUrl: string): Promise<Order> {
  if (gateway.store.order(project.posId, request.order_id)) throw Refusal.duplicateOrder(request.order_id);
  const issues = [
    ...(project.strict && outlivesSecondaryOperations(request)
      ? [{ field: 'order_id', reason: `must be at most ${SECONDARY_ORDER_ID_MAX} characters in a strict project: ${LONG_ORDER_ID_REASON}` }]
      : []),
    ...sectorIssues(request, project.sector),
    ...splitIssues(project, 'split' in request ? request.split : undefined),
    ...currencyIssues(project, request.currency),
  ];
  const card = request.mode === 'direct' ? payerCard(request) : undefined;
  if (card?.kind === 'card') {
    const problem = cvvProblem(readCard(card.number, card.expMonth, card.expYear).brand, card.cvv);
    if (problem) issues.push({ field: 'card_cvv', reason: problem });
  }
  if (issues.length > 0) throw Refusal.invalid(issues);

  const split = 'split' in request ? request.split.map((share, index) => toShare(share, request.currency, index)) : undefined;
  const payment = newPayment(gateway, {
    posId: project.posId,
    orderId: request.order_id,
    mode: request.mode,
    method: request.method,
    endpoint: split ? 'split' : 'payment',
    amount: minorUnits(request.amount, request.currency, 'amount'),
    currency: request.currency,
    description: request.description,
    details: pickDetails(request, project),
    baseUrl,
    split,
  });
  if (request.mode === 'direct') {
    // Until the card is decided (after a validation_url preflight) a direct payment is pending.
    payment.status = 'pending';
    payment.statusCode = StatusCode.Pending;
  }
  const order = gateway.store.addOrder(payment);
  if (request.mode === 'hosted') {
    openCheckout(gateway, order);
    // Bounded so that the expiry stays a representable date.
    const lifespan = Math.min(request.order_timeout ?? gateway.config.timings.hostedLifespanSeconds, MAX_LIFESPAN_SECONDS);
    payment.expiresAt = new Date(payment.createdAt.getTime() + lifespan * 1000);
    payment.timer = gateway.scheduler.at(payment.expiresAt.getTime(), () => expire(gateway, cause, order));
  } else if (card) {
    await authoriseConfirmed(gateway, cause, order, card);
  } else {
    // A direct lookup without card data: the customer enters the card on the gateway's form.
    openCheckout(gateway, order);
    move(gateway, cause, order, 'pending', StatusCode.WaitingForContinueRedirect);
  }
  return order;
}

/** The checkout form's submission: the card for a payment that waits for one. */
export async function pay(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, payerCardData: PayerCard): Promise<void> {
  const payment = order.payment;
  if (!awaitsCard(payment)) throw Refusal.notAllowed(`The payment is ${payment.status}: it takes no card now`);
  // From here the payment is being processed: not a second submission, nor a cancel or an
  // expiry while the validation_url preflight is under way.
  stopTimer(payment);
  payment.checkoutId = undefined;
  payment.status = 'pending';
  payment.statusCode = StatusCode.Pending;
  await authoriseConfirmed(gateway, cause, order, payerCardData);
}

/**
 * The validation_url preflight, then the card. The merchant is asked first (a signed form post
 * like a webhook); anything but a 2xx answer declines the payment before the card is charged.
 */
async function authoriseConfirmed(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, payerCardData: PayerCard): Promise<void> {
  const target = order.payment.details.validation_url;
  if (target && !(await gateway.confirmWithMerchant(cause, order, target))) {
    return fail(gateway, cause, order, StatusCode.TransactionRejected, 'Transaction rejected: the merchant’s validation_url did not confirm the payment');
  }
  authorise(gateway, cause, order, payerCardData);
}

/**
 * Charges (or verifies) the payer's card. The outcome follows the test card (see TEST_CARDS);
 * a card past its expiry fails with 4001.
 */
function authorise(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, payerCardData: PayerCard): void {
  const payment = order.payment;
  stopTimer(payment);
  payment.checkoutId = undefined;
  const tokenized = payerCardData.kind === 'token' ? gateway.widgetTokens.redeem(payment.posId, payerCardData.token, gateway.clock.now()) : undefined;
  if (tokenized && tokenized.kind !== 'card') {
    return fail(gateway, cause, order, StatusCode.InvalidCardData, `Invalid card data: the cc_token is ${tokenized.kind === 'spent' ? 'used up' : 'expired'}`);
  }
  const card = payerCardData.kind === 'card'
    ? readCard(payerCardData.number, payerCardData.expMonth, payerCardData.expYear)
    : (tokenized?.card ?? gateway.vault.resolve(payment.posId, payerCardData.token));
  if (!card) return fail(gateway, cause, order, StatusCode.InvalidCardData, 'Invalid card data: unknown cc_token');
  payment.card = card;
  // A tokenizer's token is spent now: a successful payment answers with the card's lasting token.
  if (payerCardData.kind === 'token' && !tokenized) payment.token = { value: payerCardData.token, expiration: tokenExpiration(card) };
  if (hasExpired(card.expMonth, card.expYear, gateway.clock.now())) return fail(gateway, cause, order, StatusCode.CardExpired);
  if (payment.method !== 'lookup' && payment.amount > gateway.projectOf(order).amountLimitMinor) {
    return fail(gateway, cause, order, StatusCode.AmountLimitExceeded);
  }
  const threeDSecure = gateway.projectOf(order).threeDSecure;
  switch (card.behaviour) {
    case 'success':
    case 'wallet':
      if (threeDSecure === 'always' && card.behaviour === 'success') return challenge(gateway, cause, order);
      return succeed(gateway, cause, order, false);
    case 'three_ds_challenge':
      // Frictionless: the issuer authenticates without asking the cardholder.
      if (threeDSecure === 'never') return succeed(gateway, cause, order, true);
      return challenge(gateway, cause, order);
    case 'slow_pending':
      payment.timer = gateway.scheduler.after(gateway.config.timings.slowCardDelayMs, () => succeed(gateway, cause, order, false));
      return move(gateway, cause, order, 'pending', StatusCode.Processing);
    case 'rejected':
      return fail(gateway, cause, order, StatusCode.TransactionRejected);
    case 'insufficient_funds':
      return fail(gateway, cause, order, StatusCode.InsufficientFunds);
    case 'expired':
      return fail(gateway, cause, order, StatusCode.CardExpired);
    case 'not_a_test_card':
      return fail(gateway, cause, order, StatusCode.TransactionRejected, 'Transaction rejected: the sandbox accepts its test cards only');
  }
}

/** Whether the payment is waiting for the payer's card (hosted init, or a lookup's card form). */
export function awaitsCard(payment: Payment): boolean {
  return (
    payment.checkoutId !== undefined &&
    (payment.status === 'init' || (payment.status === 'pending' && payment.statusCode === StatusCode.WaitingForContinueRedirect))
  );
}

/** The outcome of a 3-D Secure challenge: the challenge page's buttons or POST /_sandbox/3ds. */
export function completeChallenge(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, result: 'success' | 'failure'): void {
  const payment = order.payment;
  if (payment.status !== 'pending' || !payment.challengeId) {
    throw Refusal.notAllowed(`The payment is ${payment.status}: no 3-D Secure challenge is open`);
  }
  stopTimer(payment);
  payment.challengeId = undefined;
  if (result === 'success') succeed(gateway, cause, order, true);
  else fail(gateway, cause, order, StatusCode.TransactionRejected, 'Transaction rejected: 3-D Secure authentication failed');
}

/** Cancel of an unpaid hosted payment (interface rule 1): purchase or auth, mode hosted, status init. */
export function cancel(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order): void {
  const payment = order.payment;
  const cancellable = payment.mode === 'hosted' && (payment.method === 'purchase' || payment.method === 'auth') && payment.status === 'init';
  if (!cancellable) {
    throw Refusal.notAllowed(
      `Only an unpaid hosted purchase or auth (status init) can be cancelled; this is a ${payment.mode} ${payment.method} in status ${payment.status}`,
    );
  }
  stopTimer(payment);
  payment.checkoutId = undefined;
  fail(gateway, cause, order, StatusCode.PaymentCancelled);
}

/** A hosted payment's order_timeout has passed. */
function expire(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order): void {
  const payment = order.payment;
  if (payment.status !== 'init') return;
  payment.timer = undefined;
  payment.checkoutId = undefined;
  fail(gateway, cause, order, StatusCode.SessionExpired);
}

function challenge(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order): void {
  const payment = order.payment;
  payment.challengeId = newCapability();
  gateway.store.openChallenge(payment.challengeId, order);
  payment.timer = gateway.scheduler.after(gateway.config.timings.challengeTimeoutMs, () => {
    if (payment.status !== 'pending' || !payment.challengeId) return;
    payment.challengeId = undefined;
    payment.timer = undefined;
    fail(gateway, cause, order, StatusCode.ThreeDsTimeout);
  });
  move(gateway, cause, order, 'pending', StatusCode.ThreeDsRequired);
}

function succeed(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, authenticated: boolean): void {
  const payment = order.payment;
  const project = gateway.projectOf(order);
  payment.timer = undefined;
  payment.eci = eci(payment.card, authenticated);
  // Commission is charged on money moved: a purchase's now; an auth only holds the money, and its
  // capture carries the commission on what it takes (operations.ts), so an auth's fee stays null
  // and the fees reported add up to what the balances take.
  if (payment.method === 'purchase') payment.fees = commission(payment.amount, payment.currency, project);
  if (payment.card && payment.card.behaviour !== 'wallet' && !payment.token) {
    payment.token = gateway.vault.issue(payment.posId, payment.card);
  }
  move(gateway, cause, order, 'success', payment.method === 'auth' ? StatusCode.HoldSuccessful : StatusCode.TransactionSuccessful);
}

function fail(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, code: StatusCode, description?: string): void {
  order.payment.timer = undefined;
  move(gateway, cause, order, 'failure', code, description);
}

/** A new status for the order's payment, reported by webhook. */
export function move(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, status: Payment['status'], code: StatusCode, description?: string): void {
  const payment = order.payment;
  payment.status = status;
  payment.statusCode = code;
  payment.statusDescription = description;
  payment.processedAt = gateway.clock.now();
  gateway.notifyPayment(cause, order);
}

function openCheckout(gateway: SimulatedGateway, order: Order): void {
  order.payment.checkoutId = newCapability();
  gateway.store.openCheckout(order.payment.checkoutId, order);
}

function stopTimer(payment: Payment): void {
  payment.timer?.cancel();
  payment.timer = undefined;
}

/**
 * ECI: 05 (Visa, Amex) or 02 (Mastercard) after a 3-D Secure authentication, 07 or 00 for a
 * payment without one.
 */
function eci(card: CardOnFile | undefined, authenticated: boolean): string | null {
  if (!card) return null;
  if (card.brand === 'mastercard') return authenticated ? '02' : '00';
  return authenticated ? '05' : '07';
}

function payerCard(request: CreateRequest & { mode: 'direct' }): PayerCard | undefined {
  if ('cc_token' in request && request.cc_token !== undefined) return { kind: 'token', token: request.cc_token };
  const { cc_number: number, exp_month: expMonth, exp_year: expYear, card_cvv: cvv } = request;
  if (number === undefined || expMonth === undefined || expYear === undefined || cvv === undefined) return undefined;
  return { kind: 'card', number, expMonth, expYear, cvv };
}

/** The request fields a payment keeps and echoes; the project's MCC unless the request names one. */
export function pickDetails(request: object, project: Project): PaymentDetails {
  const source = request as Readonly<Record<string, unknown>>;
  const details: Record<string, unknown> = {};
  for (const field of PAYMENT_DETAIL_FIELDS) {
    if (source[field] !== undefined) details[field] = source[field];
  }
  details.merchant_mcc ??= project.mcc;
  return details as PaymentDetails;
}

export function toShare(share: { amount: number | string; sub_merchant_id: string }, currency: string, index: number): Share {
  return { subMerchantId: share.sub_merchant_id, amount: minorUnits(share.amount, currency, `split[${index}].amount`) };
}

/** Currencies a project has not enabled are refused, so the order_id stays free. */
export function currencyIssues(project: Project, currency: string): FieldIssue[] {
  return project.currencies.includes(currency) ? [] : [{ field: 'currency', reason: `is not enabled for this project (${project.currencies.join(', ')})` }];
}

/** Shares name sub-merchants of the project, each once. */
export function splitIssues(project: Project, split: readonly { sub_merchant_id: string }[] | undefined): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  split?.forEach((share, index) => {
    if (!project.subMerchants.includes(share.sub_merchant_id)) {
      issues.push({ field: `split[${index}].sub_merchant_id`, reason: 'is not a sub-merchant of this project' });
    } else if (seen.has(share.sub_merchant_id)) {
      issues.push({ field: `split[${index}].sub_merchant_id`, reason: 'appears twice' });
    }
    seen.add(share.sub_merchant_id);
  });
  return issues;
}

/**
 * A later transaction of a recurring payment (control plane): the order's first payment must be
 * a successful card purchase. Reported by webhook like any purchase, with the `recurring` object.
 */
export function chargeRecurring(gateway: SimulatedGateway, cause: RequestId | undefined, order: Order, amount: number | undefined): Payment {
  const payment = order.payment;
  if (payment.method !== 'purchase' || payment.status !== 'success' || !payment.card) {
    throw Refusal.notAllowed('Recurring charges follow a successful card purchase');
  }
  order.recurring ??= { id: newUuid(), status: 'active', charges: [] };
  const charged = amount ?? payment.amount;
  const charge = { ...transactionIdentifiers(), amount: charged, fees: commission(charged, payment.currency, gateway.projectOf(order)), createdAt: gateway.clock.now() };
  gateway.store.addCharge(order, charge);
  const asPayment = chargeAsPayment(payment, charge);
  gateway.notifyPayment(cause, order, asPayment);
  return asPayment;
}

/** A successful credit (a payout to a card), created through the control plane. */
export function createCredit(
  gateway: SimulatedGateway,
  cause: RequestId | undefined,
  project: Project,
  credit: { order_id: string; amount: number; currency: string; description: string; server_url?: string | undefined },
  baseUrl: string,
): Order {
  if (gateway.store.order(project.posId, credit.order_id)) throw Refusal.duplicateOrder(credit.order_id);
  const now = gateway.clock.now();
  const payment = newPayment(gateway, {
    posId: project.posId,
    orderId: credit.order_id,
    mode: 'direct',
    method: 'credit',
    endpoint: 'credit',
    amount: credit.amount,
    currency: credit.currency,
    description: credit.description,
    details: { ...(credit.server_url ? { server_url: credit.server_url } : {}), merchant_mcc: project.mcc },
    baseUrl,
    split: undefined,
  });
  payment.card = readCard('4242424242424242', 12, now.getUTCFullYear() + 3);
  payment.fees = commission(credit.amount, credit.currency, project);
  payment.status = 'success';
  payment.statusCode = StatusCode.TransactionSuccessful;
  const order = gateway.store.addOrder(payment);
  gateway.notifyPayment(cause, order);
  return order;
}

type NewPayment = Pick<
  Payment,
  'posId' | 'orderId' | 'mode' | 'method' | 'endpoint' | 'amount' | 'currency' | 'description' | 'details' | 'baseUrl' | 'split'
>;

/** A payment just created: fresh identifiers, nothing decided yet (status init, as a hosted payment starts). */
export function newPayment(gateway: SimulatedGateway, fields: NewPayment): Payment {
  const now = gateway.clock.now();
  const { transactionId, receiptKey, approvalCode, rrn } = transactionIdentifiers();
  // Written out, not spread: spreading objects into a literal this size costs Node 20 tens of µs.
  return {
    posId: fields.posId,
    orderId: fields.orderId,
    mode: fields.mode,
    method: fields.method,
    endpoint: fields.endpoint,
    amount: fields.amount,
    currency: fields.currency,
    // Kept and echoed (answers, receipts, pages): card data written in it is masked first, as the
    // inspector masks it. The live gateway's keeping of it is not written; the sandbox errs safe.
    description: maskFreeText(fields.description),
    details: fields.details,
    baseUrl: fields.baseUrl,
    split: fields.split,
    id: newUuid(),
    transactionId,
    receiptKey,
    approvalCode,
    rrn,
    gatewayOrderId: randomDigits(12),
    billingOrderId: randomDigits(10),
    createdAt: now,
    processedAt: now,
    status: 'init',
    statusCode: StatusCode.WaitingForCheckoutRedirect,
    card: undefined,
    token: undefined,
    eci: null,
    fees: null,
    checkoutId: undefined,
    challengeId: undefined,
    expiresAt: undefined,
    timer: undefined,
  };
}
