/**
 * From the client's parameters to a validated wire request. Callers give amounts in minor
 * units; they go out as exact decimals. Everything is checked against the shared wire schema
 * before a byte is sent: a bad request fails here with InvalidRequestError naming each field.
 */
import type * as z from 'zod';
import { InvalidRequestError } from './errors.js';
import type { MinorUnits } from './money.js';
import { toWireAmount, wireRangeRefusal } from './wire/decimals.js';
import { parseWire } from './wire/issues.js';
import type { FieldIssue } from './wire/issues.js';

/** A split share as the client takes it. */
export interface SplitShare {
  readonly amount: MinorUnits;
  readonly sub_merchant_id: string;
}

/** Removes keys from each member of a union (plain Omit would merge the members). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The schema's reason for a text past its length: a client's own, tighter limit says it instead. */
const LENGTH_REASON = /^must be at most \d+ characters$/;

export interface WireRequestSpec<T> {
  /** The top-level amount fields; the amounts of `split` shares are converted as well. */
  readonly amounts: readonly string[];
  /** The field naming the request's currency (`currency` or `order_currency`). */
  readonly currencyField: string;
  /**
   * The client's own limits, stricter than the wire's, on the caller's values before the schema:
   * a field's length is said once, by them (an order id of 300 characters is told the limit that
   * holds, not first the wire's 256 and then the client's 32).
   */
  readonly limits?: (source: Readonly<Record<string, unknown>>) => FieldIssue[];
  /** Rules beyond the schema, run once it passes (merchant sector). */
  readonly extraIssues?: (request: T) => FieldIssue[];
}

/**
 * Builds and validates one request from the caller's parameters plus what the client fills in
 * itself (pos_id). Returns the parsed wire object, ready to be sent as JSON.
 */
export function wireRequest<S extends z.ZodType>(
  schema: S,
  source: Readonly<Record<string, unknown>>,
  spec: WireRequestSpec<z.output<S>>,
): z.output<S> {
  const issues: FieldIssue[] = [];
  const currency = typeof source[spec.currencyField] === 'string' ? (source[spec.currencyField] as string) : '';
  const request: Record<string, unknown> = { ...source };
  // Only fields the caller gave: strict schemas refuse even an undefined unknown key.
  for (const field of spec.amounts) {
    if (field in source) request[field] = wireAmount(source[field], field, currency, issues);
  }
  if (Array.isArray(source.split)) {
    request.split = source.split.map((share: unknown, index) =>
      typeof share === 'object' && share !== null
        ? { ...share, amount: wireAmount((share as { amount?: unknown }).amount, `split[${index}].amount`, currency, issues) }
        : share,
    );
  }
  // A field whose amount could not be converted is reported once, in minor-unit terms; and the
  // split's sum is then not judged, since it would add minor units to decimals.
  const reported = new Set(issues.map((issue) => issue.field));
  if (reported.size > 0 && Array.isArray(source.split) && source.split.length > 0) reported.add('split');
  const limited = new Set<string>();
  for (const issue of spec.limits?.(source) ?? []) {
    issues.push(issue);
    limited.add(issue.field);
  }
  const parsed = parseWire(schema, request);
  if (parsed.success) issues.push(...(spec.extraIssues?.(parsed.data) ?? []));
  // A field the client's own limit refused keeps the schema's other reasons (a control
  // character), not its looser length.
  else issues.push(...parsed.issues.filter((issue) => !reported.has(issue.field) && !(limited.has(issue.field) && LENGTH_REASON.test(issue.reason))));
  if (issues.length > 0 || !parsed.success) throw InvalidRequestError.rejectedLocally(issues);
  return parsed.data;
}

/** Validates path or query parameters the same way. */
export function wireParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = parseWire(schema, params);
  if (!parsed.success) throw InvalidRequestError.rejectedLocally(parsed.issues);
  return parsed.data;
}

// Minor units → wire decimal. An amount that cannot go is reported here, in the caller's
// terms, and left as it was for the schema to skip.
function wireAmount(value: unknown, field: string, currency: string, issues: FieldIssue[]): unknown {
  if (value === undefined) return undefined; // the schema says whether it is required
  const refusal = wireRangeRefusal(value, currency);
  if (refusal !== undefined) {
    issues.push({ field, reason: refusal });
    return value;
  }
  return toWireAmount(value as number, currency);
}
