/**
 * Request guards shared by the route groups: the merchant API's bearer token, the body's media
 * type (415) and size (413, on every path), NUL characters in the address. Each answers with
 * the companion's error envelope; none reads the body.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { CompanionEnv, CompanionServices } from '../context.js';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import { isQuotedSetting, maskCardData } from '@payform/gateway';
import { fieldPath } from '@payform/gateway/wire';
import { clientKey, UNKNOWN_CLIENT } from './client-address.js';
import { idempotencyScope } from './idempotency-keys.js';
import { ApiProblem, retryAfterSeconds } from './problem.js';

/**
 * `Authorization: Bearer <ADMIN_TOKEN>`. Both sides are hashed first, so the comparison takes
 * the same time whatever the length or content of what was sent. Wrong tokens are counted per
 * client (`services.wrongAdminTokens`); past the limit that client is answered 429 until the
 * window ends, its right guess too (a 200 among 429s would tell a guesser it had found the
 * token, at full speed), and the burst is logged once. A client that sent the right token
 * lately (`services.tokenHolders`, kept in the ledger across starts and instances) still passes:
 * on localhost or behind a proxy the merchant shares an address with strangers, and none of them
 * must lock the merchant out by a few guesses — nor guess on unslowed behind it, so ten times the
 * limit locks the holder out too (`holdersCeiling`), said as an error naming the fix. The token
 * itself is at least 16 characters (config). A client whose address is not known is not counted.
 */
export function requireAdminToken(adminToken: string): MiddlewareHandler<CompanionEnv> {
  return requireBearer(adminToken, unauthorized, wrongAdminToken);
}

/**
 * `Authorization: Bearer <token>` for another token (the metrics token): its wrong guesses count
 * toward the same limit per client as the admin token's, so one token cannot be guessed at where
 * the other would be slowed.
 */
export function requireBearer(
  token: string,
  refusal: (header: string | undefined, sent: string | undefined) => ApiProblem,
  notice?: (services: CompanionServices, client: string, sent: string) => void,
): MiddlewareHandler<CompanionEnv> {
  const expected = digest(token);
  return async (c, next) => {
    const header = c.req.header('authorization');
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
    const { wrongAdminTokens, tokenHolders, options, logger, clock } = c.get('services');
    const client = clientKey(c, options.trustProxy);
    if (match?.[1] && timingSafeEqual(digest(match[1]), expected)) {
      if (client === UNKNOWN_CLIENT) return next();
      const now = clock();
      const counted = wrongAdminTokens.check(client);
      if (!counted.allowed) {
        // Past the limit a holder passes (one of before this start too: the ledger's, read as it
        // started), until the guesses beside it reach the holders' ceiling.
        if (!(tokenHolders.has(client, now) || (await tokenHolders.heldBefore(client, now)))) throw tooManyWrongTokens(counted.retryAfterMs);
        const ceiling = wrongAdminTokens.check(client, holdersCeiling(wrongAdminTokens.limit));
        if (!ceiling.allowed) throw tooManyWrongTokens(ceiling.retryAfterMs);
      }
      tokenHolders.add(client, now);
      return next();
    }
    if (match?.[1]) notice?.(c.get('services'), client, match[1]);
    // A host that passes no client address puts everyone under one key: counting there would
    // slow every caller for one guesser. The token's length stands alone then. No token at all
    // (a CORS preflight, a scanner) guesses nothing: counted, a stranger's requests without one
    // would lock out the merchant's server at a shared address before it ever held the token.
    if (client === UNKNOWN_CLIENT || !match?.[1]) throw refusal(header, match?.[1]);
    const counted = wrongAdminTokens.take(client);
    if (counted.allowed) throw refusal(header, match?.[1]);
    if (counted.justExceeded) {
      logger.warn('wrong bearer tokens (admin, metrics): client refused until the window ends', { client, retry_after_ms: counted.retryAfterMs });
    } else if (counted.count === holdersCeiling(wrongAdminTokens.limit) + 1 && tokenHolders.has(client, clock())) {
      logger.error(
        'wrong bearer tokens (admin, metrics): so many from an address that also sent the right token lately that its right token is refused too until the window ends — ' +
          'strangers share your server’s address (localhost, or a proxy PAYFORM_TRUST_PROXY does not name): name that proxy in PAYFORM_TRUST_PROXY, so that each client is counted apart',
        { client, wrong_tokens: counted.count, retry_after_ms: counted.retryAfterMs },
      );
    }
    throw tooManyWrongTokens(counted.retryAfterMs);
  };
}

