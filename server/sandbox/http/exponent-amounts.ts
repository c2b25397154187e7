/**
 * Amounts a request's JSON text writes with an exponent (`1E+2`, `1.0E7`). JSON allows it and the
 * value is exact, but neither the interface nor its notes say the live gateway reads one, and
 * payform's client never writes one: it is how Java prints round and large amounts
 * (`BigDecimal.stripTrailingZeros().toString()`, which Jackson writes by default, and
 * `Double.toString`). A tolerant project reads it as the number it is and says so; a strict one
 * refuses it, so a client meets the form here rather than at the live gateway.
 */
import type { FieldIssue } from '@payform/gateway/wire';
import type { Leniency } from './leniency.js';
import { RULES } from './tolerances.js';

const REASON = 'must be written without an exponent, as a plain decimal (100, not 1E+2; 10000000, not 1.0E7)';

/** What the amounts written with an exponent (`amountsAsWritten`) make of a read: a note each when tolerant, a refusal each when strict. */
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
