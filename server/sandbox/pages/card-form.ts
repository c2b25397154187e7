/**
 * Server-side checks of the checkout page's card fields, phrased for the person paying. What
 * the interface asks a merchant page to check before sending a card (its rule 5) the gateway's
 * own page checks too: the Luhn checksum, an expiry date that has not passed, and a security
 * code of the brand's length. The number is never put back into the page.
 */
import { hasValidCheckDigit } from '@payform/gateway/wire';
import type { PayerCard } from '../payments.js';
import { BRAND_NAMES, cardBrand, cvvLength, hasExpired } from '../state/cards.js';

export type CardField = 'cc_number' | 'exp_month' | 'exp_year' | 'card_cvv';

export interface FieldError {
  readonly field: CardField;
  readonly message: string;
}

export type CardFormResult =
  | { readonly ok: true; readonly card: PayerCard & { kind: 'card' } }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

export function readCardForm(form: Readonly<Record<string, string>>, now: Date): CardFormResult {
  const errors: FieldError[] = [];
  const number = (form.cc_number ?? '').replace(/[\s-]/g, '');
  const month = (form.exp_month ?? '').trim();
  const year = (form.exp_year ?? '').trim();
  const cvv = (form.card_cvv ?? '').trim();

  const numberError = checkNumber(number);
  if (numberError) errors.push({ field: 'cc_number', message: numberError });

  const expMonth = /^\d{1,2}$/.test(month) ? Number(month) : NaN;
  if (!(expMonth >= 1 && expMonth <= 12)) errors.push({ field: 'exp_month', message: 'Enter the expiry month as a number from 1 to 12' });
  const expYear = /^\d{2}$/.test(year) ? 2000 + Number(year) : /^\d{4}$/.test(year) ? Number(year) : NaN;
  if (Number.isNaN(expYear)) errors.push({ field: 'exp_year', message: 'Enter the expiry year as 2 or 4 digits' });
  else if (expMonth >= 1 && expMonth <= 12 && hasExpired(expMonth, expYear, now)) {
    errors.push({ field: 'exp_year', message: 'The card has expired: check the expiry date' });
  }

  const brand = cardBrand(number);
  const length = cvvLength(brand);
  if (cvv === '') errors.push({ field: 'card_cvv', message: 'Enter the security code' });
  else if (!/^\d+$/.test(cvv) || cvv.length !== length) {
    const forBrand = numberError ? '' : ` for ${BRAND_NAMES[brand]} cards`;
    errors.push({ field: 'card_cvv', message: `The security code must be ${length} digits${forBrand}` });
  }

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, card: { kind: 'card', number, expMonth, expYear, cvv } };
}

function checkNumber(number: string): string | undefined {
  if (number === '') return 'Enter the card number';
  if (!/^\d+$/.test(number)) return 'Enter the card number using digits only';
  if (number.length < 12 || number.length > 19) return 'The card number must be 12 to 19 digits';
  if (!hasValidCheckDigit(number)) return 'The card number is not valid: check it for typing errors';
  return undefined;
}
