import type { BrowserFingerprint } from './fingerprint.js';
import { readSessionView, VERSION, type CustomerField, type SessionView } from './session-view.js';

/**
 * Why talking to the companion did not give a usable answer (the `code` of `pay-error`);
 * `misconfigured`: the page is set up wrong (its `endpoint`, or an origin the companion refuses),
 * or the session is (terms the gateway project refuses, its currency among them).
 */
export type PayErrorCode = 'network' | 'server' | 'rejected' | 'rate_limited' | 'malformed' | 'unsafe_redirect' | 'misconfigured' | 'closed' | 'challenge_held';

/** `POST /api/checkout/sessions/:id/pay` — card or saved-card token, customer, fingerprint. */
export interface PayRequest {
  card: { number: string; exp_month: number; exp_year: number; cvv: string } | { token: string };
  customer?: Partial<Record<CustomerField, string>>;
  fingerprint: BrowserFingerprint;
}

export interface PayAnswer {
  status: 'success' | 'failure' | 'pending' | 'redirect';
  redirect_url?: string;
  /** Customer-safe text, for a failure. */
  message?: string;
  order_id?: string;
  payment_id?: string;
  /** With a failure: false when the session takes no more attempts. */
  retryable?: boolean;
  /** This request sent nothing: the answer is of the session's attempt already under way (another window's). */
  joined?: true;
}

export class CompanionError extends Error {
  /** The shop cannot take payments here (a session view of another version): said so, not as a retry. Set by diagnose.ts; no code in the entry. */
  declare readonly unavailable?: true;

  constructor(
    readonly code: PayErrorCode,
    /** HTTP status; 0 when no answer came. */
    readonly status = 0,
    /** Request fields the companion named in `error.fields`, as dotted paths. */
    readonly fields: string[] = [],
    /** For the developer (`misconfigured`): what was reached and what was expected. */
    readonly reason?: string,
  ) {
    super(code);
  }
}

/**
 * The companion that served this script, unless `endpoint` names another (reading import.meta
 * touches no DOM): its base path too when the script is its `<base>/widget/pay-form.js` (or the
 * one-file `pay-form.whole.js`), so a companion mounted under `/payments` needs no `endpoint`;
 * else the script's origin. A script not served over http(s) — a bundler that wrote its own
 * file's path in (Turbopack) — has none: the page's origin is asked then, and diagnose.ts names
 * it when no companion answers there.
 */
const SCRIPT_ORIGIN = /^https?:\/\/[^/]*(.*(?=\/widget\/pay-form\.(whole\.)?js$))?/.exec(import.meta.url)?.[0];

/**
 * The element a request is for: its `session`, and its `endpoint` (empty: the companion that
 * served this script). What is said to the developer names it.
 */
export type Caller = Pick<Element, 'localName'> & { readonly session: string; readonly endpoint: string };

/**
 * The companion's widget-facing API, for one checkout session: reading the session is all a page
 * needs before the form shows; paying and the hosted page (requests.ts) come later, through `call`.
 * Functions of the element, not a class: the bundle's budget has no bytes for one.
 */
export const fetchView = (element: Caller): Promise<SessionView> => call(element, '', undefined, 15_000, readSessionView);

/** How far the companion's clock is ahead of the device's (ms), as its last answer said. */
let skew = 0;

/** The time by the companion's clock: a device's may be months off, and refuse a card it takes. */
export const companionNow = (): Date => new Date(Date.now() + skew);

/** Each chunk that did not load, by its URL, and why (`unloaded`). */
const unloadedChunks: Record<string, Promise<CompanionError>> = {};

/**
 * Why a chunk of the widget did not load, worked out once a chunk. Its URL, which Chromium and
 * Firefox name in import()'s error, is asked again (Safari names none: `network`). Chromium names
 * the chunk imported also when a chunk that one imports is what failed: the build imports those
 * beside it, and gives their error first (widget/build/shared-chunks.ts). Any answer —
 * no-cors, so a 404 without CORS headers too — means its server is there and does not serve it
 * as a module: a page that serves pay-form.js without its chunks/, or will not
 * run them. The page is `misconfigured`, said once on the console by `element`, with the fix. No
 * answer is the customer offline (`network`), nothing the developer can fix: not a cached copy
 * either, which a chunk that did not load has none of. Here, not in diagnose.ts: that is a chunk too.
 */
export const unloaded = (element: Pick<Element, 'localName'>, error: unknown): Promise<CompanionError> => {
  const url = /\w+:\/\/\S+/.exec(error as string)?.[0];
  // No URL to ask (Safari), or no answer in time: the network, asked again at the next failure.
  return url ? (unloadedChunks[url] ??= fetch(url, { mode: 'no-cors', signal: AbortSignal.timeout(5e3) }).then(
    () => {
      const reason = `${url} did not load: serve every file of the build, allowed by script-src`;
      console.error(`<${element.localName}>: ${reason}`);
      return new CompanionError('misconfigured', 0, [], reason);
    },
    () => (delete unloadedChunks[url], new CompanionError('network')),
  )) : Promise.resolve(new CompanionError('network'));
};

/**
 * One request to the session's `path`, a GET unless `post` says what to send; `read` checks the
 * answer's shape. What went wrong otherwise is worked out by diagnose.ts, loaded then (timeouts
 * and dropped connections are `network`, also when it cannot load for them; `unloaded` says
 * when it cannot load for the page).
 */
export async function call<T>(element: Caller, path: string, post: RequestInit | undefined, timeout: number, read: (body: never) => T | undefined): Promise<T> {
  // A string, whatever the page set: a URL object is its address; anything else, an address
  // diagnose.ts refuses by name, not a TypeError told as the server's.
  const endpoint = `${element.endpoint || SCRIPT_ORIGIN || origin}`;
  const url = `${endpoint.replace(/\/$/, '')}/api/checkout/sessions/${encodeURIComponent(element.session)}${path}`;
  // No session to read, none asked for: diagnose.ts names the attribute, without a 404 in the console and the log first.
  // A read says the widget's version, for a companion of another to log (a query: no preflight).
  const response = element.session || post ? await fetch(post ? url : `${url}?version=${VERSION}`, { ...post, signal: AbortSignal.timeout(timeout) }).catch(() => undefined) : undefined;
  // The companion's clock, by its answer's Date: a card's expiry is judged by it, not the device's.
  skew = Date.parse(response?.headers.get('date') as string) - Date.now() || skew;
  const json = await response?.json().catch(() => undefined);
  const answer = response?.ok && read(json as never);
  if (answer) return answer;
  throw await import('./diagnose.js').then(
    (module) => module.diagnose(url, endpoint, element, response, json, !post),
    (error: unknown) => unloaded(element, error),
  );
}
