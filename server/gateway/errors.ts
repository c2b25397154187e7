/**
 * Errors of the gateway client: one base class, subclasses chosen by HTTP status and by the
 * error body `{message, args}`. A business decline is not an error: it is a payment or
 * operation with `status: "failure"`.
 *
 *   GatewayError
 *   ├─ InvalidRequestError      400, 405, 406, other 4xx; or rejected before sending (fields)
 *   │  └─ DuplicateOrderError   args.code P-409 (or HTTP 409): the order_id is taken
 *   ├─ AuthenticationError      401, 403
 *   ├─ NotFoundError            404
 *   ├─ RateLimitError           429
 *   ├─ GatewayUnavailableError  5xx
 *   ├─ NetworkError             no answer: connection refused, reset or dropped
 *   ├─ NetworkTimeoutError      no answer within the timeout
 *   ├─ NotTheGatewayError       a permanent redirect (301, 308): something else answers at the base URL
 *   ├─ OutcomeUnknownError      a money-moving call may or may not have happened
 *   └─ UnexpectedResponseError  an answer payform cannot read
 */
import { ANY_DIGIT, maskCardNumbers } from '@payform/card';
import { SECURITY_CODE_NAMES_IN_TEXT } from './security-code-names.js';
import { describeIssues } from './wire/issues.js';
import type { FieldIssue } from './wire/issues.js';
import { DUPLICATE_ORDER_CODE, readErrorArgs } from './wire/error.js';

export interface GatewayErrorDetails {
  /** HTTP status of the gateway's answer; absent when there was no answer. */
  readonly status?: number | undefined;
  /** `args.code` of the error body, e.g. "P-409". */
  readonly code?: string | undefined;
  /** `args` of the error body as sent (card data masked: `maskCardData`). */
  readonly args?: unknown;
  /** Which fields are wrong and why. */
  readonly fields?: readonly FieldIssue[] | undefined;
  /** What was asked, e.g. `POST https://gateway.example/api/v1/payment`: origin and path, never the query or credentials. */
  readonly target?: string | undefined;
  readonly cause?: unknown;
}

export class GatewayError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly args: unknown;
  readonly fields: readonly FieldIssue[];
  /**
   * What was asked, e.g. `POST https://gateway.example/api/v1/payment` (origin and path, never
   * the query or credentials), when an answer or its absence is the error; undefined for a
   * request refused before sending.
   */
  readonly target: string | undefined;

  constructor(message: string, details: GatewayErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code;
    this.args = details.args;
    this.fields = details.fields ?? [];
    this.target = details.target;
  }

  /**
   * What `JSON.stringify` writes: the message too, which an Error keeps out of its own fields, so
   * a log line of the error says what went wrong. Its cause is left out: the message names it.
   */
  toJSON(): object {
    return Object.assign({ name: this.name, message: this.message }, this);
  }
}

/** The request is wrong: fix it, do not retry it as is. `fields` says what is wrong. */
export class InvalidRequestError extends GatewayError {
  /** A request that failed local validation: it never left the process. */
  static rejectedLocally(fields: readonly FieldIssue[]): InvalidRequestError {
    return new InvalidRequestError(`Invalid request: ${describeIssues(fields)}`, { fields });
  }
}

/**
 * The order_id was used before — even if that payment failed. After a hosted create, reuse the
 * checkout URL kept from the first attempt; otherwise read the order's state.
 */
export class DuplicateOrderError extends InvalidRequestError {}

/** POS_ID, API key/secret or endpoints key rejected. */
export class AuthenticationError extends GatewayError {}

/** The endpoint, order or payment does not exist. */
export class NotFoundError extends GatewayError {}

export class RateLimitError extends GatewayError {
  /** From the Retry-After header, when the gateway sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: GatewayErrorDetails & { retryAfterMs?: number | undefined }) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** The gateway failed (5xx). For a read it is safe to try later. */
export class GatewayUnavailableError extends GatewayError {}

export class NetworkError extends GatewayError {
  /**
   * True when no connection could be made (refused, unknown host): the request never left,
   * so even a money-moving call is known not to have happened.
   */
  readonly connectFailed: boolean;

