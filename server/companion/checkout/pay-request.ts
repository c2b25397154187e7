/**
 * `POST /api/checkout/sessions/:id/pay`: the body's schema — full card data or a saved card's
 * token, the customer fields the session asks for, and what the browser knows for 3-D Secure.
 * The amount is not part of it: the session's amount is charged. Reasons never quote a value,
 * so a rejected card number or CVV is not echoed back. (The expiry rule is @payform/card's
 * hasExpired; the request names of the gateway's fields, request-fields.ts.)
 */
import * as z from 'zod';
import { BrowserFingerprint as GatewayFingerprint, CardCvv, CardNumber, ExpMonth, ExpYear } from '@payform/gateway/wire';
import { MIN_DIGITS } from '@payform/card/fields';
import { Customer, withoutCardNumber } from './customer.js';
import { PageUrl } from './payer-page.js';

const CARD_FIELDS = ['number', 'exp_month', 'exp_year', 'cvv'] as const;

/**
 * Spaces and dashes as people type them are dropped before the checks. The gateway takes 12 to
 * 19 digits; no scheme issues fewer than 14 today, and a shorter one would pass the masks that
 * keep card numbers out of logs and stored text (MIN_DIGITS): refused, as the widget refuses it.
 */
const CARD_DIGITS = new RegExp(`^\\d{${MIN_DIGITS},19}$`);
const Number_ = z
  .string()
  .max(32)
  .transform((number) => number.replace(/[\s-]/g, ''))
  // One rule for letters in it and for 13 digits alike: the wire's own 12 would contradict it.
  .refine((digits) => CARD_DIGITS.test(digits), { error: `must be ${MIN_DIGITS} to 19 digits`, abort: true })
  .pipe(CardNumber)
  .meta({ description: `${MIN_DIGITS} to 19 digits passing the Luhn check; spaces and dashes as typed are dropped` });
const YEAR_DIGITS = { error: 'must be a year of 2 or 4 digits (30 or 2030)' };
/** Four digits, or two (30 → 2030). */
const Year = z
  .number()
  .int(YEAR_DIGITS)
  .min(0, YEAR_DIGITS)
  .max(9999, YEAR_DIGITS)
  .transform((year) => (year >= 0 && year < 100 ? 2000 + year : year))
  .pipe(ExpYear)
  .meta({ description: 'Four digits (2030), or two, read as 20xx (30 is 2030)', anyOf: [{ maximum: 99 }, { minimum: 2000, maximum: 2099 }] });

export type CardInput =
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'card'; readonly number: string; readonly expMonth: number; readonly expYear: number; readonly cvv: string };

const Card = z
  .strictObject({
    token: z.string().min(1).max(512).optional(),
    number: Number_.optional(),
    exp_month: ExpMonth.optional(),
    exp_year: Year.optional(),
    cvv: CardCvv.meta({ description: '4 digits for American Express (a number starting 34 or 37), 3 for any other' }).optional(),
  })
  .superRefine((card, ctx) => {
    if (card.token !== undefined) {
      for (const field of CARD_FIELDS) {
        if (card[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is not sent with a saved card token' });
      }
      return;
    }
    // Nothing of either: both ways are named (a companion whose widget tokenizes takes a token only).
    if (CARD_FIELDS.every((field) => card[field] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'must hold a token, or number, exp_month, exp_year and cvv' });
      return;
    }
    for (const field of CARD_FIELDS) {
      if (card[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' });
    }
    if (card.number !== undefined && card.cvv !== undefined) {
      const length = /^3[47]/.test(card.number) ? 4 : 3;
      if (card.cvv.length !== length) ctx.addIssue({ code: 'custom', path: ['cvv'], message: `must be ${length} digits for this card` });
    }
  })
  // What the refinement checks, for a client generated from the OpenAPI document: one or the other.
  // (A property whose schema is `false` must be absent.)
  .meta({
    oneOf: [
      { required: ['token'], properties: Object.fromEntries(CARD_FIELDS.map((field) => [field, false])) },
      { required: [...CARD_FIELDS], properties: { token: false } },
    ],
  })
  .transform(
    (card): CardInput =>
      card.token !== undefined
        ? { kind: 'token', token: card.token }
        : { kind: 'card', number: card.number!, expMonth: card.exp_month!, expYear: card.exp_year!, cvv: card.cvv! },
  );

const digitsUpTo = (most: number, what: string) => z.string().regex(new RegExp(`^\\d{1,${most}}$`), { error: `must be ${what}` });

/**
 * The browser's part of EMV 3-D Secure data; the companion adds IP, Accept and User-Agent. The
 * wire takes any string; here each field has the shape a browser gives it (gateway-notes.md), so
 * that nothing else, a card number least of all, goes on to the gateway in a field no mask reads.
 */
export const BrowserFingerprint = GatewayFingerprint.omit({ browserAcceptHeader: true, browserIpAddress: true, browserUserAgent: true }).extend({
  browserColorDepth: z.enum(['1', '4', '8', '15', '16', '24', '32', '48'], { error: 'must be a colour depth EMV 3-D Secure takes: 1, 4, 8, 15, 16, 24, 32 or 48' }),
  browserScreenHeight: digitsUpTo(6, 'the screen’s height in pixels, up to 6 digits'),
  browserScreenWidth: digitsUpTo(6, 'the screen’s width in pixels, up to 6 digits'),
  browserJavaEnabled: z.enum(['true', 'false'], { error: 'must be "true" or "false"' }),
  // Subtags of up to 8 letters or digits, never 5 digits in a row (a region has 3, a variant 4).
  browserLanguage: withoutCardNumber(
    z.string().max(35).regex(/^(?!.*\d{5})[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/, { error: 'must be a BCP 47 language tag, as navigator.language gives it (uk-UA)' }),
  ),
  // An IANA name (Europe/Kyiv, Etc/GMT-2: never 3 digits in a row), or an offset (+05:30).
  browserTimeZone: z
    .string()
    .max(64)
    .regex(/^(?:[A-Za-z](?:[A-Za-z_+\-/]|\d{1,2}(?!\d))*|[+-]\d{2}(?::?\d{2})?)$/, { error: 'must be a time zone’s name, as Intl.DateTimeFormat gives it (Europe/Kyiv)' }),
  browserTimeZoneOffset: z.string().regex(/^[+-]?\d{1,4}$/, { error: 'must be minutes, as Date#getTimezoneOffset gives them (-120 for UTC+2)' }),
});
/** Strings, as the wire takes them: a merchant's charge, with no browser, sends them empty. */
export type BrowserFingerprint = Omit<z.output<typeof GatewayFingerprint>, 'browserAcceptHeader' | 'browserIpAddress' | 'browserUserAgent'>;

export const PayRequest = z.strictObject({
  card: Card,
  customer: Customer.optional(),
  fingerprint: BrowserFingerprint,
  // The page paid from: checked where it is used (payer-page.ts); one too long is only not returned to.
  page_url: PageUrl,
});
export type PayRequest = z.output<typeof PayRequest>;
