/**
 * The gateway's basic wire types (see "Common type names" in gateway-interface.md), shared by
 * every request, response and webhook schema.
 */
import * as z from 'zod';
import { currencyRefusal } from '../money.js';
import { MAX_WIRE_AMOUNT, WIRE_MAX_DECIMALS, exactNumber, exceedsWireRange, fractionDigits, isDecimal } from './decimals.js';
import type { WireAmount } from './decimals.js';

/**
 * A schema's own reason for a wrong value, leaving a missing value to the shared
 * "is required" (wireErrorMap) instead of claiming that nothing is a malformed UUID, and a
 * length past a `.max()` to its "at most N characters": zod gives the schema's error to every
 * check chained on it, and a 3,000-character address is no less an http(s) URL.
 */
export const reason = (message: string) => (issue: { input?: unknown; code?: string }) =>
  issue.input === undefined || issue.code === 'too_big' || issue.code === 'too_small' ? undefined : message;

/**
 * UUID fields. The 8-4-4-4-12 hex shape without RFC 4122 version bits: ids issued by the
 * gateway's support (sub_merchant_id, terminal_id) are not promised to be RFC-versioned. Read in
 * lower case, as they are issued: RFC 4122 takes either case on input, and some platforms
 * (Swift's `uuidString`, .NET's `ToString("D").ToUpper()`) write upper case.
 */
export const Uuid = z.guid({ error: reason('must be a UUID') }).overwrite((id) => id.toLowerCase());

/**
 * An ISO 4217 currency the gateway can carry (XTS, the testing code, included): see
 * `currencyRefusal`. Answers are read with the same rule — the gateway echoes the request's.
 */
export const Currency = z
  .string()
  .superRefine((code, ctx) => {
    const refusal = currencyRefusal(code);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
  })
  // What a JSON Schema can say of the rule (an OpenAPI document built from these schemas).
  .meta({ pattern: '^[A-Z]{3}$', description: 'An ISO 4217 code in upper case: UAH, EUR, XTS for tests' });

export const Mode = z.enum(['direct', 'hosted']);
export type Mode = z.infer<typeof Mode>;

export const Method = z.enum(['auth', 'purchase', 'lookup', 'capture', 'void', 'refund', 'credit', 'p2p']);
export type Method = z.infer<typeof Method>;

export const PrimaryMethod = z.enum(['auth', 'purchase', 'lookup', 'credit', 'p2p']);
export const SecondaryMethod = z.enum(['capture', 'void', 'refund']);

/** The four statuses the gateway uses; codes (1000, 2122 …) refine them. */
export const Status = z.enum(['init', 'pending', 'success', 'failure']);
export type Status = z.infer<typeof Status>;

/** http(s) addresses only: the gateway posts webhooks and redirects browsers to them. */
export const Url = z.url({ protocol: /^https?$/, error: reason('must be an http(s) URL') });

/**
 * Where a service is reached (the gateway, a tokenizer, the companion's public address): an
 * http(s) URL with no query, fragment or credentials, for paths are appended to it and any of
 * those would swallow them — every webhook to `https://shop.example/?a=1/webhooks/gateway`.
 */
export const ServiceUrl = Url.superRefine((value, ctx) => {
  const url = URL.parse(value);
  if (!url) return; // not a URL at all: Url has said so
  const extra = [url.search && 'query', url.hash && 'fragment', (url.username || url.password) && 'credentials'].filter(Boolean);
  if (extra.length > 0) ctx.addIssue({ code: 'custom', message: `must have no ${extra.join(', ')}: paths are appended to it` });
});

/** The gateway's address: a ServiceUrl without the interface's own `/api/v1`, which the client adds. */
export const GatewayBaseUrl = ServiceUrl.refine((value) => !/\/api\/v1\/?$/.test(URL.parse(value)?.pathname ?? ''), {
  error: 'must be the gateway’s address without /api/v1 (the client adds the interface’s paths)',
});