  constructor(message: string, details: GatewayErrorDetails & { connectFailed: boolean }) {
    super(message, details);
    this.connectFailed = details.connectFailed;
  }
}

export class NetworkTimeoutError extends GatewayError {
  readonly timeoutMs: number;

  constructor(timeoutMs: number, details: GatewayErrorDetails = {}) {
    super(`The gateway did not answer within ${timeoutMs} ms${details.target ? ` (${details.target})` : ''}`, details);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * What answers at the base URL is not the gateway: it redirects the call for good (301, 308), as
 * an http→https redirect or a moved site does. The gateway's API never answers so (its one
 * redirect is the hosted create's 303), and redirects are not followed, so the call reached no
 * gateway: even a money-moving call is known not to have happened. Not retried: the base URL
 * needs fixing. `location` is where it was sent, without its query.
 */
export class NotTheGatewayError extends GatewayError {
  readonly location: string | undefined;

  constructor(status: number, location: string | undefined) {
    super(`What answers at the gateway's address is not the gateway: HTTP ${status}${location ? ` to ${location}` : ''} (check the base URL)`, { status });
    this.location = location;
  }
}

/**
 * A payment, capture, void, refund or cancel was sent but no definite answer came back
 * (timeout, dropped connection, 5xx, unreadable answer). It may have happened. Read the order's
 * state (`client.orders.get(orderId, { currency })`) before doing anything else — never send it again blindly.
 * `cause` holds what went wrong.
 */
export class OutcomeUnknownError extends GatewayError {
  readonly orderId: string;
  readonly operation: string;

  constructor(operation: string, orderId: string, cause: unknown) {
    super(
      `The outcome of ${operation} for order ${orderId} is unknown (${describeCause(cause)}): ` +
        `read the order's state before retrying.`,
      { cause, ...(cause instanceof GatewayError ? { status: cause.status, target: cause.target } : {}) },
    );
    this.operation = operation;
    this.orderId = orderId;
  }
}

/** The gateway answered something payform cannot read (wrong status, not JSON, wrong shape). */
export class UnexpectedResponseError extends GatewayError {}

/**
 * The error for an HTTP error answer (status ≥ 400). `body` is the parsed JSON body, or
 * undefined when it was not JSON; `target` is what was asked (see GatewayError.target).
 */
export function errorFromResponse(status: number, body: unknown, retryAfterMs?: number, target?: string): GatewayError {
  const envelope = envelopeOf(body);
  const gatewayMessage = messageOf(envelope);
  const masked = maskEnvelope(gatewayMessage ?? `The gateway answered HTTP ${status}`, envelope.args);
  const { args } = masked;
  // No message of the gateway's is often no gateway at all (a web server's 404 page at a wrong
  // base URL): the address asked says which. Added after masking, its ids are ordinary data.
  // A 404 page rather than JSON names the fix too: the gateway's own not-found (an unknown order)
  // comes as JSON, and is the same error class.
  const page = status === 404 && body === undefined ? ", a page and not the gateway's JSON (check the base URL)" : '';
  const message = gatewayMessage === undefined && target ? `${masked.message} to ${target}${page}` : masked.message;
  const { fields } = readErrorArgs(args);
  // The code from the args as sent (masked on its own): a CVV mention elsewhere must not make `P-409` into `P-[cvv]`.
  const code = maskCardData(readErrorArgs(envelope.args).code);
  const details = { status, code, args, fields, target };

  if (code === DUPLICATE_ORDER_CODE || status === 409) return new DuplicateOrderError(message, details);
  if (status === 401 || status === 403) return new AuthenticationError(message, details);
  if (status === 404) return new NotFoundError(message, details);
  if (status === 429) return new RateLimitError(message, { ...details, retryAfterMs });
  if (status >= 500) return new GatewayUnavailableError(message, details);
  // A Host the server does not serve (421 Misdirected Request: a proxy's, or a payform sandbox's
  // for a name it was not given): nothing was processed, and nothing in the request is wrong.
  if (status === 421) return new NotTheGatewayError(status, undefined);
  if (status >= 400) return new InvalidRequestError(message, details);
  return new UnexpectedResponseError(message, details);
}

/**
 * The gateway's own words in an error body, as its error has them (card data masked): its message,
 * and its `args.code` when it sent one. Undefined when it sent no message.
 */
export function gatewayWords(body: unknown): string | undefined {
  const envelope = envelopeOf(body);
  const message = messageOf(envelope);
  if (message === undefined) return undefined;
  const code = maskCardData(readErrorArgs(envelope.args).code);
  const said = maskEnvelope(message, envelope.args).message;
  return code && !said.includes(code) ? `${said} (${code})` : said;
}

function envelopeOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

function messageOf(envelope: Record<string, unknown>): string | undefined {
  return typeof envelope.message === 'string' && envelope.message ? envelope.message : undefined;
}

/** What a masked card number reads. */
export const CARD_NUMBER_MASK = '[card number]';

/**
 * Masks card data in anything the gateway sent back, in case it echoes what it was given: card
 * numbers, however written (`@payform/card`'s recogniser), become `[card number]`, and when the
 * text mentions a CVV (cvv, cvc, csc, security code) every run of 3–4 digits in it becomes
 * `[cvv]` — a status code next to it is lost, a CVV never gets through. Ids, phones, timestamps
 * and amounts are kept. Structures are masked through their keys, strings and numbers; one
 * mention anywhere in them counts for all.
 */
export function maskCardData<T>(value: T): T {
  return maskNamed(value, false) as T;
}

/** `maskCardData`, with a CVV mention already found beside `value` counting for it too. */
function maskNamed(value: unknown, named: boolean): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'string')) return value;
  return maskIn(value, named || namesCvv(typeof value === 'string' ? value : JSON.stringify(value)));
}

