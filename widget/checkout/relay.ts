/**
 * What a payment tells the page (`pay-success`, `pay-failure`, `pay-error`, `pay-redirect`), once:
 * from the payer, from the element that speaks for it once it is out of the page, and never twice.
 */
import { emit, type PayEventDetails } from '../events.js';
import type { CheckoutElement } from './checkout-element.js';
import { echoes } from './following.js';
import { cardSent, follow } from './one-payment.js';
import { atCheckout, heirOf } from './session-elements.js';

/** What a payment tells the page, relayed from a payer out of the page (`relay`). */
export const TOLD = ['pay-success', 'pay-failure', 'pay-error', 'pay-redirect'] as const;

/**
 * What a payer out of the page tells (a framework replaced it as it paid: an `@if` that flipped, a
 * keyed render) reaches the page through its heir, which shows that end first, and only there: a
 * page that kept its listeners on the payer hears it once. Without one, through an element of its
 * session still reading the session or confirming (`atCheckout`), whose own reading then tells
 * that end no more (`retold`). With no element of its session in the page, the payer tells it
 * itself, as any element the page removed, and the document hears it as from one in the page. A
 * redirect the page cancels through the heir is cancelled.
 */
export function relay(payer: CheckoutElement, event: CustomEvent): void {
  if (event.target !== payer) return;
  // The decline of an attempt another window began, which this click joined: not this card's.
  if (event.type === 'pay-failure' && joinedOrders.get(payer) === (event.detail as PayEventDetails['pay-failure']).orderId) {
    joinedOrders.delete(payer);
    payer.say(payer.t.not_taken ?? '');
    return event.stopImmediatePropagation();
  }
  // An end it shows as another element of its session read it: the page heard it from that one (`settled`).
  const echo = echoes.get(payer);
  if (echo && echo === payer.view) {
    // A decline, too, is said once, where it was read (as by an element a payment held: `release`).
    if (event.type === 'pay-failure' && payer.phase === 'ready') payer.say('');
    return event.stopImmediatePropagation();
  }
  if (retold.get(payer) === endOf(event)) {
    retold.delete(payer);
    return event.stopImmediatePropagation();
  }
  const heir = heirOf(payer);
  const teller = heir ?? (payer.isConnected ? undefined : atCheckout(payer));
  if (!teller) {
    // None in the page (the customer followed a link as it paid): the document hears the end as from
    // an element in it, after the payer's own listeners. A redirect is not taken from here (`away`);
    // nor is news of an element that sent no card (a hosted page not opened, a session read).
    if (!payer.isConnected && cardSent.has(payer) && event.type !== 'pay-redirect') queueMicrotask(() => emit(document, event.type as (typeof TOLD)[number], event.detail));
    return;
  }
  event.stopImmediatePropagation();
  follow(payer);
  // What it told before is not this end, though it may read alike (an order id tried again).
  retold.delete(teller);
  if (!emit(teller, event.type as (typeof TOLD)[number], event.detail, event.cancelable)) event.preventDefault();
  // Not an error: one of its own reading would be news of its own.
  if (teller !== heir && event.type !== 'pay-error') retold.set(teller, endOf(event));
}

/**
 * Of an element in the page that told the end of a payer out of it (`relay`), that end: its own
 * read or poll of the session comes to it too, as a page loaded anew would, and is not told again.
 */
export const retold = new WeakMap<CheckoutElement, string>();

/**
 * The order of the attempt a form's pay request joined (the companion's `joined`: another window's
 * was under way, and this request sent nothing), until it ends: its decline is told as no payment
 * taken, not as this card's, and not to the page, which the other window tells (`relay`).
 */
export const joinedOrders = new WeakMap<CheckoutElement, string>();

/** A payment's end as the page hears it: which, of which order. */
const endOf = ({ type, detail }: CustomEvent): string => `${type} ${detail?.orderId}`;