/**
 * A credential as the authentication headers carry it (X-API-AUTH: `CPAY <key>:<secret>`,
 * X-API-KEY): anything else — a pasted newline, a NUL, a character past ASCII — fails every
 * call, each runtime its own way. `noColon` for the key, which the colon ends.
 */
export const headerCredential = (noColon = false) =>
  z
    .string()
    .min(1, { error: 'must not be empty' })
    // Inside it: a line break a file read left at its end is whitespace around it, said as such.
    .refine((value) => /^[\x20-\x7E]*$/.test(value.trim()), { error: 'must hold printable ASCII characters only: a header cannot carry it' })
    .refine((value) => value.trim() === value, { error: 'must not begin or end with whitespace' })
    .refine((value) => !noColon || !value.includes(':'), { error: 'must not hold a colon: X-API-AUTH sends <key>:<secret>' });

/** String(≤N). Free-text fields the interface leaves unbounded are capped at 256 by payform. */
export const text = (max = 256) => z.string().max(max, { error: `must be at most ${max} characters` });
export const requiredText = (max = 256) => text(max).min(1, { error: 'must not be empty' });

/**
 * An e-mail address by its shape only — one @, no spaces, a local part of at most 64 characters —
 * as the interface types it a String: one-letter top-level labels and internationalised addresses
 * (RFC 6531) pass. No control character, bidi mark, override or isolate, nor an invisible one
 * (soft hyphen, zero-width space, word joiner, byte-order mark) either: they would show, in a back
 * office or a receipt, another address than the one kept, or one that looks the same and is not.
 */