// `cvv`, `CVC2`, `csc`, `security code` (or number, but a social security number), and its names in
// the widget's languages and a few more (`security-code-names.ts`: Ukrainian `код безпеки`, German
// `Sicherheitscode`, French `cryptogramme`, Polish `kod bezpieczeństwa`, Spanish `código de
// seguridad`…), and as some forms write it: `C.V.V.`, `c v v`; `CVN`, `CV2`, `CVD`, `CAV2` or `card
// code` with its digits, or quoted whole as a JSON key or field name (alone, `CV2 4AA` is a
// Coventry postcode). Not an SMS's "verification code", nor `CID`, which is as often a caller's or a
// customer's id. (`\s*(?:[:=#]\s*)?`: two `\s*` around an optional mark made a run of spaces after
// `cv2` quadratic.)
const CVV_MENTION = new RegExp(
  String.raw`cvv|cvc|csc|security[\s_-]?code|(?<!social[\s_-]?)security[\s_-]?number|квв|${SECURITY_CODE_NAMES_IN_TEXT}|\bc\.v\.?[vc]|\bc[\s_-]{1,2}v[\s_-]{1,2}v\b|\b(?:c(?:vn2?|v2|vd|av2)|card[\s_-]?code)["']?\s*(?:[:=#]\s*)?["']?\d{3,4}(?!\d)|"(?:c(?:vn2?|v2|vd|av2)|card[_-]?code)"`,
  'i',
);
const NON_ASCII = /[^\0-\x7f]/;
// What a reader does not see inside a word: format characters (a zero-width space in C\u200bV\u200bV),
// marks, and the tags that style text (C<b>V</b>V). Any other tag breaks a line or a cell (`<br>`,
// `</td><td>`): a space, or `Public<br>school` would read "csc".
const UNSEEN_IN_WORDS = /[\p{Cf}\p{M}]|<\/?(?:a|abbr|b|code|em|font|i|kbd|mark|s|small|span|strong|sub|sup|u)(?![\w-])[^<>]*>/giu;
const OTHER_TAG = /<[^<>]*>/g;
// Cyrillic and Greek letters drawn as c and v (`СVV` with a Cyrillic С), read as those.
const LOOK_LIKE_C = /[сСϲϹ]/g;
const LOOK_LIKE_V = /[ѵѴν]/g;
// Any script's digits and their look-alikes: a CVV written ９８７ or ⁹⁸⁷ is one too, and so is one
// spelt a digit at a time (`7 3 7`, `7-3-7`, `7.3.7`, `7/3/7`, tabs between), which a run of
// digits alone would miss.
const SPELT_APART = String.raw`(?:[ \xa0\u2009\u202f\t]{1,2}|[-./_\u2013]|%(?:25)*2[0dD])`;
// And a URL's escape of a digit (`cvv=%37%33%37`, escaped again in another's query: `%2537`), which
// its reader sees as the digit, as it sees `%20` and `%2D` between digits as a space and a dash.
const CODE_DIGIT = String.raw`(?:${ANY_DIGIT}|%(?:25)*3\d)`;
const SHORT_CODE = new RegExp(
  String.raw`(?<!${CODE_DIGIT})${CODE_DIGIT}{3,4}(?!${CODE_DIGIT})|(?<!${CODE_DIGIT}${SPELT_APART}?)${CODE_DIGIT}(?:${SPELT_APART}${CODE_DIGIT}){2,3}(?!${SPELT_APART}?${CODE_DIGIT})`,
  'gu',
);
/** Three digits at least, however written: the fewest a CVV has, and a card number has more. */
const THREE_DIGITS = new RegExp(String.raw`${ANY_DIGIT}(?:.*?${ANY_DIGIT}){2}`, 'su');

