/**
 * The customer fields a payer types into the widget (and a merchant may prefill), in the shape
 * the gateway accepts: names, an e-mail address, a phone number of 7–15 digits (spaces, dots,
 * dashes and brackets as people type them are dropped). None may hold a card number.
 */
import * as z from 'zod';
import { holdsCardNumber, isCardNumberAsPhone, nameHoldsCardNumber } from '@payform/card';
import { maskFreeText } from '@payform/gateway';
import { EMAIL_ADDRESS, requiredText } from '@payform/gateway/wire';
import { emailAsWritten } from '../../ledger/index.js';
import type { CustomerDetails, PaymentMethod } from '../../ledger/index.js';
import type { MerchantSector } from '@payform/gateway';
import { definedFields } from '../optional-fields.js';

export type CustomerField = 'fname' | 'lname' | 'email' | 'phone';

/** A run of URL escapes, each maybe escaped again (`%2534` for `%34`). */
const ESCAPED_BYTES = /(?:%(?:25)*[\da-f]{2})+/gi;
// Not fatal: a malformed sequence (`%EF%BC`, `%C0%80`) reads as U+FFFD rather than throwing.
const utf8 = new TextDecoder();

/**
 * `value` with its URL escapes read as the UTF-8 they spell: an escaped digit (`%34`, escaped
 * again `%2534`), which no encoder writes, hides a number, and so does the UTF-8 of a full-width
 * or other digit (`%EF%BC%94`, ４), which the card check reads as a digit once it is written out.
 */
function escapesRead(value: string): string {
  return value.replace(ESCAPED_BYTES, (run) => {
    const escapes = run.split('%');
    const bytes = new Uint8Array(escapes.length - 1);
    // The byte of each escape is its last two hex digits: `%25` before them only escaped its `%`.
    for (let i = 1; i < escapes.length; i++) bytes[i - 1] = parseInt(escapes[i]!.slice(-2), 16);
    return utf8.decode(bytes);
  });
}

/**
 * Text that is kept, echoed and sent on may not hold a card number, however it is written: a payer
 * who types the card number into a name field would otherwise have it stored and sent on; an id
 * or an address with its digits percent-escaped (`%34%31…`, `%EF%BC%94…`) is read as the digits
 * it spells.
 */
export const holdsWrittenCardNumber = (value: string, holds: (value: string) => boolean = holdsCardNumber): boolean =>
  holds(value) || (value.includes('%') && holds(escapesRead(value)));

export const withoutCardNumber = <T extends z.ZodType<string>>(text: T, holds: (value: string) => boolean = holdsCardNumber) =>
  text.refine((value) => !holdsWrittenCardNumber(value, holds), { error: 'must not contain a card number' });

// The widget refuses it by the same rule as the payer types (its customer checks). A merchant's
// prefilled patronym and city are held to it too.
// Embeddings and overrides (U+202A–202E) make a name show as other words; the isolates a
// messaging app wraps a pasted contact's name in (U+2066–2069) cannot, and are left to it.
const DIRECTION_OVERRIDES = /[\u202a-\u202e]/u;

export const Name = withoutCardNumber(
  z.string().trim().pipe(requiredText(256)).refine((value) => !DIRECTION_OVERRIDES.test(value), { error: 'must not hold text-direction overrides (U+202A–202E): they change how the name shows' }),
  nameHoldsCardNumber,
)
  // A security code beside its name ("CVV 737") would be kept as written: free text masks it, a
  // name is the customer's own and is refused instead. (A card number is refused above.)
  .refine((value) => maskFreeText(value) === value || nameHoldsCardNumber(value), { error: 'must not contain a card’s security code (CVV)' })
  .describe('1 to 256 characters once trimmed; no card number in it, nor in its digits alone, nor a card’s security code named with its digits; no text-direction overrides');
