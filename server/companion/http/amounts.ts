/**
 * Amounts in the companion's JSON: integer minor units of the currency, as everywhere in
 * payform (`24950` UAH is 249.50 UAH). A fraction, a string or an amount the gateway cannot
 * carry is a 400 that names the field and the unit; nothing is rounded.
 */
import * as z from 'zod';
import { minorUnits } from '@payform/gateway';
import type { MinorUnits } from '@payform/gateway';
import { wireRangeRefusal } from '@payform/gateway/wire';
import { ApiProblem } from './problem.js';

const UNIT = 'Integer number of minor units of the currency: 24950 = 249.50 UAH, 500 = 500 JPY';
/** The unit where the currency is not known yet (a field's type is judged before its siblings): examples of both kinds. */
const ANY_CURRENCY_UNIT = 'an integer number of minor units of the currency (24950 = 249.50 UAH, 500 = 500 JPY)';

/** What the one `maximum` a schema can give leaves unsaid: each currency's own limits, checked once its currency is known. */
const CURRENCY_LIMITS =
  'The range and step depend on the currency: at most 999999999999999 for a currency of two decimals (9999999999999.99 UAH), 9999999999999 for one of none (JPY), and for one of three a multiple of 10, at most 999999999999990 (KWD: the gateway takes two decimals)';

/** Fifteen digits: the most minor units the gateway carries exactly in any currency (maxWireMinorUnits). */
export const MAX_MINOR_UNITS = 999_999_999_999_999;

/**
 * Any JSON number here: whether it is whole, positive and within range depends on the currency,
 * so `amountRefusal` checks it where the currency is known and names it in the reason. The
 * OpenAPI document says what is accepted: an integer. One not sent "is required", as any field
 * is (a message set here would otherwise win over the wire's for a missing one too).
 */
export const Amount = z
  .number({ error: (issue) => amountTypeReason(issue.input) })
  .meta({ type: 'integer', minimum: 1, maximum: MAX_MINOR_UNITS, description: `${UNIT}. ${CURRENCY_LIMITS}` });

/**
 * Why a value is no amount at all. A string of digits is the usual slip (a form's value passed
 * on): said as such, never echoed. The currency is not known here: an example in one with cents
 * would tell a JPY shop to multiply by 100.
 */
function amountTypeReason(input: unknown): string {
  if (input === undefined) return 'is required';
  return typeof input === 'string' ? `must be a JSON number, not a string: ${ANY_CURRENCY_UNIT}` : `must be ${ANY_CURRENCY_UNIT}`;
}

/** An amount in an answer. */
export const AmountView = z.int().describe(UNIT);

/** Why `amount` cannot be charged in `currency`, or undefined when it can. */
export function amountRefusal(amount: number, currency: string): string | undefined {
  // The sign first: -5 fils is not "a multiple of 10" away from being right.
  if (amount <= 0) return 'must be greater than 0';
  return wireRangeRefusal(amount, currency);
}

/** Adds an issue on `path` when `amount` cannot be charged in `currency`. */
export function checkAmount(
  ctx: Pick<z.core.$RefinementCtx, 'addIssue'>,
  path: readonly (string | number)[],
  amount: number,
  currency: string,
): void {
  const refusal = amountRefusal(amount, currency);
  if (refusal !== undefined) ctx.addIssue({ code: 'custom', path: [...path], message: refusal });
}

/**
 * Amounts by field, for a currency known only after validation (an operation's, its order's):
 * as minor units, else one 400 naming every field refused, as validation names them.
 */
export function minorUnitsIn(currency: string, amounts: Readonly<Record<string, number>>): Readonly<Record<string, MinorUnits>> {
  const refused = Object.entries(amounts).flatMap(([field, amount]) => {
    const refusal = amountRefusal(amount, currency);
    return refusal === undefined ? [] : [[field, refusal] as const];
  });
  if (refused.length > 0) throw ApiProblem.invalid(Object.fromEntries(refused));
  return Object.fromEntries(Object.entries(amounts).map(([field, amount]) => [field, minorUnits(amount)]));
}

/**
 * The split shares must add up to the total: a share left unassigned or assigned twice is
 * money nobody can account for. Summed as bigint, so a hundred large shares stay exact.
 */
export function checkSplitTotal(
  ctx: Pick<z.core.$RefinementCtx, 'addIssue'>,
  totalField: string,
  total: number | undefined,
  split: readonly { amount: number }[] | undefined,
): void {
  if (total === undefined || split === undefined || split.length === 0) return;
  if (![total, ...split.map((share) => share.amount)].every(Number.isSafeInteger)) return; // reported on its own field
  const sum = split.reduce((acc, share) => acc + BigInt(share.amount), 0n);
  if (sum !== BigInt(total)) ctx.addIssue({ code: 'custom', path: ['split'], message: `amounts must add up to ${totalField}, ${total}: they make ${sum}` });
}
