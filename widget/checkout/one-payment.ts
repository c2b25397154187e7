/**
 * One payment of a session at a time on a page: the elements of the session a payment holds, let
 * go as it ends, and a payer taken out of the page handing its payment over to an heir.
 */
import type { CheckoutElement, Phase } from './checkout-element.js';
import { heirOf, held, payers, shown } from './session-elements.js';

/** The phases of an element whose payment has begun and not ended. */
const PAYMENT_UNDER_WAY: ReadonlySet<Phase> = new Set(['paying', 'confirming', 'waiting']);
/**
 * One payment of a session at a time on a page: while an element pays, confirms or waits for a
 * payment, the other elements of its session (a `<pay-button>` beside the form, a hosted button,
 * a form a framework rendered anew) are busy too — disabled, saying they are processing — rather
 * than offer a second payment; when it ends, they show the session as it ended (paid, closed) or
 * are ready again. The page hears the end once, from the payer (`relay` when it left the page).
 */
export function follow(element: CheckoutElement): void {
  if (held.has(element)) return;
  if (!PAYMENT_UNDER_WAY.has(element.phase)) {
    payers.delete(element);
    return release(element);
  }
  // Out of the page, a request in flight goes on; confirming or waiting stopped as it left.
  if (!element.isConnected && element.phase !== 'paying') return handOver(element);
  payers.add(element);
  for (const other of shown) {
    if (other === element || other.session !== element.session || other.phase !== 'ready') continue;
    held.set(other, element);
    other.phase = 'paying';
  }
}

/**
 * Lets go of what `element` held (its payment ended, or it left the page), and of `element` itself
 * when it leaves held; without telling the page, which hears the payer. A payer out of the page
 * ended: its heir shows that end as the payer would have (the decline, the error).
 */
export function release(element: CheckoutElement): void {
  const heir = heirOf(element);
  for (const [other, holder] of held) {
    if (other !== element && holder !== element) continue;
    held.delete(other);
    // Unless it went on meanwhile (the page gave it another session).
    if (other.phase !== 'paying') continue;
    other.phase = 'ready';
    const status = holder.view?.status;
    if (holder.session === other.session && (other === heir || status === 'success' || status === 'expired')) {
      other.view = holder.view;
      other.phase = holder.phase;
      // The payer's words, alarming as they were.
      other.say(holder.notice, holder.alarming);
    }
  }
}

/**
 * A payer taken out of the page while confirming or waiting: its removal stopped its polling, so
 * its heir polls instead, holding the others. With none (the customer followed a link as it
 * confirmed), a payer that sent a card polls on out of the page, and the document hears the end
 * (`relay`), until an element of its session shows and reads it (`settled`). Once.
 */
function handOver(payer: CheckoutElement): void {
  if (!payers.delete(payer)) return;
  const heir = heirOf(payer);
  if (!heir) return void (cardSent.has(payer) && payer.poll());
  held.delete(heir);
  for (const [other, holder] of held) if (holder === payer) held.set(other, heir);
  void heir.poll();
}

/** The elements whose last payment sent a card: its end is the page's news wherever the customer went (`relay`). */
export const cardSent = new WeakSet<CheckoutElement>();
