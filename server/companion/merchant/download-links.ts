/**
 * Short-lived signed links to the merchant API's two files — the orders CSV and a day's receipts —
 * for a browser's own download manager: an `<a download>` cannot send the bearer token, and a file
 * fetched with it would sit whole in the tab's memory before being saved.
 *
 *   GET <file's route>/link?<its query>   (bearer ADMIN_TOKEN)  → { url, path, expires_at }
 *   GET /api/downloads/…?<its query>&expires=<unix s>&signature=<HMAC>   (no token: the link)
 *
 * Stateless (but for each instance's count of a link's follows, and the day's ZIP the issuing
 * instance keeps for its link, kept-downloads.ts; both in memory): the signature is an
 * HMAC-SHA256 keyed by a key derived from the admin token, so every instance behind a load
 * balancer checks what another issued, and a new token voids every link.
 * It covers the file's path and its query byte for byte (the expiry last), so a link is for one
 * file with one filter set until it expires; the query is written form-encoded, which no browser
 * re-encodes on its way back. Signed as a GET, it serves a HEAD too (Hono answers HEAD with the
 * GET route, body dropped). The token is never in the URL; the request log names the route
 * pattern only (http/request-log.ts), never a link's query — a proxy in front may log it, which
 * the minute bounds, and a filter that names a customer (an e-mail, an id) is sealed into the
 * link's `sealed` parameter, AES-256-GCM under another key of the token's, so that such a log,
 * kept past the customer's erasure, names nobody.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import * as z from 'zod';
import type { CompanionEnv } from '../context.js';
import { ApiProblem } from '../http/problem.js';
import { RateLimiter } from '../http/rate-limit.js';

/** Long enough to be followed at once, short enough to be worthless in a history or a log. */
export const LINK_LIFETIME_MS = 60_000;

/** Where the signed files are served, below the companion's root (app.ts). */
export const DOWNLOADS_PATH = '/api/downloads';

/**
 * How far ahead of this instance's clock another's may be when it issues a link. A later expiry
 * is no link issued now: a clock set ahead would otherwise make links that last its lead.
 */
const CLOCK_SKEW_MS = 60_000;

/**
 * How often an instance serves one link: a retried or resumed download, not a loop. Whoever reads
 * a link in a proxy's log would otherwise have the gateway make a day's ZIP (held whole here) as
 * often as they can ask within its minute.
 */
const LINK_FOLLOWS = 5;

/** A purpose of its own: the key signs links and nothing else. */
const KEY_PURPOSE = 'payform download link v1';
/** And another: this key seals a link's customer filters. */
const SEAL_PURPOSE = 'payform download link filters v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const DownloadLink = z.object({
  url: z.string().describe('The link, absolute (the companion’s public URL): for a browser’s navigation or `curl -OJ`, no token needed'),
  path: z.string().describe('The link below the companion’s base path (`/api/downloads/…`; mounted under `/payments`, the full path is `/payments/api/downloads/…`): `url` is the one to follow'),
  expires_at: z.iso.datetime().describe('When the link stops working (a minute after it was issued)'),
});

export const ReceiptsLink = DownloadLink.extend({
  empty: z.boolean().describe('The day has no receipt: the ZIP would hold no file'),
});

/** The query parameters a link adds to its file's own. */
export const LINK_PARAMS = {
  expires: z.string().regex(/^\d{1,12}$/, 'must be a Unix time in seconds').describe('When the link expires, in Unix seconds (signed)'),
  signature: z.string().describe('HMAC-SHA256 of the link, base64url'),
};

/** The parameter a link with customer filters adds (issueLink's `sealing`). */
export const SEALED_PARAMS = {
  sealed: z.string().optional().describe('The filters that name a customer, sealed (AES-256-GCM, base64url): only the companion reads them'),
};

const linkKey = (adminToken: string) => createHmac('sha256', adminToken).update(KEY_PURPOSE).digest();
const sealKey = (adminToken: string) => createHmac('sha256', adminToken).update(SEAL_PURPOSE).digest();

