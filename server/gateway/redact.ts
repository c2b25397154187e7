/**
 * What may never reach a log line or a stored gateway body: card numbers, CVVs, expiry dates,
 * gateway credentials, the admin token, card tokens and signatures. `redactor(maskText)` makes a
 * masking copy: values under such keys are replaced whatever they hold, and every other key,
 * string and number goes through `maskText`, because card data can hide in an error message, a
 * gateway echo or a key. `redact` masks like the gateway's echoes (`maskCardData`: card numbers
 * however written, and 3–4-digit runs in text that mentions a CVV) and keeps ids, phones and
 * timestamps as written. The companion's logs and stored bodies and the sandbox's request
 * inspector all use it.
 */
import { isIP } from 'node:net';
import { CARD_NUMBER_MASK, GatewayError, maskCardData } from './errors.js';
import { SECURITY_CODE_NAMES_IN_KEYS } from './security-code-names.js';

export { CARD_NUMBER_MASK };
export const REDACTED = '[redacted]';

// Compared after lower-casing and dropping `_` and `-`: `card_cvv`, `cardCvv` and `Card-CVV` alike.
const SECRET_KEYS = new Set([
  'number', 'ccnumber', 'cardnumber', 'pan', 'expmonth', 'expyear', 'cardexpmonth', 'cardexpyear', 'expiry', 'authorization', 'cookie', 'setcookie',
  'xapiauth', 'xapikey', 'apikey', 'apisecret', 'endpointskey', 'admintoken', 'password', 'secret', 'signature', 'xsign', 'token', 'cctoken',
]);

// Identifiers the ledger and the gateway make (20 hex digits, `:n` retries, UUIDs, 64-hex event
// ids) hold a run of twelve digits by chance — about one order id in thirty — which the card-
// number mask would hide from the very person searching the log for that order. Under id keys a
// value of exactly such a shape is kept whole; anything else there (a merchant's own order id) is
// masked like any string. The 20-digit form needs a letter: twenty digits could carry a card
// number, and so could sixteen and more with a few letters at one end (`4242…4242abce`).
const IDENTIFIER_KEYS = new Set(['id', 'orderid', 'paymentid', 'gatewayorderid', 'transactionid', 'operationid', 'eventid']);
const GENERATED_ID = /^(?:(?=\d*[a-f])(?![a-f]*\d{16,}[a-f]*(?::|$))[\da-f]{20}(?::\d{1,3})?|[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}|[\da-f]{64})$/;

