import { fail, VALID, type Check, hasEnoughDigits, isCardNumberAsPhone } from '@payform/card/fields';
import '../index.js'; // keeps the form's modules in one chunk under esbuild: see index.ts

// A card number typed or pasted into a name or the e-mail address is refused at once, by the
// rule the companion applies: it would be stored, shown to the merchant and sent on.
const CARD_NUMBER = fail('card_number', false);

// The detector (card/card-numbers.ts) is a chunk loaded the first time a name or address has as
// many digits as a card number, which they seldom do. Should it fail to load, the widget lets the
// value through and the companion's own check refuses it on payment.
let detector: { readonly holdsCardNumber: (text: string) => boolean; readonly nameHoldsCardNumber: (name: string) => boolean } | undefined;
let loading: Promise<unknown> | undefined;

/** `CARD_NUMBER` for text that holds one (a name: in its digits alone too), a pending check while the detector loads, else nothing. */
function cardNumberCheck(text: string, name = false): Check | undefined {
  if (!hasEnoughDigits(text)) return undefined;
  if (!detector) {
    loading ??= import('./card-numbers.js').then(
      (module) => (detector = module),
      () => (detector = { holdsCardNumber: () => false, nameHoldsCardNumber: () => false }),
    );
    return { valid: false, potentiallyValid: true, pending: loading };
  }
  return (name ? detector.nameHoldsCardNumber : detector.holdsCardNumber)(text) ? CARD_NUMBER : undefined;
}

/** A name: anything but blank, and no card number, nor one in its digits alone. */
export function checkName(value: string): Check {
  if (!value.trim()) return fail('empty', true);
  return cardNumberCheck(value, true) ?? VALID;
}

/** An address with a local part, a domain and a dot in it; no spaces, and no card number. */
export function checkEmail(value: string): Check {
  const v = value.trim();
  if (!v) return fail('empty', true);
  return cardNumberCheck(v) ?? (/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v) ? VALID : fail('invalid', !/\s|@.*@/.test(v)));
}

/** Spaces, dots, dashes and brackets people type into phone numbers. */
export const phoneDigits = (value: string): string => value.replace(/[\s().-]/g, '');

/**
 * An international number (E.164): an optional +, then 7 to 15 digits; not a card number by the
 * companion's rule, which would refuse it only once the card and it had left the page (in
 * tokenize mode, the merchant's server must receive no card number at all). A digit more may
 * still make it a phone: said when the customer leaves the field, or submits.
 */
export function checkPhone(value: string): Check {
  const v = phoneDigits(value);
  if (!v) return fail('empty', true);
  if (isCardNumberAsPhone(v)) return fail('card_number', true);
  return /^\+?\d{7,15}$/.test(v) ? VALID : fail('invalid', /^\+?\d{0,14}$/.test(v));
}