function seal(adminToken: string, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealKey(adminToken), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The filters a followed link sealed (`sealed`, its signature checked already), as the query holding them read. */
export function unsealed(c: Context<CompanionEnv>, sealed: string | undefined): Record<string, string> {
  if (sealed === undefined) return {};
  const bytes = Buffer.from(sealed, 'base64url');
  try {
    // The tag's length fixed: a shorter one would be taken, and checked by fewer bits.
    const decipher = createDecipheriv('aes-256-gcm', sealKey(c.get('services').options.adminToken), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    return Object.fromEntries(new URLSearchParams(text));
  } catch {
    throw forged('its sealed filters do not open: follow the link as it was issued');
  }
}

/** The signature of `GET <path>?<query>`: what a link is. */
const sign = (adminToken: string, unsigned: string) => createHmac('sha256', linkKey(adminToken)).update(`GET ${unsigned}`).digest();

/** The request's query as sent, without its `?`: what a link's signature is checked against, never re-encoded. */
function rawQuery(url: string): string {
  const start = url.indexOf('?');
  return start < 0 ? '' : url.slice(start + 1);
}

/**
 * The query the route read, written as a form writes it: a quote or a `#` a script sent as is
 * would reach the companion re-encoded from a browser (`%27`) and no longer match its signature,
 * or be read otherwise than signed. Parsed back, it is what the route validated. The parameters
 * named in `sealing` go sealed, in one `sealed` parameter after the others.
 */
function formQuery(c: Context<CompanionEnv>, sealing: ReadonlySet<string>): string {
  const query = new URLSearchParams();
  const hidden = new URLSearchParams();
  for (const [name, values] of Object.entries(c.req.queries())) for (const value of values) (sealing.has(name) ? hidden : query).append(name, value);
  if (hidden.size > 0) query.append('sealed', seal(c.get('services').options.adminToken, hidden.toString()));
  return query.toString();
}

/**
 * A link to the file at `path` (below the companion's root) with the query the request for the
 * link was sent with: the route validated it, so the file is served with the same filters, those
 * in `sealing` sealed (the route that serves the link reads them back with `unsealed`).
 */
export function issueLink(c: Context<CompanionEnv>, path: string, sealing: ReadonlySet<string> = new Set()): z.output<typeof DownloadLink> {
  const { options, clock } = c.get('services');
  const query = formQuery(c, sealing);
  const expires = Math.ceil((clock() + LINK_LIFETIME_MS) / 1000);
  const unsigned = `${path}?${query ? `${query}&` : ''}expires=${expires}`;
  const link = `${unsigned}&signature=${sign(options.adminToken, unsigned).toString('base64url')}`;
  return { url: `${options.publicUrl}${link}`, path: link, expires_at: new Date(expires * 1000).toISOString() };
}

/** The signed part of a link's query, and its signature: the signature comes last, after the expiry. */
const SIGNED_QUERY = /^((?:.*&)?expires=(\d{1,12}))&signature=([A-Za-z0-9_-]{1,100})$/s;

/**
 * Which link an address is (a link's `path` as issued, or the URL it was followed by), as an
 * instance keeps what is its by (kept-downloads.ts): its signature's bytes, in one spelling of the
 * four base64url allows them. Undefined for an address that carries no signature.
 */
export function linkId(address: string): string | undefined {
  const match = SIGNED_QUERY.exec(rawQuery(address));
  return match ? Buffer.from(match[3]!, 'base64url').toString('base64url') : undefined;
}

/**
 * Serves the route to a link this companion (or another with its admin token) issued for exactly
 * this path and query, until it expires; refuses anything else with 403 saying why. `pathOf`
 * names the file's path below the companion's root, whatever host or base path it is mounted at.
 */
export function requireSignedLink(pathOf: (c: Context<CompanionEnv>) => string): MiddlewareHandler<CompanionEnv> {
  // Counted per link (its signature's bytes: base64url spells each four ways), until it expires.
  let followed: RateLimiter | undefined;
  return async (c, next) => {
    const { options, clock } = c.get('services');
    const query = rawQuery(c.req.url);
    const match = SIGNED_QUERY.exec(query);
    if (!match) throw forged(unsignedReason(query));
    const [, signed, expires, given] = match as unknown as [string, string, string, string];
    const expected = sign(options.adminToken, `${pathOf(c)}?${signed}`);
    const sent = Buffer.from(given, 'base64url');
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      throw forged('its signature does not match its address (another file, other filters, or an admin token that changed since)');
    }
    const expiresAt = Number(expires) * 1000;
    if (expiresAt > clock() + LINK_LIFETIME_MS + CLOCK_SKEW_MS) {
      throw forged(`it expires later than a link issued now would (${new Date(expiresAt).toISOString()}): the clock of the instance that issued it is ahead`);
    }
    if (clock() >= expiresAt) {
      throw new ApiProblem(403, 'download_link_expired', `The download link expired at ${new Date(expiresAt).toISOString()}: links last a minute; ask for a new one (the back office does at each press)`);
    }
    followed ??= new RateLimiter(LINK_FOLLOWS, LINK_LIFETIME_MS + CLOCK_SKEW_MS, clock);
    if (!followed.take(expected.toString('base64url')).allowed) {
      throw new ApiProblem(403, 'download_link_used_up', `The download link was followed ${LINK_FOLLOWS} times already, as many as a link is: ask for a new one (the back office does at each press)`);
    }
    await next();
  };
}

/** Why a query is not a signed link's, as its reader would fix it: a link with something added is not a link missing its signature. */
function unsignedReason(query: string): string {
  const signature = /(?:^|&)signature=([^&]*)/.exec(query)?.[1];
  if (signature === undefined) return 'it carries no expiry and signature';
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(signature)) return 'its signature is damaged: follow the link as it was issued';
  if (!/&signature=[^&]*$/.test(query)) return 'something was added after its signature, or its parts were reordered: follow the link as it was issued';
  return 'its expiry is not a number of seconds right before its signature: follow the link as it was issued';
}

const forged = (reason: string) => new ApiProblem(403, 'download_link_invalid', `Not a valid download link: ${reason}. Ask for a new one with the admin token (GET <the file's route>/link)`);
