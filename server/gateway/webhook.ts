/**
 * Webhooks: the gateway posts a form with `data` (base64url JSON of the event) and
 * `signature` = base64url(sha1_raw(secret + data + secret)), `=` padding kept. The sandbox signs
 * with the same functions the companion verifies with, so both ends cannot drift apart.
 *
 * Verification works on the `data` string exactly as received — never on re-serialised JSON —
 * and must come before decoding.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { toWebhookEvent } from './objects.js';
import type { WebhookEvent } from './objects.js';
import { parseAnswer, describeIssues } from './wire/issues.js';
import { WebhookEvent as WebhookEventSchema } from './wire/event.js';

/** The two form fields of a webhook delivery. */
export interface WebhookForm {
  readonly data: string;
  readonly signature: string;
}

/**
 * What a receiver may hand `readWebhook`: the form's fields as a framework parsed them, or the
 * posted body as it came — its text or bytes (`express.raw()`, `express.text()`, node:http), or
 * `URLSearchParams` / `FormData` (`await request.formData()`).
 */
export type WebhookBody = WebhookForm | string | Uint8Array | URLSearchParams | FormData;

/** A webhook whose signature does not match. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

/**
 * `readWebhook` was handed no form: the receiver's route parses none (Express's `express.json()`
 * alone leaves `req.body` undefined or `{}`). A fault of the receiver's set-up, not of the
 * sender: answer it 5xx, not 403, so the gateway sends the webhook again once the route is fixed.
 */
export class WebhookFormError extends Error {
  override readonly name = 'WebhookFormError';
}

/** A correctly signed webhook whose content is not an event payform can read. */
export class WebhookPayloadError extends Error {
  override readonly name = 'WebhookPayloadError';
}

/** Encodes an event as the `data` field: base64url of its JSON, padding kept. */
export function encodeWebhookData(event: object): string {
  return toBase64Url(Buffer.from(JSON.stringify(event), 'utf8').toString('base64'));
}

/** The signature of a `data` field, 28 characters with its `=` padding. */
export function signWebhook(data: string, apiSecret: string): string {
  requireSecret(apiSecret);
  // One-shot: no Hash object for each webhook, half the cost of createHash's on Node 20.
  return toBase64Url(hash('sha1', apiSecret + data + apiSecret, 'base64'));
}

/** The form the gateway posts for an event (what the sandbox sends). */
export function webhookForm(event: object, apiSecret: string): WebhookForm {
  const data = encodeWebhookData(event);
  return { data, signature: signWebhook(data, apiSecret) };
}

/**
 * Whether `signature` is the gateway's signature of `data`, compared in constant time. A
 * signature without its padding, or in the standard base64 alphabet, is not the signature.
 */
export function verifyWebhook(data: string, signature: string, apiSecret: string): boolean {
  // What a form that lacks a field gives (undefined, null, an array of repeats) is no signature.
  if (typeof data !== 'string' || typeof signature !== 'string') return false;
  const expected = Buffer.from(signWebhook(data, apiSecret), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time the same.
  return given.length === expected.length ? timingSafeEqual(given, expected) : !timingSafeEqual(expected, expected);
}

/**
 * Decodes a `data` field into an event, amounts in minor units. Call only after
 * verifyWebhook. Throws WebhookPayloadError when it is not base64url JSON of a known event.
 */
export function decodeWebhook(data: string): WebhookEvent {
  return readWebhookEvent(parseWebhookData(data));
}

/**
 * The JSON a `data` field carries, not yet read as an event: for a receiver that keeps the
 * event as sent besides reading it, so the field is decoded and parsed once. Call only after
 * verifyWebhook. Throws WebhookPayloadError when it is not base64url JSON.
 */
export function parseWebhookData(data: string): unknown {
  if (typeof data !== 'string') throw new WebhookPayloadError('webhook data is not a string');
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(data)) throw new WebhookPayloadError('webhook data is not base64url');
  try {
    return JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
  } catch {
    throw new WebhookPayloadError('webhook data is not JSON');
  }
}

