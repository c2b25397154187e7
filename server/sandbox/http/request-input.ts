/**
 * Reading what a request carries — JSON body, path parameters, query — through the shared wire
 * schemas, refusing anything else with the gateway's error body: 406 for a body that is not
 * `application/json`, 400 for malformed JSON or a value that breaks the schema. Reasons never
 * quote a value, so a card number sent in the wrong field is not echoed.
 */
import type { Context } from 'hono';
import type * as z from 'zod';
import { parseWire } from '@payform/gateway/wire';
import { Refusal } from '../state/refusal.js';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** The JSON body; `optional` lets an empty body through as `{}` (control-plane commands). */
export async function readJsonBody(c: Context, options: { optional?: boolean } = {}): Promise<unknown> {
  const text = await c.req.text();
  if (options.optional && text.trim() === '') return {};
  if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new Refusal(406, 'The body must be JSON sent with Content-Type: application/json', { code: 'P-406' });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw Refusal.invalidField('', 'the body is not valid JSON');
  }
}

/** Parses input with a wire schema; 400 naming every field that is wrong. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = parseWire(schema, input);
  if (!parsed.success) throw Refusal.invalid(parsed.issues);
  return parsed.data;
}

export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseInput(schema, await readJsonBody(c));
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