/**
 * Wrong tokens in a window past which a client that sent the right one lately is refused too. A
 * stranger at its address (localhost, a proxy not trusted) guesses beside the merchant, and a 200
 * among its 429s tells it which guess was right: this bounds its guesses a window, at the cost of
 * the merchant's requests for the rest of that window once it is reached.
 */
const holdersCeiling = (limit: number): number => limit * 10;

/** The least time between two lines about requests refused for a wrong token. */
const REFUSAL_NOTICE_MS = 60_000;

/** What a wrong token's line says: who sent it, and how many were refused since the last line. */
export type WrongTokenNotice = (services: CompanionServices, fields: { readonly client: string; readonly refused: number }, sent: string) => void;

/**
 * `say` at most once a minute per companion, however many wrong tokens come (all of a companion's
 * guards of one notice share it), with how many were refused since: a caller left on another
 * token is seen in the log within a minute, however few its requests.
 */
export function saidOnceAMinute(say: WrongTokenNotice): (services: CompanionServices, client: string, sent: string) => void {
  const notices = new WeakMap<CompanionServices, { saidAt: number; unsaid: number }>();
  return (services, client, sent) => {
    let notice = notices.get(services);
    if (!notice) notices.set(services, (notice = { saidAt: -Infinity, unsaid: 0 }));
    notice.unsaid += 1;
    const now = services.clock();
    if (now - notice.saidAt < REFUSAL_NOTICE_MS) return;
    const fields = { client, refused: notice.unsaid };
    notice.saidAt = now;
    notice.unsaid = 0;
    say(services, fields, sent);
  };
}

/**
 * A shop whose server sends another token (a quoted one, the one an earlier start made up)
 * fails every checkout. A request with no token at all is a scanner's as often as not.
 * The token sent may be one another instance on this ledger started with (each start records its
 * keyed hash there): then this instance's token is the odd one — left on an older token after a
 * change made one instance after another, or started with a wrong one — and the fix is an
 * instance's restart, not the shop's server.
 */
const wrongAdminToken = saidOnceAMinute(({ logger, ledger }, fields, sent) => {
  void ledger
    .adminTokenStartedAt(idempotencyScope(sent))
    .catch(() => undefined)
    .then((startedAt) => {
      if (startedAt !== undefined) {
        logger.error(
          'merchant API request refused: the bearer token sent is the PAYFORM_ADMIN_TOKEN another companion on this ledger was started with, and this instance was given another — ' +
            'give every instance sharing the ledger the same one (restart this instance with the token your shop sends, if that is the current one)',
          { ...fields, token_started_at: new Date(startedAt).toISOString() },
        );
        return;
      }
      logger.warn(
        "merchant API request refused for a wrong admin token: if it is your shop's server, it must send PAYFORM_ADMIN_TOKEN as Authorization: Bearer <token> (a bin without PAYFORM_ADMIN_TOKEN makes a new one at every start)",
        fields,
      );
    });
});

/**
 * Says what is wrong with the header as sent — none, another scheme (the token alone, as API
 * keys often go), the token quoted (from an env file), or another token — and which token: the
 * bin makes a new one at every start when PAYFORM_ADMIN_TOKEN is unset. Only the caller's own
 * header is described, never anything of the right token.
 */
