/**
 * `validate(target, schema)`: @hono/zod-validator with payform's reasons (the gateway's error
 * map, which never quotes a value) and the companion's envelope: 400 `invalid_request` with
 * `fields`. Validated data flows typed into the handler through `c.req.valid(target)`.
 *
 * A JSON body is read here and nowhere before: after the route's guards (admin token, pay
 * limits), which answer without waiting for it. NUL characters in it are refused first.
 */
import { zValidator } from '@hono/zod-validator';
import type { MiddlewareHandler, ValidationTargets } from 'hono';
import * as z from 'zod';
import { amountsWrittenAsDecimals, compiled, fieldIssues, fieldPath, wireErrorMap } from '@payform/gateway/wire';
import { NUL_REASON, nulRefused } from './guards.js';
import { ApiProblem, fieldReasons } from './problem.js';

export function validate<T extends z.ZodType, Where extends keyof ValidationTargets>(target: Where, schema: T) {
  const validator = zValidator(
    target,
    schema,
    (result) => {
      if (result.success) return;
      // What is named without its key (one that may be a card number) is the body's, or the query's.
      const reasons = fieldReasons(fieldIssues(result.error as unknown as z.ZodError), (field) => field || (target === 'json' ? 'body' : target));
      if (target === 'query') sayRepeated(reasons, result.data);
      throw ApiProblem.invalid(reasons);
    },
    // The library's result type is zod v3's and v4's union; the call is v4's own. Synchronous
    // (no schema here refines asynchronously), through the schema's compiled parser.
    { validationFunction: (checked, value) => compiled(checked as z.ZodType).safeParse(value, { error: wireErrorMap }) as never },
  );
  if (target !== 'json') return validator;
  const guarded: typeof validator = async (c, next) => {
    const text = await c.req.text();
    // An empty body under the JSON media type is most often a body lost on the way, and {} would
    // move everything (a full capture or refund): refused, saying what sends the defaults.
    if (JSON_WHITESPACE_ONLY.test(text) && JSON_TYPE.test(c.req.header('content-type') ?? '')) throw emptyJson();
    // One pass over the text on every request; the field is looked for only when it matches.
    if (SUSPECT_TEXT.test(text)) {
      const bad = badTextField(text);
      if (bad) throw bad;
    }
    // JSON.parse keeps the last of a key given twice (`{"amount":1,"amount":2}`), where another
    // reader of the same text (a proxy, a log) may keep the first: refused, naming the field.
    const repeated = repeatedKey(text);
    if (repeated) throw repeated;
    // JSON.parse reads an amount written 24950.000000000001, or 10.00, as a whole number:
    // refused as written, not taken for minor units nobody meant.
    const decimals = amountsWrittenAsDecimals(text);
    if (decimals.length > 0) throw ApiProblem.invalid(fieldReasons(decimals));
    return validator(c, next);
  };
  return guarded;
}

/**
 * A query parameter sent twice (`?limit=1&limit=2`) reaches the schema as a list, which it
 * refuses as "must be a string": said as what it is instead.
 */
function sayRepeated(reasons: Record<string, string>, query: unknown): void {
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (Array.isArray(value) && name in reasons) reasons[name] = `must be given once, not ${value.length} times`;
  }
}

/** A body of no bytes, or of JSON's whitespace only (RFC 8259: space, tab, line feed, carriage return). */
const JSON_WHITESPACE_ONLY = /^[ \t\n\r]*$/;
/** The media types Hono's validator parses as JSON (without one, a route reads no body: `{}`). */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
const emptyJson = () =>
  new ApiProblem(400, 'invalid_json', 'The body is empty, though Content-Type says JSON: send {} for the defaults, or no body and no Content-Type', {
    body: 'must be JSON ({} for the defaults)',
  });

/** What the body's decoding put where its bytes were not UTF-8 (U+FFFD). */
const REPLACED = '\uFFFD';

/** Half of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What may hold text no field can store: a NUL, raw or escaped; U+FFFD, put by the decoding for
 * bytes that are not UTF-8; a JSON escape of a UTF-16 surrogate (`\ud800`: a pair stands for an
 * emoji, one alone for nothing).
 */
const SUSPECT_TEXT = /\\u0000|\0|\uFFFD|\\u[dD][89a-fA-F]/;

/**
 * The field of the first string (or key) holding a NUL character — which PostgreSQL refuses —,
 * half of a surrogate pair, or what decoding put for bytes that are not UTF-8: no text can store
 * any of them as sent. Named as every refusal names it (`fieldPath`: a key that may hold a card
 * number shows as `*`); undefined when there is none. A body that is not JSON is left to the
 * validator's answer.
 */
