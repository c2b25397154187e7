import type enMessages from './en-messages.js';

/**
 * English, built into the bundle: what every form shows, and the general messages the specific
 * ones fall back on (what only some forms show — test mode's banner, a check after waiting, the
 * note on a submit with mistakes — comes with them). Those specific ones (en-messages.ts) load with the catalog, as other languages
 * do. Every other catalog has exactly the keys of both, but for English's own `EnglishOnly`. `{}` stands for the amount.
 */
export const en = {
  number: 'Card number',
  exp: 'Expiry date',
  exp_hint: 'MM/YY',
  cvv: 'Security code',
  cvv_hint: '3 digits on the back',
  cvv_hint_amex: '4 digits on the front',
  fname: 'First name',
  lname: 'Last name',
  email: 'Email',
  phone: 'Phone',
  saved: 'Pay with',
  new_card: 'A new card',
  pay: 'Pay {}',
  pay_hosted: 'Pay {} on the secure payment page',
  processing: 'Processing payment…',
  confirming: 'Confirming your payment…',
  paid: 'Payment successful',
  server: 'Something went wrong. Please try again in a moment.',
  closed: 'This payment is no longer available.',
  unknown: 'This payment link is not valid.',
  loading: 'Loading…',
  required: 'This field is required.',
  invalid: 'Check this value.',
};

/** English's alone (en-messages.ts): a decline the companion gave no words for, which other languages never show. */
type EnglishOnly = 'declined_en';

export type Catalog = Record<Exclude<keyof typeof en | keyof typeof enMessages, EnglishOnly>, string>;
export type Message = keyof Catalog;

/** What an element reads: a catalog, or English whose specific messages have not loaded (or could not). */
export type Strings = typeof en & Partial<Catalog & Record<EnglishOnly, string>> & {
  /** The words' language when it is not the page's: English where the widget has none of the page's, or they could not load. */
  lang?: string;
};
