/**
 * The session opened for the cart, kept for this tab: a reload, or Back from 3-D Secure, shows that
 * session again (paid, being confirmed or still open) rather than a new one the customer could
 * pay a second time. Dropped once paid (by the result page, once it has shown the payment), or when
 * the cart or the details change.
 */
import { cartLines } from './cart.js';
import type { CheckoutOptions, OpenedCheckout } from './shop-api.js';

const CHECKOUT_KEY = 'kavarnia:checkout';

export interface KeptCheckout {
  readonly cart: string;
  readonly options: CheckoutOptions;
  readonly checkout: OpenedCheckout;
}

/** The session kept for this cart, if the cart is still the one it was opened for. */
export function keptCheckout(): KeptCheckout | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(CHECKOUT_KEY) ?? 'null') as KeptCheckout | null;
    return stored?.cart === JSON.stringify(cartLines()) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `value`, or drops what was kept. */
export function keepCheckout(value: KeptCheckout | undefined): void {
  try {
    if (value) sessionStorage.setItem(CHECKOUT_KEY, JSON.stringify(value));
    else sessionStorage.removeItem(CHECKOUT_KEY);
  } catch {
    // Not kept: a reload shows the details form, as before.
  }
}