/**
 * Whether `text` names a CVV as a reader sees it: full-width letters (ＣＶＶ) read as theirs, what
 * hides inside a word left out, look-alike letters read as the Latin ones (in a copy: the Cyrillic
 * words keep their own letters).
 */
function namesCvv(text: string): boolean {
  if (CVV_MENTION.test(text)) return true;
  if (!NON_ASCII.test(text) && !text.includes('<')) return false;
  const seen = text.normalize('NFKC').replace(UNSEEN_IN_WORDS, '').replace(OTHER_TAG, ' ');
  return CVV_MENTION.test(seen) || CVV_MENTION.test(seen.replace(LOOK_LIKE_C, 'c').replace(LOOK_LIKE_V, 'v'));
}

/**
 * An error envelope's message and args, card data masked. The message is masked as one with the
 * args: a CVV they name ("card_cvv") and it quotes ("value 737 is not valid") is masked in both.
 * Each entry of the args by its own mention and the message's: an order id refused beside a CVV
 * ("order 1234 already exists") is not masked as if it were one.
 */
function maskEnvelope(message: string, args: unknown): { message: string; args: unknown } {
  const messageNames = namesCvv(message);
  return {
    message: maskText(message, messageNames || (args != null && namesCvv(JSON.stringify(args)))),
    args: Array.isArray(args) ? args.map((entry) => maskNamed(entry, messageNames)) : maskNamed(args, messageNames),
  };
}

