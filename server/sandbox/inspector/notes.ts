/**
 * What the sandbox ignored, coerced, waived or refused in a request, and what it warns of, with
 * the rule of the interface behind it: the `notes` of each request in GET /_sandbox/requests.
 * What reading the request bent comes from its leniency report (`c.var.leniency`,
 * http/leniency.ts); warnings from the handlers (`c.var.warnings`: a request taken that will
 * cause trouble later, a HEAD that did not do what its GET does); refusals are read from the 4xx
 * answer's error body, with the leniency's rule where it names one. Notes name fields and JSON
 * types, never values: a field may be a card's expiry.
 */
import { readErrorArgs } from '@payform/gateway/wire';
import type { Leniency } from '../http/leniency.js';

export type LeniencyNote =
  | { readonly kind: 'ignored'; readonly field: string; readonly what: string; readonly rule: string }
  | { readonly kind: 'coerced'; readonly field: string; readonly from: string; readonly to: string; readonly what: string; readonly rule: string }
  | { readonly kind: 'waived'; readonly field: string; readonly what: string; readonly rule: string };

export type RefusalNote = { readonly kind: 'refused'; readonly field: string; readonly reason: string; readonly rule?: string };

/** Something the request was answered for that the integrator should know about. */
export type WarningNote = { readonly kind: 'warning'; readonly field: string; readonly what: string; readonly rule: string };

export type InspectorNote = LeniencyNote | WarningNote | RefusalNote;

/** What reading the request ignored, coerced and waived. */
export function leniencyNotes(leniency: Leniency | undefined): LeniencyNote[] {
  if (!leniency) return [];
  return [
    ...leniency.ignored.map(({ field, what, rule }): LeniencyNote => ({ kind: 'ignored', field, what, rule })),
    ...leniency.coerced.map(({ field, from, to, what, rule }): LeniencyNote => ({ kind: 'coerced', field, from, to, what, rule })),
    ...leniency.waived.map(({ field, what, rule }): LeniencyNote => ({ kind: 'waived', field, what, rule })),
  ];
}

/** The rule behind a refusal that names no field, by the error body's code. */
const RULES_BY_CODE: Readonly<Record<string, string>> = {
  'P-401': 'Every request carries X-API-AUTH: CPAY <API key>:<API secret>; every POST, receipt and re-send (`?callback=`) also X-API-KEY (an order read does not need it), and a pos_id must be the credentials’ project',
  'P-404': 'The endpoint, order or object must exist',
  'P-405': 'Each endpoint takes the methods the interface lists',
  'P-406': 'Bodies are JSON, sent with Content-Type: application/json',
  'P-409': 'order_id is unique per project across every create endpoint, declined and cancelled payments included',
  'P-413': 'The body is at most the sandbox’s body limit (64 KiB unless configured)',
  '4150': 'The order’s state must allow the operation',
};

const FIELD_RULE = 'The request parameters of the interface: presence, type, length and format';

/** Notes for a refused request, read from its error body `{message, args}`; a field's rule from the leniency when it has one. */
export function refusalNotes(status: number, body: unknown, leniency?: Leniency): RefusalNote[] {
  if (status < 400 || status >= 500 || typeof body !== 'object' || body === null) return [];
  const { message, args } = body as { message?: unknown; args?: unknown };
  const { code, fields } = readErrorArgs(args);
  const ruleOf = (field: string) => leniency?.refused.find((refused) => refused.field === field)?.rule ?? FIELD_RULE;
  if (fields.length > 0) return fields.map(({ field, reason }) => ({ kind: 'refused', field, reason, rule: ruleOf(field) }));
  const rule = code === undefined ? undefined : RULES_BY_CODE[code];
  return [{ kind: 'refused', field: '', reason: typeof message === 'string' ? message : `HTTP ${status}`, ...(rule ? { rule } : {}) }];
}