/**
 * An event the gateway sent, already parsed from JSON (e.g. as stored), read as the client's
 * WebhookEvent: amounts in minor units. Throws WebhookPayloadError when it is not one.
 */
export function readWebhookEvent(json: unknown): WebhookEvent {
  const parsed = parseAnswer(WebhookEventSchema, json);
  if (!parsed.success) throw new WebhookPayloadError(`webhook event is invalid: ${describeIssues(parsed.issues)}`);
  try {
    return toWebhookEvent(parsed.data);
  } catch (error) {
    throw new WebhookPayloadError(`webhook event is invalid: ${(error as Error).message}`);
  }
}

/** Verifies, then decodes: what a webhook receiver does with the posted form or body. */
export function readWebhook(body: WebhookBody, apiSecret: string): WebhookEvent {
  requireSecret(apiSecret);
  const received = isReceivedBody(body);
  const form = received ? fieldsOf(readableForm(body)) : body;
  // What the framework left of a form it did not parse: nothing, or (Express 4) an empty object.
  if (typeof form !== 'object' || form === null) throw noForm(form === null ? 'null' : typeof form);
  const { data, signature } = form as Partial<Record<keyof WebhookForm, unknown>>;
  if (typeof data !== 'string' || data === '') {
    // A body as received without either field is a post the gateway did not sign (`{"a":1}`).
    if (data === undefined && signature === undefined && !received) throw noForm('neither field');
    throw new WebhookSignatureError(data === undefined && signature === undefined ? 'webhook post has neither data nor signature' : 'webhook form has no data field');
  }
  if (typeof signature !== 'string' || signature === '') throw new WebhookSignatureError('webhook form has no signature field');
  if (!verifyWebhook(data, signature, apiSecret)) {
    throw new WebhookSignatureError('webhook signature does not match');
  }
  return decodeWebhook(data);
}

/** The refusal of a webhook handed no form: which parsers read one. */
function noForm(got: string): WebhookFormError {
  return new WebhookFormError(
    `webhook has no form (got ${got}): pass the posted fields data and signature, or the body as received ` +
      `(Express parses it only with express.urlencoded(), express.raw() or express.text() on this route: express.json() leaves it unread)`,
  );
}

type ReceivedBody = string | Uint8Array | URLSearchParams | FormData;

/** The body as received, or read by a form parser: not fields a framework parsed (or did not). */
function isReceivedBody(body: unknown): body is ReceivedBody {
  return typeof body === 'string' || body instanceof Uint8Array || body instanceof URLSearchParams || body instanceof FormData;
}

function readableForm(body: ReceivedBody): URLSearchParams | FormData {
  if (typeof body === 'string') return new URLSearchParams(body);
  return body instanceof Uint8Array ? new URLSearchParams(utf8.decode(body)) : body;
}

const utf8 = new TextDecoder();

function fieldsOf(fields: URLSearchParams | FormData): Partial<Record<keyof WebhookForm, unknown>> {
  // A field posted twice is no signature: what `getAll` finds beyond one is left unread.
  const field = (name: keyof WebhookForm) => (fields.getAll(name).length === 1 ? fields.get(name) : undefined);
  return { data: field('data'), signature: field('signature') };
}

/**
 * A missing secret (an unset variable) would make every signature "not match": a misconfiguration
 * that must say so, not reject every webhook as forged.
 */
function requireSecret(apiSecret: unknown): void {
  if (typeof apiSecret !== 'string' || apiSecret === '') {
    throw new TypeError(`The webhook secret must be the project's API secret, a non-empty string (got ${apiSecret === '' ? 'an empty string' : typeof apiSecret})`);
  }
}

// Node's 'base64url' drops the padding; the gateway keeps it.
function toBase64Url(base64: string): string {
  return base64.replaceAll('+', '-').replaceAll('/', '_');
}
