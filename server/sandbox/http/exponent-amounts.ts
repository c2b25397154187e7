/**
 * Amounts a request's JSON text writes with an exponent (`1E+2`, `1.0E7`). JSON allows it and the
 * value is exact, but neither the interface nor its notes say the live gateway reads one, and
 * payform's client never writes one: it is how Java prints round and large amounts
 * (`BigDecimal.stripTrailingZeros().toString()`, which Jackson writes by default, and
 * `Double.toString`). A tolerant project reads it as the number it is and says so; a strict one
 * refuses it, so a client meets the form here rather than at the live gateway.
 */
import { isAmountField, fieldPath, walkJsonText } from '@payform/gateway/wire';
import type { FieldIssue } from '@payform/gateway/wire';
import type { Leniency } from './leniency.js';
import { RULES } from './tolerances.js';

/** A number literal with an exponent, after `:`, `,` or `[`: a quick look before the walk. */
const MAYBE_EXPONENT = /[:,[]\s*-?\d+(?:\.\d+)?[eE]/;

const REASON = 'must be written without an exponent, as a plain decimal (100, not 1E+2; 10000000, not 1.0E7)';

/** The paths (as error answers name them) of the amounts `json` writes with an exponent; `json` is text JSON.parse took. */
export function amountsWithExponent(json: string): string[] {
  if (!MAYBE_EXPONENT.test(json)) return [];
  const fields: string[] = [];
  walkJsonText(json, {
    number(literal, _key, path) {
      if (literal[2] !== undefined && isAmountField(path())) fields.push(fieldPath(path()));
    },
  });
  return fields;
}

/** What those amounts make of a read: a note each when tolerant, a refusal each when strict. */
export function exponentReading(fields: readonly string[], strict: boolean): { issues: FieldIssue[]; leniency: Leniency } {
  const issues = strict ? fields.map((field) => ({ field, reason: REASON })) : [];
  return {
    issues,
    leniency: {
      strict,
      ignored: [],
      coerced: strict ? [] : fields.map((field) => ({ field, from: 'exponent notation', to: 'plain decimal', what: 'exponent read as a plain decimal', rule: RULES.exponent })),
      waived: [],
      refused: issues.map((issue) => ({ ...issue, rule: RULES.strictExponent })),
    },
  };
}