// The shape of an address only, as the gateway's client checks it: zod's default pattern refuses
// one-letter top-level domains and internationalised addresses, which the widget takes.
// Its domain as written first (a browser gives xn--), then checked: a card number may be spelt in a domain's other digits.
const Email = withoutCardNumber(z.string().trim().transform(emailAsWritten).pipe(z.email({ pattern: EMAIL_ADDRESS, error: 'must be an e-mail address' }).max(256))).describe('An e-mail address, at most 256 characters once trimmed (one-letter top-level domains and internationalised addresses are taken; a domain’s xn-- labels are kept in Unicode, its other non-ASCII ones in lower case)');

const Phone = z
  .string()
  .transform((phone) => phone.replace(/[\s().-]/g, ''))
  .pipe(z.string().regex(/^\+?\d{7,15}$/, { error: 'must be 7 to 15 digits, optionally after a +' }))
  .refine((phone) => !isCardNumberAsPhone(phone), { error: 'must be a phone number, not a card number' })
  .describe('7 to 15 digits, optionally after a +; spaces, dots, dashes and brackets are dropped');

/** The four fields the payer may type, each optional. */
export const customerFields = { fname: Name.optional(), lname: Name.optional(), email: Email.optional(), phone: Phone.optional() };

/**
 * The names as they are shown and exported, one after the other (`fname lname`): a card number
 * split between them is one there, though neither holds one alone. Both are named.
 */
export function namesApart(customer: { readonly fname?: string; readonly lname?: string }, ctx: z.RefinementCtx): void {
  for (const [field, message] of Object.entries(cardInNames(customer) ?? {})) ctx.addIssue({ code: 'custom', path: [field], message });
}

/**
 * The reasons, by field, when the first and the last name hold a card number between them
 * (and neither alone, which is refused for that): for a request's names, and for the names a
 * payment keeps, the payer's and the merchant's prefill put together.
 */
export function cardInNames({ fname, lname }: { readonly fname?: string; readonly lname?: string }): Record<'fname' | 'lname', string> | undefined {
  if (fname === undefined || lname === undefined || !nameHoldsCardNumber(`${fname} ${lname}`)) return undefined;
  if (nameHoldsCardNumber(fname) || nameHoldsCardNumber(lname)) return undefined;
  return { fname: 'must not contain a card number: with the last name after it, it holds one', lname: 'must not contain a card number: with the first name before it, it holds one' };
}

export const Customer = z.strictObject(customerFields).superRefine(namesApart);
export type Customer = z.output<typeof Customer>;

export function customerDetails(customer: Customer): CustomerDetails {
  return definedFields({ fname: customer.fname, lname: customer.lname, email: customer.email, phone: customer.phone });
}

/** The fields the gateway requires of the customer in a direct payment (interface, endpoint 1): all four. */
const EVERY_FIELD: readonly CustomerField[] = ['fname', 'lname', 'email', 'phone'];
const CONTACT_FIELDS: readonly CustomerField[] = ['email', 'phone'];

/**
 * What a payment in `mode` requires: a hosted page takes the names on itself, but for a
 * microfinance or iGaming merchant, whose names the gateway wants with the request (its rule 3).
 */
const requiredIn = (mode: 'direct' | 'hosted', sector: MerchantSector | undefined): readonly CustomerField[] =>
  mode === 'hosted' && sector === undefined ? CONTACT_FIELDS : EVERY_FIELD;

/**
 * The fields the payer must still give: required by the allowed modes (and the merchant's
 * sector) and not prefilled. A card verification (lookup) requires none of them.
 */
export function missingCustomerFields(modes: readonly ('direct' | 'hosted')[], known: CustomerDetails, method: PaymentMethod, sector: MerchantSector | undefined): CustomerField[] {
  if (method === 'lookup') return [];
  const required = new Set(modes.flatMap((mode) => requiredIn(mode, sector)));
  return EVERY_FIELD.filter((field) => required.has(field) && !known[field]);
}

/** The gateway's `customer_*` parameters for what is known of the customer. */
export function customerParams(customer: CustomerDetails): Record<string, string> {
  return definedFields({
    customer_fname: customer.fname,
    customer_lname: customer.lname,
    customer_patronym: customer.patronym,
    customer_email: customer.email,
    customer_phone: customer.phone,
    customer_country: customer.country,
    customer_birthday: customer.birthday,
    customer_tax_id: customer.taxId,
  }) as Record<string, string>;
}
