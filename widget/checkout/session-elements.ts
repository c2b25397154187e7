/**
 * The elements of the page, by session: those shown, those paying and those a payment holds, and
 * which of a session's speaks for it. One set for all of the page's elements, whatever module asks.
 */
import type { CheckoutElement } from './checkout-element.js';

/** The elements on the page, once shown (`ready`). */
export const shown = new Set<CheckoutElement>();
/** The elements whose payment is under way, in the page or, its request in flight, taken out of it. */
export const payers = new Set<CheckoutElement>();
/** The elements another one's payment holds, and that one. */
export const held = new Map<CheckoutElement, CheckoutElement>();
/**
 * An element of the payer's session in the page that it does not hold: one reading the session
 * (the page rendered the checkout anew), or confirming or waiting for a payment of it. The
 * customer is at checkout: a redirect of the payer out of the page is theirs to take.
 */
export const atCheckout = (payer: CheckoutElement): CheckoutElement | undefined => inPage(payer).find((other) => /^(l|co|w)/.test(other.phase));

/** The elements of `element`'s session in the page. */
export const inPage = ({ session }: CheckoutElement): CheckoutElement[] => [...shown].filter((other) => other.isConnected && other.session === session);

/**
 * The elements of `element`'s session in the page, the one that speaks for them first: the one
 * the customer is in, else a card form (where they look to pay), else the first in the page.
 */
export const voices = (element: CheckoutElement): CheckoutElement[] =>
  inPage(element).sort(
    (a, b) =>
      +!a.shadowRoot!.activeElement - +!b.shadowRoot!.activeElement || +a.hosted - +b.hosted || (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_PRECEDING ? 1 : -1),
  );

/** Of a payer out of the page, the first element of its session it holds: the one that tells the page its end (`relay`). */
export const heirOf = (payer: CheckoutElement): CheckoutElement | undefined =>
  payer.isConnected ? undefined : [...held].find(([, holder]) => holder === payer)?.[0];
