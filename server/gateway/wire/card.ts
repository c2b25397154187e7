/**
 * Card data and browser data of a direct payment. Card fields exist only on the way to the
 * gateway: schemas here never put a value into an issue, so a rejected number is not echoed.
 */
import { luhn } from '@payform/card';
import * as z from 'zod';

/** UnionPay (IINs 62 and 81) issues numbers that need not pass Luhn; the widget exempts them too. */
const LUHN_EXEMPT = /^(?:62|81)/;

/** The number's check digit as the gateway checks it: Luhn, except for the schemes exempt from it. */
export function hasValidCheckDigit(digits: string): boolean {
  return LUHN_EXEMPT.test(digits) || luhn(digits);
}

export const CardNumber = z
  .string()
  // Not digits (`4242 4242 4242 4242`, as typed): the check digit of what is no number says nothing.
  .regex(/^\d{12,19}$/, { error: 'must be 12 to 19 digits', abort: true })
  .refine(hasValidCheckDigit, { error: 'fails the Luhn check' });

// The bounds first, and alone: a year of 1e18 is past 2099, not past 2^53 as well.
export const ExpMonth = z.number().min(1, { abort: true }).max(12, { abort: true }).int();
/** Four-digit year; whether the card has expired is the gateway's decision (code 4001). */
export const ExpYear = z.number().min(2000, { abort: true }).max(2099, { abort: true }).int();
export const CardCvv = z.string().regex(/^\d{3,4}$/, { error: 'must be 3 or 4 digits' });
/** Tokens of earlier card payments, and wallet tokens prefixed `rcr:`. */
export const CardToken = z.string().min(1).max(512);

/** The four fields of full card data; the interface sends them together or not at all. */
export const cardFields = {
  cc_number: CardNumber,
  exp_month: ExpMonth,
  exp_year: ExpYear,
  card_cvv: CardCvv,
} as const;
export const CARD_FIELDS = Object.keys(cardFields) as (keyof typeof cardFields)[];

const browserString = z.string().max(2048);

/** EMV 3-D Secure 2 browser data: ten strings, all required for direct payments. */
export const BrowserFingerprint = z.object({
  browserColorDepth: browserString,
  browserScreenHeight: browserString,
  browserScreenWidth: browserString,
  browserJavaEnabled: browserString,
  browserLanguage: browserString,
  browserTimeZone: browserString,
  browserTimeZoneOffset: browserString,
  browserAcceptHeader: browserString,
  browserIpAddress: browserString,
  browserUserAgent: browserString,
});
export type BrowserFingerprint = z.infer<typeof BrowserFingerprint>;
