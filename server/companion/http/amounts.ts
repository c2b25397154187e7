/**
 * Amounts in the companion's JSON follow the gateway's convention: decimals with at most two
 * digits (`100.5`), numeric strings accepted on input. Inside, they are integer minor units of
 * the currency, converted exactly through decimal text (never float arithmetic).
 */
import type * as z from 'zod';
import { fromWireAmount, toWireAmount } from '@payform/gateway';
import type { MinorUnits, WireAmount } from '@payform/gateway';
import { ApiProblem } from './problem.js';

/** Positive, a number or numeric string, at most two decimal digits. */
export { RequestAmount as Amount } from '@payform/gateway/wire';

/** The decimal a client sees for minor units: 1010 UAH → 10.1, 500 JPY → 500. */
export function decimal(minor: MinorUnits, currency: string): number {
  return toWireAmount(minor, currency);
}

/**
 * Minor units of a checked decimal amount in `currency`, or an issue on `path` when the
 * currency has fewer digits (100.5 JPY) or the amount is too large to count exactly.
 */
export function minorUnits(
  ctx: Pick<z.core.$RefinementCtx, 'addIssue'>,
  path: readonly (string | number)[],
  amount: WireAmount,
  currency: string,
): MinorUnits | undefined {
  const minor = exactly(amount, currency);
  if (minor === undefined) ctx.addIssue({ code: 'custom', path: [...path], message: inexact(currency) });
  return minor;
}

/** The same, for an amount whose currency is known only after validation: 400 on `field`. */
export function minorUnitsOf(amount: WireAmount, currency: string, field: string): MinorUnits {
  const minor = exactly(amount, currency);
  if (minor === undefined) throw ApiProblem.invalid({ [field]: inexact(currency) });
  return minor;
}

function exactly(amount: WireAmount, currency: string): MinorUnits | undefined {
  try {
    return fromWireAmount(amount, currency);
  } catch {
    return undefined;
  }
}

const inexact = (currency: string) => `must be an amount of ${currency} that can be counted exactly`;
