/**
 * What the ledger knows of a keyed request that is still running, or whose instance died before
 * answering: a retry is answered from it as soon as it knows, instead of waiting out the claim's
 * lease and then hearing for 24 h that the outcome is unknown.
 *
 * Sessions and charges are found by their order id — their own, or the one derived from the key
 * (keyedOrderId) — and captures, voids and refunds by the digest of the key their reservation
 * keeps, so the ledger can tell: made (the session; the charge once its payment has left
 * `init`; the operation once settled), never made (nothing under the key: it never reached the
 * gateway, and may run), or not known yet. Of a cancel or a webhook re-send only the order is
 * named.
 */
import { madeNoPayment, noPaymentAmong } from '../../ledger/index.js';
import type { Payment } from '../../ledger/index.js';
import type { StoredAnswer } from '../../ledger/index.js';
import { createdSession } from '../checkout/checkout-routes.js';
import type { CompanionServices } from '../context.js';
import { operationView, totalsView } from '../merchant/views.js';

export type KeyedTruth =
  /** Made, and how it stands: the answer to give. */
  | { readonly known: 'made'; readonly answer: StoredAnswer }
  /** No order under its id: the request never got as far as the ledger, so it may run. */
  | { readonly known: 'never_made'; readonly orderId: string }
  /** Made, not settled yet: answered once it is; `orderId` names the order to look at. */
  | { readonly known: 'not_yet'; readonly orderId: string }
  /** Nothing in the ledger says: the request may have taken effect. */
  | { readonly known: 'unknowable'; readonly orderId: string | undefined };

const SESSION_CREATE = /\/api\/checkout\/sessions$/;
const CHARGE = /\/api\/customers\/[^/]+\/cards\/[^/]+\/charges$/;
const RESERVATION = /\/api\/orders\/([^/]+)\/(?:capture|split-capture|void|refund|split-refund)$/;
const ORDER_REQUEST = /\/api\/orders\/([^/]+)\/[a-z-]+$/;

/** A request about one order: a capture, void or refund (split or not), a cancel, a webhook re-send. */
export const isOrderRequest = (path: string): boolean => ORDER_REQUEST.test(path);

/** A charge of a saved card. */
export const isCharge = (path: string): boolean => CHARGE.test(path);

export async function keyedTruth(services: CompanionServices, path: string, body: string, keyedId: string): Promise<KeyedTruth> {
  const reservation = RESERVATION.exec(path);
  if (reservation) return operationTruth(services, decodeURIComponent(reservation[1]!), keyedId);
  const other = ORDER_REQUEST.exec(path);
  if (other) return { known: 'unknowable', orderId: decodeURIComponent(other[1]!) };
  const charge = CHARGE.test(path);
  if (!charge && !SESSION_CREATE.test(path)) return { known: 'unknowable', orderId: undefined };
  const orderId = ownOrderId(body) ?? keyedId;
  const session = await services.ledger.findSessionOfOrder(orderId);
  if (!session) return { known: 'never_made', orderId };
  if (!charge) return { known: 'made', answer: json(201, createdSession(session, services.options)) };
  // A charge's session with no payment claimed, or whose attempts the gateway holds no payment of
  // (refused up front, never received): the charge takes its session up again (saved-card-charges.ts).
  if (!session.payment) return { known: 'never_made', orderId };
  if (madeNoPayment(session.payment) && noPaymentAmong(await attemptsOf(services, session.id))) return { known: 'never_made', orderId };
  const answer = await services.charges.known(orderId);
  return answer ? { known: 'made', answer: json(201, answer) } : { known: 'not_yet', orderId };
}

async function operationTruth({ ledger, options }: CompanionServices, orderId: string, requestKey: string): Promise<KeyedTruth> {
  const operation = await ledger.findOperationByRequestKey(orderId, requestKey);
  if (!operation) return { known: 'never_made', orderId };
  if (operation.status === 'pending') return { known: 'not_yet', orderId };
  const detail = await ledger.getOrder(orderId);
  const totals = detail && totalsView({ ...detail.totals, capturable: await ledger.capturableAmount(orderId, options.captureOverReservePercent) });
  return { known: 'made', answer: json(200, { operation: operationView(operation), totals }) };
}

/** A session's attempts, oldest first (at most 30 of them). */
async function attemptsOf({ ledger }: CompanionServices, sessionId: string): Promise<Payment[]> {
  const { orders } = await ledger.listOrders({ sessionId, limit: 100 });
  return [...orders].sort((a, b) => a.attempt - b.attempt);
}

function ownOrderId(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const orderId = parsed !== null && typeof parsed === 'object' ? (parsed as { order_id?: unknown }).order_id : undefined;
    return typeof orderId === 'string' ? orderId : undefined;
  } catch {
    return undefined;
  }
}

function json(status: number, body: unknown): StoredAnswer {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}
