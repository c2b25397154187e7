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
 * can be over-precise or written with an exponent. Not any digit before an `e`: nearly every request's UUIDs have one, and
 * the scan would then run on them all.
 */
const MAYBE_OVER_PRECISE = /[:,[]\s*-?\d+(?:\.\d{3}|(?:\.\d+)?[eE])/;
/** The request fields the interface writes as amounts (split shares are `amount` too). */
const AMOUNT_KEY = /^(?:amount|charge_amount|refund_amount)$/;

/** Whether a request's field of this name may be an amount: a cheap look before its path is read. */
const hasAmountName = (key: PropertyKey | undefined): boolean => typeof key === 'string' && AMOUNT_KEY.test(key);

/**
 * Whether the field at `path` is one of the interface's amounts, whose fraction digits count as
 * written: the request's own, or a split share's. An `amount` anywhere else — a product's
 * quantity, a wallet's cryptogram, a field the interface does not name — is not one.
 */
export function isAmountField(path: readonly PropertyKey[]): boolean {
  const [first, index, last] = path;
  return path.length === 1 ? hasAmountName(first) : path.length === 3 && first === 'split' && typeof index === 'number' && last === 'amount';
}

/** How a request's JSON text writes its amounts (`amountsAsWritten`), each named by its path. */
export interface WrittenAmounts {
  /** Written with more fraction digits than the wire allows, an exponent applied (`10.099999999999999`, `1e-3`). */
  readonly overPrecise: readonly FieldIssue[];
  /** Written with an exponent, and not over-precise (`1E+2`, as Java prints round amounts). */
  readonly withExponent: readonly string[];
}

const PLAINLY_WRITTEN: WrittenAmounts = { overPrecise: [], withExponent: [] };

/**
 * The amount fields written with more fraction digits than the wire allows, and those written
 * with an exponent: one look at the text, and one walk where a literal may be either. `json`
 * must be text `JSON.parse` accepted.
 */
export function amountsAsWritten(json: string): WrittenAmounts {
  if (!MAYBE_OVER_PRECISE.test(json)) return PLAINLY_WRITTEN;
  const overPrecise: FieldIssue[] = [];
  const withExponent: string[] = [];
  walkJsonText(json, {
    number(literal, key, path) {
      if (!hasAmountName(key) || !isAmountField(path())) return;
      if (writtenDecimals(literal[1], literal[2]) > WIRE_MAX_DECIMALS) {
        overPrecise.push({ field: fieldPath(path()), reason: `must have at most ${WIRE_MAX_DECIMALS} decimal digits as written in the JSON, trailing zeros included (10.1000: write 10.10; 10.099999999999999: a float printed with all its digits)` });
      } else if (literal[2] !== undefined) withExponent.push(fieldPath(path()));
    },
  });
  return { overPrecise, withExponent };
}

/** Fraction digits a literal writes once its exponent is applied: 1.005e1 → 2, 1e-3 → 3. */
function writtenDecimals(fraction: string | undefined, exponent: string | undefined): number {
  return Math.max(0, (fraction?.length ?? 0) - Number(exponent ?? 0));
}

/** Where a JSON text's amounts in minor units are: the keys they have (a quick look), then their paths. */
export interface MinorUnitFields {
  readonly key: RegExp;
  readonly at: (path: readonly PropertyKey[]) => boolean;
}

/** A merchant API request's: its own `amount`, `charge_amount` and `refund_amount`, and a split share's. */
const REQUEST_AMOUNTS: MinorUnitFields = { key: AMOUNT_KEY, at: isAmountField };

/** A number literal with a decimal point or an exponent. */
const MAYBE_DECIMAL = /[:,[]\s*-?\d+[.eE]/;
const LITERAL = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

const ROUNDED_AWAY = 'must be a whole number of minor units: the JSON writes it with a fraction, which reading it as a number rounds away (a float printed with all its digits)';
const WRITTEN_DECIMAL = 'must be written as a whole number of minor units, without a decimal point or exponent (24950, not 249.50 or 24950.0): 10.00 would be 10 minor units, not 10.00 of the currency';

/**
 * One issue per amount field whose number the JSON text writes with a decimal point or an
 * exponent though reading it gives a whole number: for APIs whose amounts are integer minor
 * units. `24950.000000000001` is a float printed with all its digits, which reading it rounds
 * away; `10.00` is most often the currency's amount where minor units were meant (a capture of
 * 10.00 UAH taken as 0.10 would release the rest of the reserve). A fraction that survives
 * parsing (249.5) is the schema's to refuse, in the currency's words. Text that is no JSON has
 * none: its parser's refusal says what is wrong with it.
 */
export function amountsWrittenAsDecimals(json: string, amountsAt: MinorUnitFields = REQUEST_AMOUNTS): FieldIssue[] {
  if (!MAYBE_DECIMAL.test(json) || !isJson(json)) return [];
  const issues: FieldIssue[] = [];
  walkJsonText(json, {
    number(literal, key, path) {
      if (typeof key === 'string' && amountsAt.key.test(key) && /[.eE]/.test(literal[0]) && Number.isInteger(Number(literal[0])) && amountsAt.at(path())) {
        issues.push({ field: fieldPath(path()), reason: isWholeAsWritten(literal[0]) ? WRITTEN_DECIMAL : ROUNDED_AWAY });
      }
    },
  });
  return issues;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether a number literal is whole: its digits' trailing zeros cover the places its point and exponent leave. */
function isWholeAsWritten(literal: string): boolean {
  const [, whole = '', fraction = '', exponent = '0'] = LITERAL.exec(literal) ?? [];
  const digits = whole + fraction;
  const zeros = digits.length - digits.replace(/0+$/, '').length;
  return digits.replace(/0+$/, '') === '' || fraction.length - Number(exponent) <= zeros;
}