function badTextField(text: string): ApiProblem | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text.includes('\0') ? nulRefused() : undefined;
  }
  const found = firstBadText(body, [], 0);
  // Nested deeper than any request the API takes: a NUL in it is refused without its field, and
  // the rest is the validator's to refuse (an escaped pair there may be a whole emoji).
  if (found === TOO_DEEP) return text.includes('\\u0000') || text.includes('\0') ? nulRefused() : undefined;
  if (!found) return undefined;
  const [path, reason] = found;
  return ApiProblem.invalid({ [fieldPath(path) || 'body']: reason });
}

const LONE_HALF = 'must be well-formed text (half of a surrogate pair stands alone)';
const NOT_UTF8 = 'must be UTF-8 text (bytes that are not were sent, or U+FFFD)';
/** Deeper than any request the API takes: where the search stops (a body of 8 KB nests 4,000 deep). */
const MAX_DEPTH = 16;
const TOO_DEEP = Symbol('too deep');

/** The first string (or key) no field can store, with its path; TOO_DEEP past MAX_DEPTH, where the search stops. */
function firstBadText(value: unknown, path: readonly PropertyKey[], depth: number): [path: readonly PropertyKey[], reason: string] | typeof TOO_DEEP | undefined {
  if (typeof value === 'string') {
    if (value.includes('\0')) return [path, NUL_REASON];
    if (value.includes(REPLACED)) return [path, NOT_UTF8];
    return LONE_SURROGATE.test(value) ? [path, LONE_HALF] : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    const found = firstBadText(key, at, depth) ?? firstBadText(item, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const REPEATED_REASON = 'must be given once';

/**
 * The refusal of a JSON object that gives a key twice, naming it (or, for a key that may be a
 * card number, its parent); undefined when none does or the text is not JSON (the validator
 * refuses that). One pass over the text, no recursion; JSON.parse only once a key repeats.
 */
function repeatedKey(text: string): ApiProblem | undefined {
  // Per open object its keys so far and whether a key comes next; per open array its index.
  const frames: Array<{ keys: Set<string>; key: string | undefined; keyNext: boolean } | { index: number }> = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 /* " */) {
      let end = i + 1;
      for (;;) {
        end = text.indexOf('"', end);
        if (end === -1) return undefined;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c /* \ */) slashes++;
        if (slashes % 2 === 0) break;
        end++;
      }
      const top = frames.at(-1);
      if (top && 'keys' in top && top.keyNext) {
        const raw = text.slice(i + 1, end);
        let key: string;
        try {
          key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        } catch {
          return undefined;
        }
        if (top.keys.has(key)) return repeatedProblem(text, frames, key);
        top.keys.add(key);
        top.key = key;
        top.keyNext = false;
      }
      i = end;
    } else if (code === 0x7b /* { */) {
      frames.push({ keys: new Set(), key: undefined, keyNext: true });
    } else if (code === 0x5b /* [ */) {
      frames.push({ index: 0 });
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      frames.pop();
    } else if (code === 0x2c /* , */) {
      const top = frames.at(-1);
      if (top && 'keys' in top) top.keyNext = true;
      else if (top) top.index++;
    }
  }
  return undefined;
}

function repeatedProblem(text: string, frames: ReadonlyArray<{ key: string | undefined } | { index: number }>, key: string): ApiProblem | undefined {
  try {
    JSON.parse(text);
  } catch {
    // Not JSON after all: the validator says so.
    return undefined;
  }
  const parent = frames.slice(0, -1).map((frame) => ('index' in frame ? frame.index : frame.key ?? ''));
  // A key that may be a card number is not repeated: its parent is named, as for a field not allowed.
  if (fieldPath([key]) !== key) return ApiProblem.invalid({ [fieldPath(parent) || 'body']: 'has a field that is given more than once' });
  return ApiProblem.invalid({ [fieldPath([...parent, key])]: REPEATED_REASON });
}

/** For a route that takes no query: one it was given anyway is a 400 naming it, as where queries are read (declared-input.ts). */
export const takesNoQuery = () => validate('query', z.strictObject({}));

/**
 * For a route that takes no body: no body (or `{}`) passes, a field is a 400 naming it as a route
 * with a body names one it does not take, anything not JSON is `invalid_json` (declared-input.ts).
 * A DELETE's empty body passes under a JSON Content-Type too, which many clients send on every
 * request: a DELETE never carried one. A POST's is refused as `validate` refuses it, a body most
 * likely lost on the way.
 */
export function takesNoBody(): MiddlewareHandler {
  const fields = validate('json', z.strictObject({}));
  return async (c, next) => (c.req.method === 'DELETE' && JSON_WHITESPACE_ONLY.test(await c.req.text()) ? next() : fields(c, next));
}
