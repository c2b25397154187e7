/**
 * Amounts as a request's JSON text writes them. `JSON.parse` turns `10.099999999999999` into
 * the same double as `10.1`, so a schema sees a fine amount where the client had the float
 * formatting bug the gateway's notes warn of. This reads the number literals under the amount
 * fields of the text itself.
 */
import { WIRE_MAX_DECIMALS } from './decimals.js';
import { fieldPath } from './issues.js';
import type { FieldIssue } from './issues.js';
import { walkJsonText } from './json-text.js';

/**
 * A number literal (after `:`, `,` or `[`) with three fraction digits or an exponent: nothing else
 * can be over-precise. Not any digit before an `e`: nearly every request's UUIDs have one, and
 * the scan would then run on them all.
 */
const MAYBE_OVER_PRECISE = /[:,[]\s*-?\d+(?:\.\d{3}|(?:\.\d+)?[eE])/;
/** The request fields the interface writes as amounts (split shares are `amount` too). */
const AMOUNT_KEY = /^(?:amount|charge_amount|refund_amount)$/;

/** Whether a request's field of this name is an amount, whose fraction digits count as written. */
export const isAmountField = (key: PropertyKey | undefined): boolean => typeof key === 'string' && AMOUNT_KEY.test(key);

/**
 * One issue per amount field written with more fraction digits than the wire allows, named by
 * its path. `json` must be text `JSON.parse` accepted.
 */
export function overPreciseAmounts(json: string): FieldIssue[] {
  if (!MAYBE_OVER_PRECISE.test(json)) return [];
  const issues: FieldIssue[] = [];
  walkJsonText(json, {
    number(literal, key, path) {
      if (isAmountField(key) && writtenDecimals(literal[1], literal[2]) > WIRE_MAX_DECIMALS) {
        issues.push({ field: fieldPath(path()), reason: `must have at most ${WIRE_MAX_DECIMALS} decimal digits as written in the JSON, trailing zeros included (10.1000: write 10.10; 10.099999999999999: a float printed with all its digits)` });
      }
    },
  });
  return issues;
}

/** Fraction digits a literal writes once its exponent is applied: 1.005e1 → 2, 1e-3 → 3. */
function writtenDecimals(fraction: string | undefined, exponent: string | undefined): number {
  return Math.max(0, (fraction?.length ?? 0) - Number(exponent ?? 0));
}
