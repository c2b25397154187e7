/**
 * `POST /api/checkout/sessions`: what the merchant's backend sends to open a checkout, checked
 * and turned into the ledger's terms (camelCase). Amounts are integer minor units, set here, by
 * the merchant, and never by the browser.
 */
import * as z from 'zod';
import { foldDigits, holdsCardNumberOfItsLength } from '@payform/card';
import { namesSecurityCode } from '@payform/gateway';
import { Currency, IsoDate, SOMETHING_VISIBLE, Url, requiredText } from '@payform/gateway/wire';
import type { CustomerDetails, NewCheckoutSession } from '../../ledger/index.js';
import { Amount, checkAmount, checkSplitTotal } from '../http/amounts.js';
import { maskedText } from '../http/masked-text.js';
import { SplitShares } from '../http/split-shares.js';
import { customerDetails, customerFields, Name, namesApart, withoutCardNumber } from './customer.js';
import { definedFields } from '../optional-fields.js';

/**
 * Order ids travel in gateway paths and capture/void/refund take at most 32 characters. A
 * payment's order id is the session's, or a retry's `<order_id>:<attempt>`.
 */
export const OrderId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,31}$/, { error: 'must be 1 to 32 letters, digits or . _ : - (starting with a letter or digit)' });

/**
 * The merchant's order id of a new session leaves room for its retries: no colon (the ledger's
 * `:<attempt>` suffix, so a merchant's id is never a retry's) and at most 28 characters.
 */
export const SessionOrderId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,27}$/, { error: 'must be 1 to 28 letters, digits or . _ - (starting with a letter or digit)' });

/**
 * An id the merchant passes on (a tax id, its own customer id): kept, echoed in answers and sent
 * to the gateway, so a card number pasted into one is refused like one in a name. Ids of digits
 * (timestamps, tax numbers, phone numbers, UUIDs, runs longer than a card number) are not card
 * numbers to the recogniser.
 */
const IdText = (max: number) => withoutCardNumber(requiredText(max), holdsCardNumberOfItsLength);

/**
 * A date of birth: a day already begun somewhere on Earth (UTC+14), from 1900 on. A future or
 * year-0 date is a form's default or a typo, and the gateway would take it for the customer's.
 */
const Birthday = IsoDate.refine((day) => day >= '1900-01-01' && Date.parse(day) <= Date.now() + 14 * 3_600_000, { error: 'must be a past date from 1900-01-01 on' });

/**
 * Where the customer lands after paying on another origin (3-D Secure, the hosted page): whole,
 * for a path (`/thanks`), the commonest first try, means nothing on the gateway's origin.
 */
const ReturnUrl = z
  .string()
  .refine((value) => !value.startsWith('/'), { error: 'must be an absolute https: URL (https://shop.example/thanks), not a path: the customer comes back from the gateway’s origin', abort: true })
  .pipe(Url.max(2048))
  .refine((value) => !carriesSecurityCode(value), { error: 'must not contain a card’s security code (CVV)' });

const SECURITY_CODE = /^\s*\d{3,4}\s*$/;

/**
 * Whether a URL's query or fragment has a parameter named as a security code with a code's 3–4
 * digits (`?cvv=737`, `#card_cvc=1234`): a shop that puts its form's fields in the return address
 * would have the code kept, given back and sent to the gateway.
 */
function carriesSecurityCode(url: string): boolean {
  // Checked after the URL's own check, whose refusal does not stop this one: no URL, no code in one.
  const parsed = URL.parse(url);
  if (!parsed) return false;
  const { search, hash } = parsed;
  // A fragment holds a query of its own after a `?` (`#/done?cvv=737`), or is one (`#cvv=737`).
  const fragment = hash.slice(1);
  return [search, fragment.slice(fragment.indexOf('?') + 1)].some((query) =>
    [...new URLSearchParams(query)].some(([name, value]) => namesSecurityCode(name) && SECURITY_CODE.test(foldDigits(value))),
  );
}

/** Customer data the merchant may prefill: the widget's four fields and the gateway's others. */
const SessionCustomer = z
  .strictObject({
    ...customerFields,
    patronym: Name,
    country: z.string().regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code' }),
    birthday: Birthday,
    city: Name,
    lang: z.string().regex(/^[A-Z]{2}$/, { error: 'must be an upper-case two-letter code such as EN or UK' }),
    tax_id: IdText(32),
  })
  .partial()
  .superRefine(namesApart);

/** What a payment of any kind is: the fields a session and a saved card's charge share. */
export const paymentFields = {
  amount: Amount,
  currency: Currency,
  // Kept, shown to the customer and sent on: masked as it is read. Spaces or invisible
  // characters alone would show the customer nothing of what they pay for.
  description: maskedText(requiredText(2048).regex(SOMETHING_VISIBLE, { error: 'must say what is sold: it holds only spaces or invisible characters' }), 2048),
  // Given back as written, and sent to the gateway: a card number in it is refused, as in customer_id.
  order_id: withoutCardNumber(SessionOrderId, holdsCardNumberOfItsLength).optional(),
  split: SplitShares.optional(),
  customer: SessionCustomer.optional(),
};