// A client's address, or its network (`2601:644:8100:1230::/64`), under the keys that carry one
// (the gateway's requests too: `customer_ip`, the fingerprint's `browserIpAddress`):
// an IPv6 address whose groups are all digits reads to the card-number mask as one in about a
// quarter of cases (`2607:5300:0203:1234::1`), and an operator tracing a client needs it whole.
// Only a value that parses as an address is kept; anything else under these keys is masked.
const ADDRESS_KEYS = new Set(['ip', 'client', 'clientip', 'network', 'remoteaddress', 'customerip', 'browseripaddress']);
function isAddress(value: string): boolean {
  const slash = value.lastIndexOf('/');
  if (slash < 0) return isIP(value) !== 0;
  const version = isIP(value.slice(0, slash));
  const prefix = value.slice(slash + 1);
  return version !== 0 && /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const MAX_DEPTH = 6;

// A CVV under a key no list can foresee (`card_cvc`, `cvv_code`, `cardSecurityCode`, `securityNumber`, `csc`,
// `codigo_de_seguridad`, `kodBezpieczenstwa`, `код_безпеки`): a key that names one is secret, as text that names one
// has its short digit runs masked.
const CVV_KEY = new RegExp(String.raw`cvv|cvc|security(?:code|number)|^csc$|${SECURITY_CODE_NAMES_IN_KEYS}`);
// Shorter names of one, as whole words of the key (`cv2`, `card_cvn`, `cardCode`), so `bytes_rcvd`,
// `svc_v2` and `discard_code` stay what they are. Not a bare `cid`: as often a customer's id.
const CVV_WORDS = /(?:^|[^a-z\d])(?:cvn2?|cv2|cvd|cav2|card[^a-z\d]?code)(?:$|[^a-z\d])/;

const normalisedKey = (key: string) => key.toLowerCase().replace(/[-_]/g, '');
/** The key's words apart, lower case: `cardCode` as `card code`, `card_cv2` as `card cv2`. */
const keyWords = (key: string) => key.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase();

/** Whether a key or a parameter's name names a card's security code (`cvv`, `card_cvc`, `securityCode`, `cv2`). */
export const namesSecurityCode = (key: string): boolean => CVV_KEY.test(normalisedKey(key)) || CVV_WORDS.test(keyWords(key));

const isSecret = (key: string, normalised: string) => SECRET_KEYS.has(normalised) || namesSecurityCode(key);

type KeyKind = 'secret' | 'identifier' | 'address' | 'other';

/** What a mask makes of a key: its kind, and the key as written out. */
interface KeySeen {
  readonly kind: KeyKind;
  readonly written: string;
}

// Logs and webhook bodies use a few dozen keys over and over; what each mask makes of them is
// remembered (up to a bound, so keys made up by a caller cannot grow it without end).
const KEYS_KEPT = 2_048;

function kindOf(key: string): KeyKind {
  const normalised = normalisedKey(key);
  if (isSecret(key, normalised)) return 'secret';
  return IDENTIFIER_KEYS.has(normalised) ? 'identifier' : ADDRESS_KEYS.has(normalised) ? 'address' : 'other';
}

/**
 * A copy of any value with secrets under their keys replaced and `maskText` applied to keys,
 * strings and numbers.
 */
export function redactor(maskText: (text: string) => string): (value: unknown) => unknown {
  const keys = new Map<string, KeySeen>();

  function seenKey(key: string): KeySeen {
    let seen = keys.get(key);
    if (seen === undefined) {
      seen = { kind: kindOf(key), written: maskText(key) };
      if (keys.size < KEYS_KEPT) keys.set(key, seen);
    }
    return seen;
  }

  function entry(key: string, item: unknown, depth: number, seen: WeakSet<object>): [string, unknown] {
    const { kind, written } = seenKey(key);
    if (kind === 'secret' && item != null) return [written, REDACTED];
    if (kind === 'identifier' && typeof item === 'string' && GENERATED_ID.test(item)) return [written, item];
    if (kind === 'address' && typeof item === 'string' && isAddress(item)) return [written, item];
    return [written, walk(item, depth + 1, seen)];
  }

  /**
   * A card number sent as a JSON number is masked like its digits in text. Past 2^53 an
   * integer's digits are no longer the ones sent, so any of 16–19 digits there is taken for one;
   * a longer one is judged by the digits it still has (a card number with digits run after it).
   */
  function number(value: number): number | string {
    // A fraction (below 2^53, where every number is whole) is judged by its digits as written,
    // each side of the point: `4111111111111111.5`, `0.4111111111111111`.
    if (Number.isInteger(value) && Math.abs(value) < 1e12) return value;
    if (!Number.isSafeInteger(value) && Math.abs(value) >= 2 ** 53 && Math.abs(value) < 1e19) return CARD_NUMBER_MASK;
    const text = String(value);
    return maskText(text) === text ? value : CARD_NUMBER_MASK;
  }

  function walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return maskText(value);
    if (typeof value === 'number') return number(value);
    if (typeof value === 'bigint') return maskText(value.toString());
    if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
    if (seen.has(value)) return '[circular]';
    if (depth >= MAX_DEPTH) return '[nested]';
    seen.add(value);
    if (value instanceof Error) return error(value, depth, seen);
    if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1, seen));
    return copy(value as Record<string, unknown>, depth, seen);
  }

  /** A plain loop rather than entries → map → fromEntries: three arrays fewer for every object of every body. */
  function copy(value: Record<string, unknown>, depth: number, seen: WeakSet<object>): Record<string, unknown> {
    const copied: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const [written, item] = entry(key, value[key], depth, seen);
      // Defined, not assigned: a `__proto__` key stays a key instead of becoming the copy's prototype.
      if (written === '__proto__') Object.defineProperty(copied, written, { value: item, enumerable: true, writable: true, configurable: true });
      else copied[written] = item;
    }
    return copied;
  }

  /**
   * A gateway error (refused, unreachable, timed out, outcome unknown) is an outcome its caller
   * handles, not a fault in payform: its stack, and its causes', would name the same call site
   * on every line (2.7 KB a warning). Its name, message, status and causes say what happened.
   * Any other error keeps its stack.
   */
  function error(error: Error, depth: number, seen: WeakSet<object>, expected = error instanceof GatewayError): Record<string, unknown> {
    const { status, code, fields } = error as Error & { status?: unknown; code?: unknown; fields?: unknown };
    return {
      name: error.name,
      message: maskText(error.message),
      ...(status === undefined ? {} : { status }),
      ...(code === undefined ? {} : { code: walk(code, depth + 1, seen) }),
      ...(Array.isArray(fields) && fields.length > 0 ? { fields: walk(fields, depth + 1, seen) } : {}),
      ...(error.stack && !expected ? { stack: maskText(error.stack) } : {}),
      ...(error.cause === undefined ? {} : { cause: cause(error.cause, depth + 1, seen, expected) }),
    };
  }

  function cause(value: unknown, depth: number, seen: WeakSet<object>, expected: boolean): unknown {
    if (!expected || !(value instanceof Error) || seen.has(value) || depth >= MAX_DEPTH) return walk(value, depth, seen);
    seen.add(value);
    return error(value, depth, seen, true);
  }

  return (value) => walk(value, 0, new WeakSet());
}

/** A copy of `value` safe to log: secrets under their keys replaced, card-like digit runs masked in keys, strings and numbers. */
export const redact: (value: unknown) => unknown = redactor(maskCardData);
