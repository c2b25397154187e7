/**
 * Turns zod issues into what the gateway — and payform everywhere — reports for bad input:
 * one `{ field, reason }` pair per problem, e.g. `{ field: 'split[1].amount', reason: 'must
 * be greater than 0' }`. The client uses it for local validation errors; the sandbox for its
 * 400 answers. Reasons never quote the rejected value, and a key the sender chose is named only
 * when it cannot hold card data, so card data cannot leak into errors.
 */
import type * as z from 'zod';
import { compiled } from './compiled.js';

export interface FieldIssue {
  /** Dotted path of the field, with [i] for array elements; '' for the input as a whole. */
  readonly field: string;
  readonly reason: string;
}

export type WireParse<T> = { success: true; data: T } | { success: false; issues: FieldIssue[] };

/**
 * Parses with payform's reasons. Use this (not bare safeParse) wherever input is validated.
 * Synchronous, and through the schema's compiled parser (see compiled.ts).
 */
export function parseWire<S extends z.ZodType>(schema: S, input: unknown, error: z.core.$ZodErrorMap = wireErrorMap): WireParse<z.output<S>> {
  const result = compiled(schema).safeParse(input, { error });
  return result.success ? { success: true, data: result.data } : { success: false, issues: fieldIssues(result.error) };
}

/**
 * Parses what the gateway sent (an answer, a webhook) as parseWire does, but without the fixes a
 * PHP client's request is told (`phpShape`): whoever reads the error cannot change the gateway's JSON.
 */
export const parseAnswer = <S extends z.ZodType>(schema: S, input: unknown): WireParse<z.output<S>> => parseWire(schema, input, answerErrorMap);

/** One pair per problem (see issueFields). */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return withoutLooserBounds(error.issues).flatMap(issueFields);
}

/**
 * `int()` bounds a number by ±(2^53 − 1) beside a schema's own `max()` and `min()`: a number
 * past both is named once, by the tighter bound (`must be at most 60000`), not by two.
 */
function withoutLooserBounds(issues: readonly z.core.$ZodIssue[]): readonly z.core.$ZodIssue[] {
  const tightest = new Map<string, { issue: z.core.$ZodIssue; bound: number }>();
  for (const issue of issues) {
    const bound = numberBound(issue);
    if (bound === undefined) continue;
    const key = `${issue.code} ${fieldPath(issue.path)}`;
    const kept = tightest.get(key);
    if (!kept || (issue.code === 'too_big' ? bound < kept.bound : bound > kept.bound)) tightest.set(key, { issue, bound });
  }
  if (tightest.size === 0) return issues;
  return issues.filter((issue) => numberBound(issue) === undefined || tightest.get(`${issue.code} ${fieldPath(issue.path)}`)?.issue === issue);
}

/** A number's bound that `issue` says it is past: `int` the safe-integer one, `number` a schema's. */
function numberBound(issue: z.core.$ZodIssue): number | undefined {
  if ((issue.code !== 'too_big' && issue.code !== 'too_small') || (issue.origin !== 'number' && issue.origin !== 'int')) return undefined;
  return Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
}

/**
 * The pairs of one zod issue: one, except that an unrecognised-keys issue becomes one pair per
 * key — on the key when its name may be repeated, else on its parent without the name.
 */
export function issueFields(issue: z.core.$ZodIssue): FieldIssue[] {
  return issue.code === 'unrecognized_keys'
    ? issue.keys.map((key) =>
        isEchoableKey(key)
          ? { field: fieldPath([...issue.path, key]), reason: 'is not allowed' }
          : { field: fieldPath(issue.path), reason: 'has a field that is not allowed' },
      )
    : [{ field: fieldPath(issue.path), reason: issue.message }];
}

/**
 * Whether a key the sender chose may appear in an answer: a plain identifier of at most 64
 * characters with at most two digits. A card number or CVV typed as a key is neither.
 */
export function isEchoableKey(key: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key) && (key.match(/\d/g)?.length ?? 0) <= 2;
}

/** `['split', 1, 'amount']` → `split[1].amount`; a key that may not be repeated shows as `*`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((joined, key) => {
    if (typeof key === 'number') return `${joined}[${key}]`;
    const name = typeof key === 'string' && isEchoableKey(key) ? key : '*';
    return joined ? `${joined}.${name}` : name;
  }, '');
}

/** "field: reason; field: reason" — for error messages and logs. */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map(({ field, reason }) => (field ? `${field}: ${reason}` : reason)).join('; ');
}

/**
 * Reasons phrased for people, for the issues zod raises by itself. Messages set on a schema
 * (custom rules, "is not sent in hosted mode") take precedence over this map.
 */
export const wireErrorMap: z.core.$ZodErrorMap = (issue) => reasonOf(issue, sentShape);

/** The same reasons for what the gateway sent: no fix for PHP's shapes, which only a request's sender can apply. */
const answerErrorMap: z.core.$ZodErrorMap = (issue) => reasonOf(issue, () => '');

function reasonOf(issue: Parameters<z.core.$ZodErrorMap>[0], hint: typeof sentShape): string | undefined {
  const missing = issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value';
  if (missing && issue.input === undefined) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}${hint(issue.expected, issue.input)}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `must have at most ${issue.maximum} items`
          : `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'too_small':
      return issue.origin === 'string'
        ? issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `must have at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`
          : `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      // A discriminated union reports on the whole object, with the discriminator as path.
      if (issue.discriminator && (issue.input as Record<string, unknown> | null)?.[issue.discriminator] === undefined) {
        return 'is required';
      }
      return 'options' in issue && Array.isArray(issue.options)
        ? `must be one of ${issue.options.map(String).join(', ')}`
        : 'has an invalid value';
    case 'invalid_format':
      return issue.format === 'regex' ? 'has an invalid format' : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return undefined; // keep zod's message
  }
}

/**
 * What a request's sender wrote, where it is a language's way of writing something else, named
 * with its fix. `null`: Ruby's nil, Python's None, PHP's null, which their encoders write for a
 * field meant to have no value, where an optional field takes none by being left out. PHP's
 * json_encode writes an empty map as `[]`, and a list with a gap (array_filter, unset) as
 * `{"1":…}`: the kind alone ("must be an object") reads as nonsense to whoever sent a PHP array.
 */
function sentShape(expected: string, input: unknown): string {
  if (input === null) return ', not null (an optional field is left out for none)';
  if ((expected === 'object' || expected === 'record') && Array.isArray(input) && input.length === 0) {
    return ", not [] (PHP's json_encode writes an empty array so: send (object) [] for {})";
  }
  if (expected === 'array' && isNumberedMap(input)) {
    return ", not an object of numbered keys (PHP's json_encode writes a list with gaps so: array_values() it)";
  }
  return '';
}

/** `{"1":…,"3":…}`: an object whose every key is a number, as PHP writes a list with gaps. */
function isNumberedMap(input: unknown): boolean {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const keys = Object.keys(input);
  return keys.length > 0 && keys.every((key) => /^\d+$/.test(key));
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  // zod's name for a map of any keys: JSON calls it an object (PHP writes an empty one as []).
  if (expected === 'record') return 'an object';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