function unauthorized(header: string | undefined, token: string | undefined): ApiProblem {
  const which = 'the companion’s admin token (PAYFORM_ADMIN_TOKEN, or the one the bin printed at its latest start)';
  const message =
    header === undefined || header.trim() === ''
      ? `No Authorization header: send Authorization: Bearer <token>, with ${which}`
      : token === undefined
        ? `The Authorization header must read Bearer <token>, with ${which}`
        : isQuotedSetting(token)
          ? `The bearer token is wrapped in quotes: send ${which} without them`
          : `The bearer token is not ${which}`;
  return new ApiProblem(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer realm="payform"' });
}

/** Says how long to wait, as Retry-After does: the back office shows the message to the operator signing in. */
function tooManyWrongTokens(retryAfterMs: number): ApiProblem {
  return ApiProblem.tooMany(`Too many wrong tokens; try again in ${retryAfterSeconds(retryAfterMs)} s`, retryAfterMs);
}

/** A secret's SHA-256, which `timingSafeEqual` compares in the same time whatever was sent. */
export function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * A request that carries a body must say it is one of `mediaTypes`; one without a body passes
 * (the validator then sees `{}`), so `POST …/void` needs no body at all. So does one no route
 * takes by its method: the answer is 405 (or 404), not what its body is sent as.
 */
export function requireMediaType(...mediaTypes: string[]): MiddlewareHandler<CompanionEnv> {
  return (c, next) => {
    const problem = hasBody(c.req.raw, overHttp1(c)) ? bodyProblem(c, mediaTypes) : undefined;
    if (problem && routed(c)) throw problem;
    return next();
  };
}

/**
 * Whether a route, not only middleware, answers the request's path by its method. A handler for
 * every method (`app.all`) is told from middleware as Hono's own route helper tells them: it
 * takes no `next`.
 */
function routed(c: Context): boolean {
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  return matchedRoutes(c).some((route) => route.method === method || (route.method === 'ALL' && unwrapped(route.handler).length < 2));
}

type Handler = (...args: never[]) => unknown;

/** A sub-app's handler as written: mounted with an error handler of its own, Hono wraps it. */
function unwrapped(handler: Handler): Handler {
  const inner = (handler as Handler & { __COMPOSED_HANDLER?: Handler }).__COMPOSED_HANDLER;
  return inner ? unwrapped(inner) : handler;
}

/** Why a body cannot be read as one of `mediaTypes`: its type, its charset, its encoding. */
function bodyProblem(c: Context, mediaTypes: readonly string[]): ApiProblem | undefined {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!mediaTypes.includes(mediaType)) {
    return new ApiProblem(415, 'unsupported_media_type', `The body must be ${mediaTypes.join(' or ')} (${sentAs(mediaType)}): send it with Content-Type: ${mediaTypes[0]}`);
  }
  // JSON is read as UTF-8 whatever it says (RFC 8259 gives it no charset): an ASCII body
  // labelled Latin-1 reads the same, but UTF-16's or UTF-32's bytes would be refused as NUL
  // characters, their cause unsaid. (A webhook's form is the gateway's: taken as it comes.)
  const charset = mediaType === 'application/json' ? CHARSET.exec(c.req.header('content-type') ?? '')?.[1] : undefined;
  if (charset !== undefined && WIDE_CHARSET.test(charset)) {
    return new ApiProblem(415, 'unsupported_charset', 'The body must be UTF-8: send it with Content-Type: application/json; charset=utf-8, or with no charset', {
      'Content-Type': 'must name no charset but UTF-8',
    });
  }
  // A compressed body would be read as text, and refused for what its bytes look like.
  const encoding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    // The header's value is the client's text: not echoed.
    return new ApiProblem(415, 'unsupported_encoding', 'The body must not be encoded (Content-Encoding): send it as it is', {
      'Content-Encoding': 'is not accepted; send the body unencoded',
    });
  }
  return undefined;
}

/** The charset parameter of a Content-Type, quoted or not. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
/** Charsets whose every character takes two or four bytes: even ASCII text reads as NULs in UTF-8. */
const WIDE_CHARSET = /^(utf-?(16|32)|ucs-?[24])/i;

/** A media type as RFC 9110 spells one: only such a value is said back (the header is the client's text). */
const MEDIA_TYPE = /^[\w!#$&^.+-]{1,64}\/[\w!#$&^.+-]{1,64}$/;

/**
 * How a refused body came: a client's form encoding or text/plain is named, so the fix is plain.
 * A card number written as its subtype is masked, as anywhere the companion says something back.
 */
const sentAs = (mediaType: string): string =>
  mediaType === '' ? 'it came without a Content-Type' : MEDIA_TYPE.test(mediaType) ? `it came as ${maskCardData(mediaType)}` : 'its Content-Type is no media type';

/**
 * Whether the request came over HTTP/1 (@hono/node-server), whose framing announces every body
 * by Content-Length or Transfer-Encoding. Over HTTP/2 (a host may serve the app with
 * `http2.createSecureServer`) a body needs neither, as in a Request built in process.
 */
function overHttp1(c: Context): boolean {
  return (c.env as { incoming?: { httpVersionMajor?: unknown } } | undefined)?.incoming?.httpVersionMajor === 1;
}

/**
 * Over HTTP/1 a body is announced by Content-Length or Transfer-Encoding; over HTTP/2, or in a
 * Request built in process (app.request), one may come without either.
 */
function hasBody(request: Request, overHttp1: boolean): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const length = request.headers.get('content-length');
  if (length !== null) return length.trim() !== '0';
  if (request.headers.has('transfer-encoding')) return true;
  return !overHttp1 && request.body !== null;
}

