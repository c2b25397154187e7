/**
 * What the ledger knows of a keyed request that is still running, or whose instance died before
 * answering: a retry is answered from it as soon as it knows, instead of waiting out the claim's
 * lease and then hearing for 24 h that the outcome is unknown.
 *
 * Sessions and charges are found by their order id — their own, or the one derived from the key
 * (keyedOrderId) — so the ledger can tell: made (the session; the charge once its payment has
 * left `init`), never made (no such order: the request may run), or not known yet. Captures,
 * voids and refunds are not tied to their key in the ledger; for them only the order is named.
 */
import { createHmac } from 'node:crypto';
import type { StoredAnswer } from '../../ledger/index.js';
import { createdSession } from '../checkout/checkout-routes.js';
import type { CompanionServices } from '../context.js';

export type KeyedTruth =
  /** Made, and how it stands: the answer to give. */
  | { readonly known: 'made'; readonly answer: StoredAnswer }
  /** No order under its id: the request never got as far as the ledger, so it may run. */
  | { readonly known: 'never_made'; readonly orderId: string }
  /** Not known yet; `orderId` names the order to look at, when there is one. */
  | { readonly known: 'not_yet'; readonly orderId: string | undefined };

/**
 * The order id a session or charge sent without one takes under an Idempotency-Key: derived from
 * the key (keyed by the admin token, so two merchants' keys make different ids), 28 characters.
 * The same key always makes the same order, so a retry cannot make a second one.
 */
export function keyedOrderId(secret: string, key: string): string {
  return `k-${createHmac('sha256', secret).update(`payform keyed order ${key}`, 'utf8').digest('hex').slice(0, 26)}`;
}

const SESSION_CREATE = /\/api\/checkout\/sessions$/;
const CHARGE = /\/api\/customers\/[^/]+\/cards\/[^/]+\/charges$/;
const ORDER_OPERATION = /\/api\/orders\/([^/]+)\/[a-z-]+$/;

export async function keyedTruth(services: CompanionServices, path: string, body: string, keyedId: string): Promise<KeyedTruth> {
  const operation = ORDER_OPERATION.exec(path);
  if (operation) return { known: 'not_yet', orderId: decodeURIComponent(operation[1]!) };
  const charge = CHARGE.test(path);
  if (!charge && !SESSION_CREATE.test(path)) return { known: 'not_yet', orderId: undefined };
  const orderId = ownOrderId(body) ?? keyedId;
  const session = await services.ledger.findSessionOfOrder(orderId);
  if (!session) return { known: 'never_made', orderId };
  if (!charge) return { known: 'made', answer: json(201, createdSession(session)) };
  const answer = await services.charges.known(orderId);
  return answer ? { known: 'made', answer: json(201, answer) } : { known: 'not_yet', orderId };
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
