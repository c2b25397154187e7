/**
 * The order id a session or charge sent without one takes under an Idempotency-Key (keyed-truth.ts
 * finds its order by it), and how one is known.
 */
import { createHmac } from 'node:crypto';

/**
 * The order id a session or charge sent without one takes under an Idempotency-Key: derived from
 * the key (keyed by the admin token, so two merchants' keys make different ids), 28 characters.
 * The same key always makes the same order, so a retry cannot make a second one. Written in the
 * letters a–p (one a nibble), never digits: no id can ever read as a card number and be masked.
 */
export function keyedOrderId(secret: string, key: string): string {
  const digest = createHmac('sha256', secret).update(`payform keyed order ${key}`, 'utf8').digest('hex').slice(0, 26);
  return `k-${[...digest].map((nibble) => String.fromCharCode(97 + parseInt(nibble, 16))).join('')}`;
}

/** Whether `orderId` is one keyedOrderId made: no merchant's or other integration's id reads so. */
export function isKeyedOrderId(orderId: string): boolean {
  return /^k-[a-p]{26}$/.test(orderId);
}
