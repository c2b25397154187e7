import type { BrandId } from '@payform/card/fields';

/**
 * The version of the session view this widget reads, as the view says it (`version`): the
 * release that last changed what the view means, not every release's. Any other view — a 0.2
 * companion's, which says none and counts amounts in decimals — is not shown: its amount would be
 * 100 times off, and diagnose.ts says why. Changed only with the view, on both sides at once (a
 * test of the companion holds the two together): a release that leaves the view as it is keeps
 * widget and companion of either release working together.
 */
export const VERSION = '0.3';

/**
 * What `GET /api/checkout/sessions/:id` answers: the public view of a checkout session.
 * docs/widget.md ("Session view the widget expects") is the companion's side of this contract.
 */
export interface SessionView {
  /** The view's version: this widget's `VERSION`, or the view is not read. */
  version: string;
  id: string;
  /** Integer minor units of `currency`: 10050 is 100.50 UAH. */
  amount: number;
  /** ISO 4217 code, `XTS` for test payments. */
  currency: string;
  description?: string;
  /** `lookup`: the session saves a card (card verification) instead of paying; the amount is only held to verify it. */
  method?: 'purchase' | 'auth' | 'lookup';
  /**
   * `open`: can be paid; `failure`: the last attempt failed and it can be paid again (`message` says why);
   * `pending`: a payment is in flight (3-D Secure, processing); `success`: paid; `expired`: can no longer be paid.
   */
  status: SessionStatus;
  /** Modes the merchant allows; without `direct` the widget shows the hosted pay button only. */
  modes: PayMode[];
  /** Customer fields the customer must fill in; the ones the merchant prefilled are left out. */
  customer_fields: CustomerField[];
  /** Card schemes the merchant accepts; absent means every scheme the widget knows. */
  brands?: BrandId[];
  /** A test (sandbox) session: the widget shows a banner and the test cards. */
  test: boolean;
  /** With `test`: the sandbox's origin, the one non-`https:` place the widget may redirect to. */
  sandbox_origin?: string;
  /**
   * The gateway's card tokenizer, when the companion takes tokens instead of card numbers: the
   * widget sends the card there (`url`, signed with `widget_key`) and pays with the token.
   */
  tokenizer?: { url: string; widget_key: string };
  saved_cards: SavedCard[];
  /** The session's order id, or its latest attempt's (`shop-1:2`). */
  order_id: string;
  /** Customer-safe text about the last failed attempt. */
  message?: string;
  /** With `pending`: the 3-D Secure challenge the payment waits for, offered to a customer back without finishing it. */
  challenge_url?: string;
  /** With `open` or `failure`: seconds left to pay, as the companion answered; the customer is told two minutes before. */
  expires_in_seconds?: number;
  /**
   * With `open` or `failure`: whether the customer may ask for more time (`POST …/extend`), offered
   * beside that warning. Absent (a companion before 0.3) reads as false: the warning alone.
   */
  extendable?: boolean;
}

export type SessionStatus = 'open' | 'pending' | 'success' | 'failure' | 'expired';
export type PayMode = 'direct' | 'hosted';
export type CustomerField = 'fname' | 'lname' | 'email' | 'phone';

export interface SavedCard {
  /** The id the pay request sends back as `card.token`. */
  token: string;
  /** Masked number as the gateway gives it, e.g. `424242******4242`. */
  mask: string;
  brand?: BrandId;
}

const STATUSES: readonly unknown[] = ['open', 'pending', 'success', 'failure', 'expired'];
const isList = <T>(value: unknown, of: (item: T) => boolean): boolean => Array.isArray(value) && value.every(of);
const isText = (value: unknown): value is string => typeof value === 'string';


/** The view if the answer has the shape the widget relies on; absent lists become empty. */
export function readSessionView(body: unknown): SessionView | undefined {
  const view = body as SessionView;
  const { saved_cards: cards = [], customer_fields: fields = [] } = view ?? {};
  return view?.version === VERSION && isText(view.id) && isText(view.order_id) && Number.isSafeInteger(view.amount) && view.amount >= 0 && /^[A-Z]{3}$/.test(view.currency) && STATUSES.includes(view.status) &&
    isList(view.modes, isText) && isList(fields, isText) && isList(cards, (card: SavedCard) => isText(card?.token) && isText(card.mask))
    ? { ...view, customer_fields: fields, saved_cards: cards, test: view.test === true }
    : undefined;
}
