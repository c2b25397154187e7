/**
 * The card scheme of a masked number (`424242******4242`) from its issuer prefix, named as the
 * widget names brands. The gateway reports the mask but not the scheme.
 */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'mir';

// Longest prefixes first where ranges overlap (2200–2204 Mir inside Mastercard's 2221–2720 gap).
const PREFIXES: readonly (readonly [CardBrand, RegExp])[] = [
  ['amex', /^3[47]/],
  ['jcb', /^35(2[89]|[3-8]\d)/],
  ['diners', /^3(0[0-5]|[689])/],
  ['mir', /^220[0-4]/],
  ['mastercard', /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/],
  ['discover', /^(6011|64[4-9]|65)/],
  ['unionpay', /^62/],
  ['visa', /^4/],
];

export function brandOfMask(mask: string): CardBrand | undefined {
  const digits = /^\d+/.exec(mask)?.[0] ?? '';
  return PREFIXES.find(([, prefix]) => prefix.test(digits))?.[0];
}
