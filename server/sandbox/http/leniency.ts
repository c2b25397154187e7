/**
 * Reading a request as tolerantly as the live gateway does. The live service ignores fields it
 * does not know and nulls, reads a numeric string as the Number the interface types, `1` as
 * true, a two-digit expiry year as 20yy, and does not hold a few rules of its own interface (a
 * hosted payment's phone, an email's format), so integrations in production rely on all of it;
 * a sandbox refusing them fails integrations that work. The tolerances are in tolerances.ts.
 *
 * The shared wire schema stays the judge: the request is parsed with it, each issue a tolerance
 * repairs is repaired, and the request is parsed again — every other rule of the interface is
 * enforced as before. A strict project repairs nothing: it reads requests exactly as payform's
 * client checks them, and its refusals name the tolerance it did not apply. Two things go beyond
 * the schema in every mode: a tolerance that would move money by mistake is not applied (a null
 * or look-alike amount of a capture or refund, tolerances.ts `guardedRefusals`), and a hosted
 * lookup's card fields, which the interface requires and the schema (payform's client's) does
 * not take, are read apart.
 *
 * Each repair is reported in a `Leniency` (what was ignored, coerced or waived, what was refused
 * and the rule behind it), so a request inspector can show an integrator what the live gateway
 * would have passed over in silence. Reports name fields, never values: card data may sit there.
 */
import * as z from 'zod';
import { CARD_FIELDS, CreatePaymentRequest, cardFields, compiled, fieldPath, issueFields, wireErrorMap } from '@payform/gateway/wire';
import type { FieldIssue } from '@payform/gateway/wire';
import { RULES, guardedRefusals, repairsFor, strictRuleFor } from './tolerances.js';
import type { Finding, Path } from './tolerances.js';

/** The rules of the interface behind each kind of entry (tolerances.ts). */
export const LENIENCY_RULES = RULES;

export interface IgnoredField {
  /** Dotted path as in error answers (`split[0].note`); a key that could hold card data shows as `*`. */
  readonly field: string;
  /** What was done, in a few words: `null dropped`, `unknown field ignored`. */
  readonly what: string;
  readonly rule: string;
}

export interface CoercedField {
  readonly field: string;
  /** Forms, not values (`string` → `number`, `two-digit year` → `four-digit year`): the field may be a card's expiry. */
  readonly from: string;
  readonly to: string;
  readonly what: string;
  readonly rule: string;
}

/** A rule of the interface the live gateway does not hold, not held for this field. */
export interface WaivedRule {
  readonly field: string;
  readonly what: string;
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
  readonly waived: readonly WaivedRule[];
  readonly refused: readonly RefusedField[];
}

export type LenientRead<T> =
  | { readonly success: true; readonly data: T; readonly leniency: Leniency }
  | { readonly success: false; readonly issues: FieldIssue[]; readonly leniency: Leniency };

// Each pass repairs every issue zod reports at once; a later pass only meets what a repair
// revealed (the checks that run once an object is whole, a "24" that is a number but not yet a
// year). The bound is a safeguard.
const MAX_PASSES = 6;

/**
 * Parses `input` with `schema`, applying the live gateway's tolerances unless `strict`. A hosted
 * lookup's card fields are read apart first (see readApart).
 */
export function readLeniently<S extends z.ZodType>(schema: S, input: unknown, strict: boolean): LenientRead<z.output<S>> {
  const card = (schema as z.ZodType) === CreatePaymentRequest ? hostedLookupCard(input) : undefined;
  return card ? readApart(schema, card, strict) : readWhole(schema, input, strict);
}

function readWhole<S extends z.ZodType>(schema: S, input: unknown, strict: boolean): LenientRead<z.output<S>> {
  const ignored: IgnoredField[] = [];
  const coerced: CoercedField[] = [];
  const waived: WaivedRule[] = [];
  // What a waived field held before its stand-in: handed on in place of the stand-in.
  const sent: { path: Path; value: unknown }[] = [];
  let current = input;
  for (let pass = 1; ; pass += 1) {
    const result = compiled(schema).safeParse(current, { error: wireErrorMap });
    if (result.success) {
      const data = sent.length === 0 ? result.data : restore(result.data, sent);
      return { success: true, data, leniency: { strict, ignored, coerced, waived, refused: [] } };
    }
    // What is refused in every mode goes before the tolerances, which see only the rest.
    const guarded = findingsOf(schema, result.error.issues, current).map(guardedRefusals);
    const findings = guarded.flatMap(({ rest }) => (rest ? [rest] : []));
    const repairs = strict || pass === MAX_PASSES ? [] : findings.flatMap(repairsFor);
    if (repairs.length === 0) {
      const refused = guarded.flatMap(({ refused: always, rest }) => [
        ...always,
        ...(rest ? issueFields(rest.issue).map((pair) => ({ ...pair, rule: (strict ? strictRuleFor(rest) : undefined) ?? RULES.refused })) : []),
      ]);
      const issues = refused.map(({ field, reason }) => ({ field, reason }));
      return { success: false, issues, leniency: { strict, ignored, coerced, waived, refused } };
    }
    current = copiedAlong(current, repairs.map((repair) => repair.path));
    for (const repair of repairs) {
      const field = fieldPath(repair.path);
      if (repair.kind === 'ignore') {
        remove(current, repair.path);
        ignored.push({ field, what: repair.what, rule: repair.rule });
      } else if (repair.kind === 'coerce') {
        place(current, repair.path, repair.value);
        coerced.push({ field, from: repair.from, to: repair.to, what: repair.what, rule: repair.rule });
      } else {
        sent.push({ path: repair.path, value: valueAt(current, repair.path) });
        place(current, repair.path, repair.standIn);
        waived.push({ field, what: repair.what, rule: repair.rule });
      }
    }
  }
}

