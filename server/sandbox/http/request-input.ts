/**
 * Reading what a request carries — JSON body, path parameters, query — through the shared wire
 * schemas, refusing anything else with the gateway's error body: 406 for a body that is not
 * `application/json` or comes compressed, 400 for malformed JSON or a value that breaks the schema. Reasons never
 * quote a value, so a card number sent in the wrong field is not echoed.
 *
 * The interface's endpoints read bodies and queries as tolerantly as the live gateway, unless
 * the project is strict (leniency.ts); what that changed is left on the context as `leniency`.
 */
import type { Context } from 'hono';
import type * as z from 'zod';
import { amountsAsWritten, amountsWrittenAsDecimals, parseWire, repeatedKeys } from '@payform/gateway/wire';
import type { MinorUnitFields, WireParse } from '@payform/gateway/wire';
import { Refusal } from '../state/refusal.js';
import type { SandboxEnv } from './env.js';
import { exponentReading } from './exponent-amounts.js';
import { readLeniently } from './leniency.js';
import type { Leniency } from './leniency.js';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

export const isJsonType = (contentType: string | undefined): boolean => JSON_TYPE.test(contentType ?? '');

const UTF8 = new TextDecoder();
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
function isUtf8(bytes: Uint8Array): boolean {
  try {
    STRICT_UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const REPEATED = 'is given more than once in its object: JSON readers keep one of them, not all the same one; send it once';

/** The JSON body; `optional` lets an empty body through as `{}` (control-plane commands). */
export async function readJsonBody(c: Context<SandboxEnv>, options: { optional?: boolean; minorUnits?: MinorUnitFields } = {}): Promise<unknown> {
  // The bytes, read first: read as text first, Hono's body cache would make them again from its U+FFFDs.
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const text = UTF8.decode(bytes);
  if (options.optional && text.trim() === '') return {};
  if (!isJsonType(c.req.header('content-type'))) {
    throw new Refusal(406, 'The body must be JSON sent with Content-Type: application/json', { code: 'P-406' });
  }
  // Compressed bytes would be refused below as text that is not UTF-8, their cause unsaid. The
  // interface names no status for them: the sandbox's choice is 406, a body that is not JSON.
  const encoding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new Refusal(406, 'The body must be JSON sent as it is: a body with Content-Encoding (gzip, br, deflate) is not read', { code: 'P-406' });
  }
  // Bytes that are not UTF-8 (a body in Latin-1) were read as U+FFFD: refused, not kept changed.
  if (text.includes('\uFFFD') && !isUtf8(bytes)) {
    throw Refusal.invalidField('', 'the body is not UTF-8 text: JSON is sent as UTF-8 (RFC 8259)');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw Refusal.invalidField('', 'the body is not valid JSON');
  }
  // Which of a key given twice the live gateway keeps is nowhere written, and an amount given
  // twice would move one of them: refused in every mode, as a money-moving tolerance is.
  const repeated = repeatedKeys(text);
  if (repeated.length > 0) throw Refusal.invalid(repeated.map((field) => ({ field, reason: REPEATED })));
  // `10.00` reads as 10: minor units nobody meant (0.10 UAH of a credit meant as ten hryvnias).
  const decimals = options.minorUnits ? amountsWrittenAsDecimals(text, options.minorUnits) : [];
  if (decimals.length > 0) throw Refusal.invalid(decimals);
  c.set('jsonBody', body);
  c.set('writtenAmounts', amountsAsWritten(text));
  return body;
}

/** Parses input with a wire schema; 400 naming every field that is wrong. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = parseWire(schema, input);
  if (!parsed.success) throw Refusal.invalid(parsed.issues);
  return parsed.data;
}

/**
 * Parses an interface request (body or query) for the authenticated project: tolerant unless it
 * is strict. The leniency is set on the context before a refusal, so it reports refusals too.
 * An amount the body's text writes with float noise is refused in every mode, beside the rest.
 */
export function readRequest<S extends z.ZodType>(c: Context<SandboxEnv>, schema: S, input: unknown): z.output<S> {
  const read = readOrIssues(c, schema, input);
  if (!read.success) throw Refusal.invalid(read.issues);
  return read.data;
}

/** The fields that pick a request's variant. */
const VARIANT_FIELDS: ReadonlySet<string> = new Set(['mode', 'method']);

/**
 * A request of one of `schema`'s variants, picked by `mode` and `method`. When they pick none, a
 * discriminated union says only that, and a client would fix its request one round trip at a time:
 * what every variant shares (`basics`, read loosely, with the values mode and method may take) is
 * read too, and the 400 names all of it.
 */
export function readVariant<S extends z.ZodType>(c: Context<SandboxEnv>, schema: S, basics: z.ZodType, input: unknown): z.output<S> {
  const read = readOrIssues(c, schema, input);
  if (read.success) return read.data;
  if (!read.issues.some(({ field }) => VARIANT_FIELDS.has(field))) throw Refusal.invalid(read.issues);
  // Read for its words only: what tolerances it applied is the variant's read's to report.
  const shared = readLeniently(basics, input, c.get('project').strict);
  if (shared.success) throw Refusal.invalid(read.issues);
  const named = new Set(shared.issues.map(({ field }) => field));
  throw Refusal.invalid([...shared.issues, ...read.issues.filter(({ field }) => !named.has(field))]);
}

function readOrIssues<S extends z.ZodType>(c: Context<SandboxEnv>, schema: S, input: unknown): WireParse<z.output<S>> {
  const strict = c.get('project').strict;
  const read = readLeniently(schema, input, strict);
  const fromBody = input === c.get('jsonBody');
  const amounts = fromBody ? c.get('writtenAmounts') : undefined;
  const exponent = exponentReading(amounts?.withExponent ?? [], strict);
  c.set('leniency', merge(merge(c.get('leniency'), read.leniency), exponent.leniency));
  const written = [...(amounts?.overPrecise ?? []), ...exponent.issues];
  const refused = read.success ? [] : read.issues;
  // The text's count matters only for an amount the schema took (10.099999999999999 reads as 10.1):
  // one it refused already (10.123) is named once, not twice in one field's words and the text's.
  const overPrecise = written.filter(({ field }) => !refused.some((issue) => issue.field === field));
  if (!read.success || overPrecise.length > 0) return { success: false, issues: [...overPrecise, ...refused] };
  return read;
}

export async function readBody<S extends z.ZodType>(c: Context<SandboxEnv>, schema: S): Promise<z.output<S>> {
  return readRequest(c, schema, await readJsonBody(c));
}

function merge(earlier: Leniency | undefined, later: Leniency): Leniency {
  if (!earlier) return later;
  return {
    strict: later.strict,
    ignored: [...earlier.ignored, ...later.ignored],
    coerced: [...earlier.coerced, ...later.coerced],
    waived: [...earlier.waived, ...later.waived],
    refused: [...earlier.refused, ...later.refused],
  };
}

/** Query parameters as single strings; a parameter given twice is refused. */
export function readQuery(c: Context): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) throw Refusal.invalidField(name, 'must be given once');
    query[name] = values[0] ?? '';
  }
  return query;
}

