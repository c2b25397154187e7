/**
 * Rules that tie amounts to something else in the same request: the currency's precision and
 * the split totals.
 */
import * as z from 'zod';
import { currencyExponent } from '../money.js';
import { WIRE_MAX_DECIMALS, fractionDigits, wireHundredths } from './decimals.js';
import type { WireAmount } from './decimals.js';
import { RequestAmount, Uuid } from './primitives.js';

/** One sub-merchant's share of a split payment, capture or refund. */
export const SplitPayment = z.strictObject({ amount: RequestAmount, sub_merchant_id: Uuid });
export type SplitPayment = z.infer<typeof SplitPayment>;
export const SplitPayments = z.array(SplitPayment).min(1);

type Issues = Pick<z.core.$RefinementCtx, 'addIssue'>;

/** 100.5 JPY has two decimals too many even though the wire allows two. */
export function checkCurrencyPrecision(
  ctx: Issues,
  field: string | readonly PropertyKey[],
  amount: WireAmount | undefined,
  currency: string,
): void {
  const digits = amount === undefined ? undefined : fractionDigits(amount);
  // More digits than the wire allows is the amount's own issue, reported already.
  if (digits === undefined || digits > WIRE_MAX_DECIMALS) return;
  const exponent = currencyExponent(currency);
  if (digits > exponent) {
    ctx.addIssue({
      code: 'custom',
      path: typeof field === 'string' ? [field] : [...field],
      message: exponent === 0 ? `must be a whole number in ${currency}` : `must have at most ${exponent} decimal digits in ${currency}`,
    });
  }
}

/**
 * The split shares must add up to the total. The interface does not state the check; payform
 * makes it, because a share left unassigned or assigned twice is money nobody can account for.
 */
export function checkSplitTotal(
  ctx: Issues,
  totalField: string,
  total: WireAmount | undefined,
  split: readonly { amount: WireAmount }[] | undefined,
): void {
  if (total === undefined || split === undefined || split.length === 0) return;
  let sum = 0n;
  let expected: bigint;
  try {
    expected = wireHundredths(total);
    for (const share of split) sum += wireHundredths(share.amount);
  } catch {
    return; // a malformed amount is already reported on its own field
  }
  if (sum !== expected) {
    ctx.addIssue({ code: 'custom', path: ['split'], message: `amounts must add up to ${totalField}` });
  }
}

/** The rules for a split request: the precision of the total and of each share, and their sum. */
export function checkSplitAmounts(
  ctx: Issues,
  totalField: string,
  total: WireAmount | undefined,
  currency: string,
  split: readonly { amount: WireAmount }[] | undefined,
): void {
  checkCurrencyPrecision(ctx, totalField, total, currency);
  split?.forEach((share, index) => checkCurrencyPrecision(ctx, ['split', index, 'amount'], share.amount, currency));
  checkSplitTotal(ctx, totalField, total, split);
}

/**
 * The most an auth of `reserved` minor units may be captured for where the project allows
 * `percent` % over the reserve, rounded down, in exact decimal arithmetic: in floats 500 × 1.282
 * is 640.99…, and a capture of exactly 641 would be refused. The percentage is read to ten
 * decimals as written (12.345 is 12.345 %), so the companion offers what the gateway takes.
 */
export function overReserveLimit(reserved: number, percent: number): number {
  const scale = 10n ** 10n;
  const scaledPercent = BigInt(percent.toFixed(10).replace('.', ''));
  return Number((BigInt(reserved) * (100n * scale + scaledPercent)) / (100n * scale));
}
