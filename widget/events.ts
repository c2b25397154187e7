import type { BrandId, CheckCode } from '@payform/card/fields';
import type { PayErrorCode } from './checkout/companion.js';
import type { CustomerField, PayMode } from './checkout/session-view.js';

export type FieldName = 'number' | 'exp' | 'cvv' | CustomerField;

/** Every event `<pay-form>` and `<pay-button>` dispatch, by type, with its `detail`. All bubble and are composed. */
export interface PayEventDetails {
  /** The session has loaded and the element takes payment. */
  'pay-ready': {
    mode: PayMode;
    test: boolean;
    /** In integer minor units of `currency`, as every payform amount: 24950 is 249.50 UAH. */
    amount: number;
    currency: string;
  };
  /**
   * A field changed. `complete`: it can be submitted as it is; `valid`: it is complete or can still
   * become so; `error`: the error code the field shows now, if any.
   */
  'pay-change': { field: FieldName; empty: boolean; complete: boolean; valid: boolean; brand?: BrandId; error?: CheckCode };
  /** The card number's brand became known, changed or became unknown again. */
  'pay-brand-change': { brand?: BrandId };
  /** The customer submitted a valid form. Cancelable: `preventDefault()` stops the payment. */
  'pay-submit': Record<string, never>;
  /** The widget is about to leave the page. Cancelable: `preventDefault()` keeps the customer here. */
  'pay-redirect': { url: string; reason: '3ds' | 'hosted' };
  /**
   * The payment succeeded. Also of a payment left in flight when the page set another session
   * (its answer a success, or pending and then a success): by that session's `orderId`, and
   * never shown on the new one.
   */
  'pay-success': { orderId: string; paymentId?: string };
  /** The payment was declined; the form stays for another try, unless the decline used up the session's attempts (`pay-error` `closed` follows). */
  'pay-failure': { message: string; orderId: string };
  /**
   * No usable answer from the companion (network, HTTP error, malformed answer, refused redirect).
   * `message` is the customer's; `reason`, for the developer, says what a misconfigured page
   * reached and what was expected (also on the console). `orderId`: of a payment the page took
   * the element off (it set another session) whose outcome the widget could not learn (no answer,
   * a server's error, an answer it could not read): the card may have been charged for that
   * order, so its outcome is the page's server's to check. `challenge_held`, on the document: a
   * 3-D Secure challenge came once the page had removed every element of its session; nothing
   * navigated, and an element of that session shown again takes the customer to it (`orderId`:
   * the order waiting for it; `reason` names the session).
   */
  'pay-error': { code: PayErrorCode; message: string; reason?: string; orderId?: string };
}

export type PayEventMap = { [K in keyof PayEventDetails]: CustomEvent<PayEventDetails[K]> };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the pay events into the DOM's event map
  interface GlobalEventHandlersEventMap extends PayEventMap {}
}

/** Dispatches a pay event; answers false when a listener cancelled it. */
export const emit = <K extends keyof PayEventDetails>(target: EventTarget, type: K, detail: PayEventDetails[K], cancelable?: boolean): boolean =>
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
