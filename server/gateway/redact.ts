/**
 * What may never reach a log line: card numbers, CVVs, expiry dates, gateway credentials, the
 * admin token, card tokens and signatures. Values under such keys are replaced whatever they
 * hold; every other string is masked like the gateway's echoes (`maskCardData`: card-number
 * digit runs, and 3–4-digit runs in text that mentions a CVV), because card data can hide in an
 * error message or a gateway echo. Shared by the companion's logger and the sandbox's request
 * inspector, which must not import each other.
 */
import { maskCardData } from './errors.js';

export const REDACTED = '[redacted]';

// Compared after lower-casing and dropping `_` and `-`: `card_cvv`, `cardCvv` and `Card-CVV` alike.
const SECRET_KEYS = new Set([
  'number', 'ccnumber', 'cardnumber', 'pan', 'cvv', 'cvv2', 'cvc', 'cvc2', 'cardcvv', 'securitycode',
  'expmonth', 'expyear', 'expiry', 'authorization', 'cookie', 'setcookie', 'xapiauth', 'xapikey', 'apikey',
  'apisecret', 'endpointskey', 'admintoken', 'password', 'secret', 'signature', 'token', 'cctoken',
]);

// Identifiers the ledger and the gateway make (20 hex digits, `:n` retries, UUIDs, 64-hex event
// ids) hold a run of twelve digits by chance — about one order id in thirty — which the card-
// number mask would hide from the very person searching the log for that order. Under id keys a
// value of exactly such a shape is kept whole; anything else there (a merchant's own order id) is
// masked like any string. The 20-digit form needs a letter: twenty digits could carry a card number.
const IDENTIFIER_KEYS = new Set(['id', 'orderid', 'paymentid', 'gatewayorderid', 'transactionid', 'operationid', 'eventid']);
const GENERATED_ID = /^(?:(?=\d*[a-f])[\da-f]{20}(?::\d{1,3})?|[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}|[\da-f]{64})$/;

const MAX_DEPTH = 6;

const normalisedKey = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normalisedKey(key));
}

type KeyKind = 'secret' | 'identifier' | 'other';

// Logs and webhook bodies use a few dozen keys over and over; their kinds are remembered (up to
// a bound, so keys made up by a caller cannot grow it without end).
const keyKinds = new Map<string, KeyKind>();
const KEY_KINDS_KEPT = 2_048;

function kindOf(key: string): KeyKind {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    const normalised = normalisedKey(key);
    kind = SECRET_KEYS.has(normalised) ? 'secret' : IDENTIFIER_KEYS.has(normalised) ? 'identifier' : 'other';
    if (keyKinds.size < KEY_KINDS_KEPT) keyKinds.set(key, kind);
  }
  return kind;
}

function redactEntry(key: string, item: unknown, depth: number, seen: WeakSet<object>): unknown {
  const kind = kindOf(key);
  if (kind === 'secret' && item != null) return REDACTED;
  if (kind === 'identifier' && typeof item === 'string' && GENERATED_ID.test(item)) return item;
  return redact(item, depth + 1, seen);
}

/** A copy of `value` safe to log: secrets under their keys replaced, card data in strings masked. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return maskCardData(value);
  // JSON.parse makes a card number sent unquoted a number: masked like the same digits in text.
  if (typeof value === 'number') {
    const text = String(value);
    const masked = maskCardData(text);
    return masked === text ? value : masked;
  }
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[nested]';
  seen.add(value);
  if (value instanceof Error) return redactError(value, depth, seen);
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1, seen));
  // fromEntries, not assignment: a `__proto__` key stays a key instead of becoming the copy's prototype.
  // Keys are masked too: whoever builds the object may have put a card number in one.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskCardData(key), redactEntry(key, item, depth, seen)]));
}

function redactError(error: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const { status, code, fields } = error as Error & { status?: unknown; code?: unknown; fields?: unknown };
  return {
    name: error.name,
    message: maskCardData(error.message),
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code: redact(code, depth + 1, seen) }),
    ...(Array.isArray(fields) && fields.length > 0 ? { fields: redact(fields, depth + 1, seen) } : {}),
    ...(error.stack ? { stack: maskCardData(error.stack) } : {}),
    ...(error.cause === undefined ? {} : { cause: redact(error.cause, depth + 1, seen) }),
  };
}