const SessionFields = z.strictObject({
  ...paymentFields,
  // lookup: verify and save a card for `customer_id`; the gateway holds `amount` to check it.
  method: z.enum(['purchase', 'auth', 'lookup']).default('purchase'),
  customer_id: IdText(128).optional(),
  // The customer's consent to keep the card (a stored credential): without it, the payment is
  // only linked to `customer_id`. Unset keeps it, as before the field.
  save_card: z
    .boolean()
    .optional()
    .describe('Whether a successful payment keeps the card for customer_id (the customer consented to a stored card). Default true; only with customer_id; never false for method lookup'),
  // Kept, given back and sent on as the gateway's return address: a card number in it, its
  // query's or its path's, is refused as in an id.
  return_url: withoutCardNumber(ReturnUrl, holdsCardNumberOfItsLength).optional(),
  modes: z.array(z.enum(['direct', 'hosted'])).min(1).optional(),
  ttl_seconds: z.number().int().min(60).max(7 * 86_400).optional(),
  extendable: z
    .boolean()
    .optional()
    .describe('Whether the customer may ask for more time as the end nears (10 minutes at a time, up to 20 hours after the session opened; WCAG 2.2.1). Default true; false when the end is essential, e.g. seats held for ttl_seconds'),
});
type SessionFields = z.output<typeof SessionFields>;

/** The rules across fields: split amounts and methods, what a lookup needs. */
function checkSession(session: SessionFields, ctx: z.RefinementCtx): void {
  checkAmount(ctx, ['amount'], session.amount, session.currency);
  session.split?.forEach((share, i) => checkAmount(ctx, ['split', i, 'amount'], share.amount, session.currency));
  checkSplitTotal(ctx, 'amount', session.amount, session.split);
  // A two-step payment is split when it is captured (split capture), not when it is reserved.
  if (session.split && session.method === 'auth') {
    ctx.addIssue({ code: 'custom', path: ['split'], message: 'applies to purchase sessions; split an auth when capturing it' });
  }
  if (session.method === 'lookup') {
    if (session.split) ctx.addIssue({ code: 'custom', path: ['split'], message: 'applies to purchase sessions; a card verification pays nothing' });
    if (!session.customer_id) ctx.addIssue({ code: 'custom', path: ['customer_id'], message: 'is required to save a card (method lookup)' });
    if (session.save_card === false) ctx.addIssue({ code: 'custom', path: ['save_card'], message: 'cannot be false for method lookup, which only saves a card' });
  }
  if (session.save_card !== undefined && !session.customer_id) {
    ctx.addIssue({ code: 'custom', path: ['save_card'], message: 'needs customer_id: a card is saved for a customer' });
  }
  const subMerchants = session.split?.map((share) => share.sub_merchant_id.toLowerCase()) ?? [];
  if (new Set(subMerchants).size !== subMerchants.length) {
    ctx.addIssue({ code: 'custom', path: ['split'], message: 'must name each sub-merchant once' });
  }
}

/**
 * The amount's refusal said beside the other fields' when some of them fail: checkSession runs
 * only once every field has parsed, and an amount in major units (`249.50`), the commonest first
 * mistake, would otherwise be named only after the rest had been mended.
 */
function checkAmountBesideOthers(session: SessionFields, ctx: z.RefinementCtx): void {
  // What parsed so far, which may be anything sent: `null`, an array.
  const { amount, currency } = (typeof session === 'object' && session !== null ? session : {}) as { amount?: unknown; currency?: unknown };
  const said = ctx.issues.some(({ path }) => path?.[0] === 'amount' || path?.[0] === 'currency');
  if (!said && typeof amount === 'number' && typeof currency === 'string') checkAmount(ctx, ['amount'], amount, currency);
}

/** Every refusal of a session's (or a charge's) fields at once: the checks across fields, or the amount's beside the others. */
export const sessionChecks = <T extends z.ZodType<SessionFields>>(fields: T) =>
  // The amount's own check first, and only where a field failed (checkSession then does not run).
  fields.superRefine(checkAmountBesideOthers, { when: ({ issues }) => issues.length > 0 }).superRefine(checkSession);

/** The ledger's terms: camelCase. */
export function toNewSession(session: SessionFields): NewCheckoutSession {
  const amount = session.amount;
  const split = session.split?.map((share) => ({ subMerchantId: share.sub_merchant_id, amount: share.amount }));
  const customer: CustomerDetails | undefined = session.customer && {
    ...customerDetails(session.customer),
    ...definedFields({
      patronym: session.customer.patronym,
      country: session.customer.country,
      birthday: session.customer.birthday,
      city: session.customer.city,
      lang: session.customer.lang,
      taxId: session.customer.tax_id,
    }),
  };
  return definedFields({
    amount,
    currency: session.currency,
    description: session.description,
    method: session.method,
    orderId: session.order_id,
    split,
    customer,
    customerId: session.customer_id,
    saveCard: session.save_card,
    returnUrl: session.return_url,
    allowedModes: session.modes,
    ttlSeconds: session.ttl_seconds,
    extendable: session.extendable,
  });
}

export const NewSessionRequest = sessionChecks(SessionFields).transform(toNewSession);