/**
 * 413 above the limit, whether the length is declared or only found while reading. Mounted for
 * every path, so no route — an unknown one, a page, one an embedding app adds — reads an
 * unbounded body; `larger` raises the limit under path prefixes that need more (webhooks).
 */
export function limitBody(maxBytes: number, larger: Readonly<Record<string, number>> = {}): MiddlewareHandler {
  const limited = (limit: number) => ({ limit, readingStream: bodyLimit({ maxSize: limit, onError: () => { throw tooLarge(limit); } }) });
  const byPrefix = Object.entries(larger).map(([prefix, limit]) => ({ prefix, ...limited(limit) }));
  const standard = limited(maxBytes);
  return (c, next) => {
    const { limit, readingStream } = byPrefix.find(({ prefix }) => c.req.path.startsWith(prefix)) ?? standard;
    // A declared length is the body's length (HTTP framing), so the header alone decides; over
    // HTTP/1, a request that declares neither a length nor Transfer-Encoding has no body at all.
    // Asking for the body stream, as bodyLimit does, turns @hono/node-server's light request
    // into a full web Request (an AbortController and its listeners, a Headers copy, a web
    // stream): a tenth of a GET's CPU, and every later read loses the direct one.
    const headers = c.req.raw.headers;
    const length = headers.get('content-length');
    const chunked = headers.has('transfer-encoding');
    // Content-Length alone frames the body when there is no Transfer-Encoding.
    if (length !== null && !chunked && DECIMAL.test(length)) {
      if (Number(length) > limit) throw tooLarge(limit);
      return next();
    }
    if (length === null && !chunked && overHttp1(c)) return next();
    return readingStream(c, next);
  };
}

const DECIMAL = /^\s*\d+\s*$/;

function tooLarge(limit: number): ApiProblem {
  return new ApiProblem(413, 'payload_too_large', `The body must be at most ${limit} bytes`);
}

/**
 * NUL characters have no business in an id, a name or a description, and PostgreSQL cannot
 * store them: refused anywhere in the address before any handler runs. A JSON body is checked
 * where it is read, by `validate` — after the route's own guards (admin token, pay limits), so
 * a client refused by them is never waited for while it sends a body.
 */
export function refuseNulInAddress(): MiddlewareHandler<CompanionEnv> {
  return (c, next) => {
    if (NUL_IN_URL.test(c.req.url)) throw nulInAddress(c.req.url);
    return next();
  };
}

/** A NUL, raw or percent-encoded, in the text of a URL. */
const NUL_IN_URL = /%00|\0/;

/** Why a field holding a NUL is refused, in the body or the address. */
export const NUL_REASON = 'must not contain NUL characters';

export function nulRefused(): ApiProblem {
  return new ApiProblem(400, 'invalid_request', 'NUL characters are not accepted');
}

/**
 * Names where the address holds a NUL, as a field error: `path`, each query parameter by its
 * name (one that may be a card number shows as `*`, as every refusal names it), or `query` when
 * the NUL is in a parameter's name. Only a refused request pays for parsing the URL.
 */
function nulInAddress(address: string): ApiProblem {
  const url = new URL(address);
  // Without a prototype: a parameter called `__proto__` is named like any other.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  if (NUL_IN_URL.test(url.pathname)) fields.path = NUL_REASON;
  for (const [name, value] of new URLSearchParams(url.search)) {
    if (name.includes('\0')) fields.query ??= NUL_REASON;
    else if (value.includes('\0')) fields[fieldPath([name]) || 'query'] ??= NUL_REASON;
  }
  // A NUL the search parameters do not show (an escape they leave as it is): the query as a whole.
  if (Object.keys(fields).length === 0) fields.query = NUL_REASON;
  return ApiProblem.invalid(fields);
}

/**
 * Its ledger handed to another point of sale while it runs (reconciliation finds it within a
 * pass): this instance opens, pays and charges nothing more — it would take them for a gateway
 * project the ledger no longer reconciles. Its load balancer sees it not ready.
 */
export const takesPayments: MiddlewareHandler<CompanionEnv> = async (c, next) => {
  if (c.get('services').readiness.foreignLedger) {
    throw new ApiProblem(503, 'ledger_of_another_pos', 'This instance’s ledger now belongs to another point of sale; it takes no payments', undefined, { 'Retry-After': '5' });
  }
  await next();
};
