/**
 * What the sandbox ignored, coerced or refused in a request, with the rule of the interface
 * behind it: the `notes` of each request in GET /_sandbox/requests.
 *
 * Whoever bends a request tells the inspector with one call, during the request:
 *
 *   noteLeniency(c, { kind: 'ignored', field: 'shop_ref', rule: 'unknown fields are ignored (gateway-notes.md)' });
 *   noteLeniency(c, { kind: 'coerced', field: 'amount', from: '10.10', to: 10.1, rule: 'amounts may be numeric strings' });
 *
 * Refusals need no call: they are read from the 4xx answer's error body. Values are masked
 * when the request is recorded (card data and credentials never reach the inspector).
 */
import type { Context } from 'hono';
import { readErrorArgs } from '@payform/gateway/wire';
import type { SandboxEnv } from '../http/env.js';

export type LeniencyNote =
  | { readonly kind: 'ignored'; readonly field: string; readonly rule: string }
  | { readonly kind: 'coerced'; readonly field: string; readonly from: unknown; readonly to: unknown; readonly rule: string };

export type RefusalNote = { readonly kind: 'refused'; readonly field: string; readonly reason: string; readonly rule?: string };

export type InspectorNote = LeniencyNote | RefusalNote;

/** Adds a note to the request under way (kept in the `inspectorNotes` context variable). */
export function noteLeniency(c: Context<SandboxEnv>, note: LeniencyNote): void {
  const notes = c.get('inspectorNotes');
  if (notes) notes.push(note);
  else c.set('inspectorNotes', [note]);
}

/** The rule behind a refusal that names no field, by the error body's code. */
const RULES_BY_CODE: Readonly<Record<string, string>> = {
  'P-401': 'Every request carries X-API-AUTH: CPAY <API key>:<API secret>; every POST, receipt, order read and re-send also X-API-KEY, and a pos_id must be the credentials’ project',
  'P-404': 'The endpoint, order or object must exist',
  'P-405': 'Each endpoint takes the methods the interface lists',
  'P-406': 'Bodies are JSON, sent with Content-Type: application/json',
  'P-409': 'order_id is unique per project across every create endpoint, declined and cancelled payments included',
  'P-413': 'The body is at most the sandbox’s body limit (64 KiB unless configured)',
  '4150': 'The order’s state must allow the operation',
};

const FIELD_RULE = 'The request parameters of the interface: presence, type, length and format';

/** Notes for a refused request, read from its error body `{message, args}`. */
export function refusalNotes(status: number, body: unknown): RefusalNote[] {
  if (status < 400 || status >= 500 || typeof body !== 'object' || body === null) return [];
  const { message, args } = body as { message?: unknown; args?: unknown };
  const { code, fields } = readErrorArgs(args);
  if (fields.length > 0) return fields.map(({ field, reason }) => ({ kind: 'refused', field, reason, rule: FIELD_RULE }));
  const rule = code === undefined ? undefined : RULES_BY_CODE[code];
  return [{ kind: 'refused', field: '', reason: typeof message === 'string' ? message : `HTTP ${status}`, ...(rule ? { rule } : {}) }];
}
