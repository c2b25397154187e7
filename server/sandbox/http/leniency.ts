/**
 * Reading a request as tolerantly as the live gateway does. The live service ignores fields it
 * does not know and reads a numeric string as the Number the interface types ("1.5"), so
 * integrations in production send both; a sandbox refusing them fails integrations that work.
 *
 * The shared wire schema stays the judge: the request is parsed with it, and only two kinds of
 * issue are repaired before parsing again — a field the endpoint does not list (dropped), and
 * a plain decimal string where a number is expected (read as that number, then held to the same
 * rules: integer, range, positive). Every other rule of the interface is enforced as before.
 * A strict project repairs nothing: it reads requests exactly as payform's client checks them.
 *
 * Each repair is reported in a `Leniency` (what was ignored, what was coerced, what was refused
 * and the rule behind it), so a request inspector can show an integrator what the live gateway
 * would have passed over in silence. Reports name fields, never values: card data may sit there.
 */
import type * as z from 'zod';
import { fieldPath, issueFields, wireErrorMap } from '@payform/gateway/wire';
import type { FieldIssue } from '@payform/gateway/wire';
import { isDecimal } from '@payform/gateway/wire';

/** The rules of the interface behind each kind of entry. */
export const LENIENCY_RULES = {
  ignored:
    'not a request field of this endpoint in the interface: ignored, as the live gateway ignores fields it does not know (a strict project refuses it)',
  coerced:
    'a Number in the interface: the live gateway reads a numeric string as that number, under the same rules (a strict project refuses it)',
  refused: 'breaks a rule of the interface: refused, in every mode',
  strictUnknown:
    'not a request field of this endpoint in the interface: refused because the project is strict (a tolerant project ignores it, as the live gateway does)',
  strictString:
    'a Number in the interface: a numeric string is refused because the project is strict (a tolerant project reads it, as the live gateway does)',
} as const;

export interface IgnoredField {
  /** Dotted path as in error answers (`split[0].note`); a key that could hold card data shows as `*`. */
  readonly field: string;
  readonly rule: string;
}

export interface CoercedField {
  readonly field: string;
  /** JSON types, not values: the field may be a card's expiry. */
  readonly from: 'string';
  readonly to: 'number';
  readonly rule: string;
}

export interface RefusedField extends FieldIssue {
  readonly rule: string;
}

/** What the sandbox did beyond the letter of the wire schema while reading one request. */
export interface Leniency {
  readonly strict: boolean;
  readonly ignored: readonly IgnoredField[];
  readonly coerced: readonly CoercedField[];
  readonly refused: readonly RefusedField[];
}

export type LenientRead<T> =
  | { readonly success: true; readonly data: T; readonly leniency: Leniency }
  | { readonly success: false; readonly issues: FieldIssue[]; readonly leniency: Leniency };

// Each pass repairs every issue zod reports at once; a second pass only meets what the first
// repair revealed (the checks that run once an object is whole). The bound is a safeguard.
const MAX_PASSES = 4;

type Path = readonly PropertyKey[];

/** Parses `input` with `schema`, ignoring unknown fields and reading numeric strings unless `strict`. */
export function readLeniently<S extends z.ZodType>(schema: S, input: unknown, strict: boolean): LenientRead<z.output<S>> {
  const ignored: IgnoredField[] = [];
  const coerced: CoercedField[] = [];
  let current = input;
  for (let pass = 1; ; pass += 1) {
    const result = schema.safeParse(current, { error: wireErrorMap });
    if (result.success) return { success: true, data: result.data, leniency: { strict, ignored, coerced, refused: [] } };
    const repairs = strict || pass === MAX_PASSES ? [] : repairsOf(result.error.issues, current);
    if (repairs.length === 0) {
      const refused = result.error.issues.flatMap((issue) => {
        const rule = ruleOfRefusal(issue, current, strict);
        return issueFields(issue).map((pair) => ({ ...pair, rule }));
      });
      const issues = refused.map(({ field, reason }) => ({ field, reason }));
      return { success: false, issues, leniency: { strict, ignored, coerced, refused } };
    }
    current = structuredClone(current);
    for (const repair of repairs) {
      if (repair.kind === 'ignore') {
        delete (valueAt(current, repair.path) as Record<string, unknown>)[repair.key];
        ignored.push({ field: fieldPath([...repair.path, repair.key]), rule: LENIENCY_RULES.ignored });
      } else {
        const parent = valueAt(current, repair.path.slice(0, -1)) as Record<PropertyKey, unknown>;
        const key = repair.path[repair.path.length - 1] as PropertyKey;
        parent[key] = Number(parent[key]);
        coerced.push({ field: fieldPath(repair.path), from: 'string', to: 'number', rule: LENIENCY_RULES.coerced });
      }
    }
  }
}

type Repair = { kind: 'ignore'; path: Path; key: string } | { kind: 'number'; path: Path };

function repairsOf(issues: readonly z.core.$ZodIssue[], input: unknown): Repair[] {
  return issues.flatMap((issue): Repair[] => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ kind: 'ignore', path: issue.path, key }));
    return isNumericString(issue, input) ? [{ kind: 'number', path: issue.path }] : [];
  });
}

/** A plain decimal string where the schema expects a number. */
function isNumericString(issue: z.core.$ZodIssue, input: unknown): boolean {
  if (issue.code !== 'invalid_type' || issue.expected !== 'number' || issue.path.length === 0) return false;
  const value = valueAt(input, issue.path);
  return typeof value === 'string' && isDecimal(value);
}

/** Why an issue is refused: a strict project refuses what a tolerant one would have repaired. */
function ruleOfRefusal(issue: z.core.$ZodIssue, input: unknown, strict: boolean): string {
  if (strict && issue.code === 'unrecognized_keys') return LENIENCY_RULES.strictUnknown;
  if (strict && isNumericString(issue, input)) return LENIENCY_RULES.strictString;
  return LENIENCY_RULES.refused;
}

function valueAt(input: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key], input);
}