// A calendar date or a clock time (2026-11-29, 29.11.2026, 07:21:16.123): no security code is
// written so, and a 3–4-digit run inside one is kept.
const DATE_OR_TIME =
  /\b(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b|\b(?:0?[1-9]|[12]\d|3[01])[./](?:0?[1-9]|1[0-2])[./](?:19|20)\d{2}\b|\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?\b/g;

/**
 * Free text a merchant or their staff wrote (a description, a refund's comment), masked for
 * keeping, showing and sending on as `maskCardData` masks a gateway's echo: card numbers however
 * written, and when the text names a CVV every 3–4-digit run in it — a code may stand anywhere
 * around its mention ("737 is the CVV", "CVV:\n737") — but those of its dates and times.
 */
export function maskFreeText(text: string): string {
  if (!THREE_DIGITS.test(text)) return text;
  const masked = maskCardNumbers(text, CARD_NUMBER_MASK);
  const named = namesCvv(masked);
  return named || masked.includes(CARD_NUMBER_MASK) ? maskCodes(masked, named) : masked;
}

/**
 * `masked` (its card numbers masked already) with its 3–4-digit runs that are a security code
 * masked: every one when the text names a CVV (`all`), else those a card dump puts after a card
 * number (`followsCardNumber`); never one inside a date or a time.
 */
function maskCodes(masked: string, all: boolean): string {
  const dates = [...masked.matchAll(DATE_OR_TIME)];
  let next = 0;
  return masked.replace(SHORT_CODE, (run: string, start: number) => {
    // Both in the text's order: the first date not ended before this run is the only one it may be in.
    while (next < dates.length && dates[next]!.index + dates[next]![0].length <= start) next += 1;
    const date = dates[next];
    if (date && start >= date.index && start + run.length <= date.index + date[0].length) return run;
    return all || followsCardNumber(masked, start) ? '[cvv]' : run;
  });
}

/** How far after a card number a short run may stand and still be read as its code. */
const CARD_DUMP_REACH = 24;
/**
 * What may stand between a card number and its code in a dump: marks, figures, spaces, and the
 * words of an expiry or a code (`exp`, `valid thru`, `code`, `CID` — American Express's name for
 * its four digits, read so only here, after a card number; Ukrainian `термін`, `до`; Russian `срок`).
 */
const CARD_DUMP_GAP = /^(?:[^\p{L}]|exp(?:iry|ires|iration)?(?:\s*date)?|valid\s*(?:thru|through|till|until)|mm|yy(?:yy)?|code|cid|термін(?:\s*дії)?|срок(?:\s*действия)?|до)*$/iu;

/**
 * Whether the 3–4-digit run at `start` follows a card number as its code does in a card dump
 * (`4242… 12/30 987`, `…|12|2030|987`, `…, exp 12/30, 987`): with no word between them but an
 * expiry's or a code's, whether or not the text says CVV. Stored, it would be a security code
 * kept; a number after another word ("…, room 1402") is the text's own. Only the reach before
 * the run is read, so a long text's every run costs the same.
 */
function followsCardNumber(masked: string, start: number): boolean {
  const before = masked.slice(Math.max(0, start - CARD_DUMP_REACH - CARD_NUMBER_MASK.length), start);
  const end = before.lastIndexOf(CARD_NUMBER_MASK);
  if (end < 0) return false;
  const gap = before.slice(end + CARD_NUMBER_MASK.length);
  return gap.length <= CARD_DUMP_REACH && CARD_DUMP_GAP.test(gap);
}

function maskText(text: string, mentionsCvv: boolean): string {
  // Most text (names, statuses, URLs' words) has no run to mask: skip the replacing.
  if (!THREE_DIGITS.test(text)) return text;
  const masked = maskCardNumbers(text, CARD_NUMBER_MASK);
  if (mentionsCvv) return masked.replace(SHORT_CODE, '[cvv]');
  // A card dump's code, unnamed, as in free text.
  return masked.includes(CARD_NUMBER_MASK) ? maskCodes(masked, false) : masked;
}

function maskIn(value: unknown, mentionsCvv: boolean): unknown {
  if (typeof value === 'string') return maskText(value, mentionsCvv);
  if (typeof value === 'number') {
    const text = String(value);
    const masked = maskText(text, mentionsCvv);
    return masked === text ? value : masked;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskIn(item, mentionsCvv));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskText(key, mentionsCvv), maskIn(item, mentionsCvv)]));
}

/** The first line of what a runtime or a caller said, 200 characters at most: what a message quotes of it. */
export function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? '').slice(0, 200);
}

/** The gateway's failure as said; a caller's abort by its reason (`Error: shutting down`), masked. */
function describeCause(cause: unknown): string {
  if (cause instanceof GatewayError) return cause.message;
  const line = maskCardData(firstLine(cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : ''));
  if (cause instanceof Error) return line ? `${cause.name}: ${line}` : cause.name;
  return line ? `aborted: ${line}` : 'aborted';
}