export const EMAIL_ADDRESS = /^[^\s@"\p{Cc}\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]{1,64}@[^\s@\p{Cc}\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]{1,255}$/u;

/** Embeddings, overrides and isolates (U+202A–202E, U+2066–2069): they reorder the text around them ("05.00" shown as "00.50"). */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/u;

/**
 * A character that shows: not white space, a control or format character (a zero-width space, a
 * byte-order mark), a mark alone, a Hangul filler or the blank Braille cell. A text a person must
 * read (what is sold, how an order was settled) holds one.
 */
export const SOMETHING_VISIBLE = /[^\s\p{Cc}\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u2800]/u;

/**
 * A lone surrogate has no UTF-8 form, so no URL can name it (`encodeURIComponent` throws); a
 * control character is a sender's bug that logs, file names and PostgreSQL's text (NUL) mangle.
 * With the `u` flag a surrogate pair is one code point, so only a lone half matches.
 */
const UNADDRESSABLE = /[\p{Cc}\p{Cs}]/u;
const unaddressable = (value: string) =>
  /\p{Cs}/u.test(value) ? 'must be valid Unicode: it holds half of a surrogate pair' : 'must not hold control characters';

/**
 * Order ids travel in gateway paths (`…/orders/:order_id`), where `.` and `..` are dot segments
 * that URLs resolve — `orders/..` would address another endpoint with the merchant's
 * credentials — and no encoding hides them (`%2E%2E` is `..` too). Such an order could never be
 * read, cancelled or refunded, so it is not created either.
 */
const pathSafe = <S extends z.ZodString>(id: S) =>
  id
    .refine((value) => value !== '.' && value !== '..', { error: 'must not be "." or ".."' })
    .refine((value) => !UNADDRESSABLE.test(value), { error: (issue) => unaddressable(issue.input as string) });

/** order_id as created; responses allow String(≤256). */
export const OrderId = pathSafe(requiredText(256));
/** The longest order_id capture, void and refund take (the interface's Limits): the gateway creates a longer one that could never be refunded, so the client refuses to create it. */
export const SECONDARY_ORDER_ID_MAX = 32;
/**
 * The characters of `value` as the interface's limits count them, and this package's schemas
 * (zod's length checks): code points, an emoji one, not its two UTF-16 units.
 */
export function characters(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}
/** order_id in capture, void and refund requests. */
export const SecondaryOrderId = pathSafe(requiredText(SECONDARY_ORDER_ID_MAX));

export const Comment = text(2048);

/**
 * Why an amount cannot travel in a request, or undefined when it can: a plain decimal, at most
 * two fraction digits, at most MAX_WIRE_AMOUNT (so it is exact as a JSON number), positive.
 * Float artefacts such as 0.30000000000000004 fail. Takes the numeric strings the live service
 * reads too, so that a reader as tolerant as the live gateway can say what is wrong with one.
 */
export function requestAmountRefusal(value: WireAmount): string | undefined {
  const digits = fractionDigits(value);
  // A JSON number JavaScript writes with an exponent (1e-7, 1e21) is one of too many decimals or too large.
  if (digits === undefined && typeof value === 'number' && Number.isFinite(value)) {
    return Math.abs(value) < 1 ? `must have at most ${WIRE_MAX_DECIMALS} decimal digits` : `must be at most ${MAX_WIRE_AMOUNT}`;
  }
  if (digits === undefined) return 'must be a plain decimal number';
  if (digits > WIRE_MAX_DECIMALS) return `must have at most ${WIRE_MAX_DECIMALS} decimal digits`;
  if (exceedsWireRange(value)) return `must be at most ${MAX_WIRE_AMOUNT}`;
  if (!(Number(value) > 0)) return 'must be greater than 0';
  return undefined;
}

/**
 * An amount in a request: a JSON number, as payform's client sends it (`toWireAmount`), held to
 * `requestAmountRefusal`. The live service also reads a numeric string (gateway-notes.md); that
 * is a tolerance of the live gateway, which the sandbox applies to a tolerant project, not the
 * interface's type. A string is refused saying what else is wrong with it, if anything.
 */
export const RequestAmount = z
  .number({
    error: (issue) => {
      if (issue.input === undefined) return undefined;
      if (typeof issue.input !== 'string') return 'must be a decimal number';
      // A string a number holds exactly is refused for being a string; another, or one written
      // with more fraction digits than the wire takes ("10.100"), for what else it is.
      const asNumber = exactNumber(issue.input) !== undefined && (fractionDigits(issue.input) ?? 0) <= WIRE_MAX_DECIMALS;
      return asNumber ? 'must be a number' : (requestAmountRefusal(issue.input) ?? 'must be a number');
    },
  })
  .superRefine((value, ctx) => {
    const refusal = requestAmountRefusal(value);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
  });

/** An amount in a response or webhook: a number or numeric string, sign allowed (balances). */
export const ResponseAmount = z
  .union([z.number(), z.string()], { error: reason('must be a decimal number') })
  .refine(isDecimal, { error: 'must be a plain decimal number' });

/**
 * TIMESTAMP: `yyyy-MM-ddTHH:mm:ss`, optional fraction, no zone — but a `Z` is met in practice.
 * Responses take any string so that a new format never breaks reading a payment.
 */
export const Timestamp = z.string();

/** STATUS_CODE: a digit string, sometimes a number, sometimes null. */
export const StatusCodeField = z.union([z.string(), z.number()]).nullish();

/** Fee objects `{amount, currency}`; the whole fee may be null. */
export const Fee = z.looseObject({ amount: ResponseAmount, currency: Currency.nullish() }).nullish();
export type WireFee = z.infer<typeof Fee>;

/** limit_info is typed String in the tables but arrives as an object; both are accepted. */
export const LimitInfo = z
  .union([z.looseObject({ retry_after: z.string().nullish(), description: z.string().nullish() }), z.string()])
  .nullish();

/** `yyyy-MM-dd` as used by customer_birthday and the receipts-for-a-date path. */
export const IsoDate = z.iso.date({ error: reason('must be a date yyyy-MM-dd') });

/** Formats a time the way the gateway writes TIMESTAMP values (UTC, milliseconds, no zone). */
export function formatTimestamp(time: Date): string {
  return time.toISOString().slice(0, 23);
}
