/**
 * Cards as the sandbox's acquirer sees them: which test card a number is, its brand and mask,
 * and the checks an issuer makes on expiry and CVV. A number is read once and dropped; only
 * the resulting CardOnFile is kept.
 */
import { TEST_CARDS } from '@payform/gateway/testing';
import type { CardBrand } from '@payform/gateway/testing';
import type { CardOnFile } from './records.js';

const BRANDS: readonly (readonly [CardBrand, RegExp])[] = [
  ['amex', /^3[47]/],
  ['mastercard', /^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/],
  ['visa', /^4/],
];

export const BRAND_NAMES: Readonly<Record<CardBrand | 'unknown', string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  unknown: 'Card',
};

export function cardBrand(number: string): CardBrand | 'unknown' {
  return BRANDS.find(([, prefix]) => prefix.test(number))?.[0] ?? 'unknown';
}

/** `424242******4242`, the shape of CC_MASK in the gateway's samples. */
export function maskCardNumber(number: string): string {
  return `${number.slice(0, 6)}${'*'.repeat(Math.max(number.length - 10, 0))}${number.slice(-4)}`;
}

/** Digits a brand's security code has. */
export function cvvLength(brand: CardBrand | 'unknown'): number {
  return brand === 'amex' ? 4 : 3;
}

/** A card is valid through the last day of its expiry month (UTC). */
export function hasExpired(expMonth: number, expYear: number, now: Date): boolean {
  const firstDayAfter = Date.UTC(expYear, expMonth, 1); // month is 1-based here, so this is the next month
  return now.getTime() >= firstDayAfter;
}

/** The card behind full card data. The number itself goes no further than this function. */
export function readCard(number: string, expMonth: number, expYear: number): CardOnFile {
  const testCard = TEST_CARDS.find((card) => card.number === number);
  return {
    brand: cardBrand(number),
    mask: maskCardNumber(number),
    expMonth,
    expYear,
    behaviour: testCard?.outcome ?? 'not_a_test_card',
    payway: 'card',
  };
}

/** Why a card's security code cannot be right for its brand, if it cannot. */
export function cvvProblem(brand: CardBrand | 'unknown', cvv: string): string | undefined {
  const length = cvvLength(brand);
  return cvv.length === length ? undefined : `must be ${length} digits for ${BRAND_NAMES[brand]} cards`;
}