function findingsOf(schema: z.ZodType, issues: readonly z.core.$ZodIssue[], request: unknown): Finding[] {
  return issues.map((issue) => ({ schema, issue, value: valueAt(request, issue.path), request, issues }));
}

/**
 * The card fields of a hosted lookup, which the interface's table marks required (its column
 * "hosted lookup") while payform's shared schema, written for payform's client, keeps card data
 * out of hosted mode altogether. The sandbox takes them in every mode — and a hosted lookup
 * without them too, as payform's client sends it.
 */
const HostedLookupCard = z.object(cardFields).partial().superRefine((card, ctx) => {
  const given = CARD_FIELDS.filter((field) => card[field] !== undefined);
  if (given.length === 0 || given.length === CARD_FIELDS.length) return;
  for (const field of CARD_FIELDS) {
    if (card[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'is required with the other card fields' });
  }
});

interface Apart {
  readonly card: Record<string, unknown>;
  readonly rest: Record<string, unknown>;
}

function hostedLookupCard(input: unknown): Apart | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const request = input as Record<string, unknown>;
  if (request.mode !== 'hosted' || request.method !== 'lookup' || !CARD_FIELDS.some((field) => Object.hasOwn(request, field))) return undefined;
  const card: Record<string, unknown> = {};
  const rest: Record<string, unknown> = { ...request };
  for (const field of CARD_FIELDS) {
    if (!Object.hasOwn(request, field)) continue;
    card[field] = request[field];
    delete rest[field];
  }
  return { card, rest };
}

/**
 * A hosted lookup with card fields: the card is read with the card fields' own rules (the
 * tolerances applying, unless strict), the rest with the schema, and the card is then set
 * aside — the hosted page asks the customer for it — and reported so.
 */
function readApart<S extends z.ZodType>(schema: S, { card, rest }: Apart, strict: boolean): LenientRead<z.output<S>> {
  const cardRead = readWhole(HostedLookupCard, card, strict);
  const restRead = readWhole(schema, rest, strict);
  const setAside = cardRead.success
    ? Object.keys(cardRead.data).map((field) => ({ field: fieldPath([field]), what: 'card data of a hosted lookup: checked, then set aside', rule: RULES.lookupCard }))
    : [];
  const leniency: Leniency = {
    strict,
    ignored: [...cardRead.leniency.ignored, ...setAside, ...restRead.leniency.ignored],
    coerced: [...cardRead.leniency.coerced, ...restRead.leniency.coerced],
    waived: [...cardRead.leniency.waived, ...restRead.leniency.waived],
    refused: [...cardRead.leniency.refused, ...restRead.leniency.refused],
  };
  if (cardRead.success && restRead.success) return { success: true, data: restRead.data, leniency };
  const issues = [...(cardRead.success ? [] : cardRead.issues), ...(restRead.success ? [] : restRead.issues)];
  return { success: false, issues, leniency };
}

/** The parsed request with each waived field as it was sent (absent stays absent). */
function restore<T>(data: T, sent: readonly { path: Path; value: unknown }[]): T {
  for (const { path, value } of sent) {
    if (value === undefined) remove(data, path);
    else place(data, path, value);
  }
  return data;
}

/**
 * `input` with every object or array along `paths` copied, the rest shared: the repairs change
 * the copies, never the request as it came. Copying only what is repaired, not the whole value,
 * keeps a request nested thousands of levels deep beside a repaired field from overflowing the
 * stack (structuredClone did: a 500).
 */
function copiedAlong(input: unknown, paths: readonly Path[]): unknown {
  const copies = new Set<object>();
  const copy = (value: object): Record<PropertyKey, unknown> => {
    const copied = (Array.isArray(value) ? [...value] : { ...value }) as Record<PropertyKey, unknown>;
    copies.add(copied);
    return copied;
  };
  if (typeof input !== 'object' || input === null) return input;
  const root = copy(input);
  for (const path of paths) {
    let node = root;
    for (const key of path.slice(0, -1)) {
      const child = node[key];
      if (typeof child !== 'object' || child === null) break;
      node = node[key] = copies.has(child) ? (child as Record<PropertyKey, unknown>) : copy(child);
    }
  }
  return root;
}

function valueAt(input: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key], input);
}

function parentOf(input: unknown, path: Path): Record<PropertyKey, unknown> {
  return valueAt(input, path.slice(0, -1)) as Record<PropertyKey, unknown>;
}

function place(input: unknown, path: Path, value: unknown): void {
  parentOf(input, path)[path[path.length - 1] as PropertyKey] = value;
}

function remove(input: unknown, path: Path): void {
  delete parentOf(input, path)[path[path.length - 1] as PropertyKey];
}

