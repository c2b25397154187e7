/**
 * Why a call to the companion gave no usable answer, worked out on demand (a chunk of its own:
 * the bundle pays nothing until something goes wrong). A page set up wrong — an `endpoint` that
 * is not the companion, a page origin the companion does not allow, a Content-Security-Policy
 * whose connect-src leaves the companion out, a server in front of it that answers CORS preflights
 * itself — is told to the developer on the console and in
 * `pay-error`'s `reason`, saying what was reached and what was expected; the customer only ever
 * sees the calm message of the code.
 */
import '../index.js'; // keeps the form's modules in one chunk under esbuild: see index.ts
import type { CheckoutElement } from './checkout-element.js';
import { CompanionError, type Caller, type PayErrorCode } from './companion.js';
import { VERSION } from './session-view.js';

// `error.fields` names fields as an object's keys, or as a list of names or of zod-like issues.
const fieldNames = (fields: unknown): string[] =>
  (Array.isArray(fields) ? fields : Object.keys(fields ?? {})).map((f) => [f?.path ?? f].flat().join('.'));

// What is said to the developer names the element that says it, `<pay-form>` or `<pay-button>`:
// `name` is its tag name.
const EXPECTED = (name: string, endpoint: string) =>
  `set <${name} endpoint> (now "${endpoint}") to the companion's address, its base path included (for example https://shop.example/payments)`;

// The companion's own answer where it has no route (server/companion/app.ts): only it says this.
const NO_ROUTE = /^No [A-Z]+ route at this address$/;

/**
 * The companion answered at the endpoint, but takes its checkout API under another path: its
 * basePath (or where the shop's server hands it requests) and the endpoint's path disagree.
 * A companion that says its basePath (Payform-Base-Path, on its 404) gets the address to give;
 * an earlier one, the two ways to mend it — its log names the basePath that would take them.
 */
function offPath(url: string, name: string, endpoint: string, basePath: string | null): string {
  const { origin, pathname } = new URL(endpoint, location.href);
  const path = pathname.replace(/\/+$/, '');
  const there = `${url} reached the payform companion at ${origin}, but it answered HTTP 404 (no route): it has no checkout API under ${path || '/'}; `;
  if (basePath !== null) {
    const address = `${origin}${basePath}`;
    // More path after its base path (or after none, its own paths): the script's address or its API's given as the endpoint.
    const after = path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : '';
    if (after && (basePath || /^\/(widget\/[^/]+|api)$/.test(after))) return `${there}its basePath is ${basePath || 'none'}, and the endpoint has ${after} after it: set <${name} endpoint> to ${address}`;
    return `${there}its basePath is ${basePath || 'none'}: set <${name} endpoint> (now "${endpoint}") to ${address}, or, if your server hands it the requests under ${path || '/'}, set its basePath to ${path || "''"}`;
  }
  // No path: the companion has a base path (its requests reach it from the root) the endpoint leaves out.
  if (!path) return `${there}add its basePath to <${name} endpoint> (now "${endpoint}"; for example ${origin}/payments), or compose it without one — its log names the basePath`;
  return `${there}set its basePath to ${path} (the path your server hands it), or set <${name} endpoint> (now "${endpoint}") to its address with the basePath it has — its log names the basePath that would take these requests`;
}

/**
 * What was said to the developer of a connection: once a page, not at every click that finds it
 * still down (the customer hears each).
 */
const said = new Set<string>();
function warn(text: string): void {
  if (said.has(text)) return;
  said.add(text);
  console.warn(text);
}

/**
 * The page is back from a payment (the return URL's `checkout_session`) of another session than
 * `element` shows: a page that opens a new session on every load shows the customer a fresh form
 * to pay again. Said once a page.
 */
export function returnedElsewhere(element: Caller): void {
  const query = new URLSearchParams(location.search);
  const returned = query.get('checkout_session');
  const status = query.get('status');
  // An expired or closed session takes no payment: a new one is what to show then.
  if (!returned || returned === element.session || status === 'expired' || status === 'closed') return;
  warn(
    `<${element.localName}>: this page is back from paying checkout session ${returned} (status ${status}), but shows session ${element.session}: ` +
      `on a page the customer returns to, show the session its checkout_session names rather than open another, or the customer may pay twice`,
  );
}

/** Says it to the developer; the customer sees the code's message only. */
function misconfigured(name: string, reason: string, status = 0, code: PayErrorCode = 'misconfigured'): CompanionError {
  console.error(`<${name}>: ${reason}`);
  return new CompanionError(code, status, [], reason);
}

/**
 * A `<pay-form mode>` that is no mode (`Hosted`, `redirect`): the form pays on the hosted page all
 * the same (pay-form.ts, `hosted`), never by a card the page may not mean to take. Said once a page.
 */
export function unknownMode(element: Caller & { mode?: unknown }): void {
  const { mode, localName: name } = element;
  if (mode && mode !== 'hosted' && mode !== 'direct') {
    warn(`<${name}>: mode="${mode}" is not a mode: <${name} mode> is "hosted" (the gateway's hosted page), or "direct" or left out (the card form, when the session allows it); until then the form pays on the hosted page, as with "hosted"`);
  }
}

/**
 * An element bound for the hosted page — `<pay-button>`, a `<pay-form mode>`, a form that cannot
 * pay by card — of a session whose modes leave hosted payment out: the companion would refuse
 * every click (409 `mode_not_allowed`). Told as the session is read (checkout-element.ts,
 * `settle`): the developer, what to change; the customer, that the shop cannot take the payment,
 * as `<pay-button>` tells a session without the customer's details (refusals.ts, `unasked`) — not to try again.
 */
export function hostedRefused(element: CheckoutElement): void {
  const name = element.localName;
  const { modes } = element.view!;
  const { mode } = element as { mode?: string };
  unknownMode(element);
  // What pays by card instead: a `<pay-form>`, without a mode, on a secure page.
  const card = !modes.includes('direct')
    ? ''
    : name === 'pay-button'
      ? ', or use <pay-form>, which pays by card'
      : `, or ${[mode && `leave out mode="${mode}"`, !isSecureContext && 'serve this page over https'].filter(Boolean).join(' and ')} for the form to pay by card`;
  element.phase = 'closed';
  element.fail(misconfigured(name, `this checkout session does not allow hosted payment (its modes: ${modes.join(', ') || 'none'}): open it with "hosted" in modes (POST /api/checkout/sessions)${card}`), element.t.unavailable);
}

/** Each request of a diagnosis gives up after 5 s: the customer is waiting for its verdict. */
const timeout = () => ({ signal: AbortSignal.timeout(5_000) });

// How long a request the browser refused waits for the page's policy to say it was the one: the
// `securitypolicyviolation` event comes a task after the fetch's rejection.
const POLICY_WAIT = 100;

// The directive a connect-src violation of `policy` enforced: its connect-src, else the default-src
// the browser fell back to.
function connectSrc(policy: string): string {
  const directives = policy.split(';').map((directive) => directive.trim());
  const named = (name: string) => directives.find((directive) => directive.split(/\s+/)[0]!.toLowerCase() === name);
  const own = named('connect-src');
  if (own) return `its connect-src (now "${own}")`;
  const fallback = named('default-src');
  return fallback ? `a connect-src (it has none, so its "${fallback}" applies)` : 'its connect-src';
}

const originOf = (uri: string): string | undefined => {
  try {
    return new URL(uri).origin;
  } catch {
    return undefined;
  }
};

/**
 * `url` (at `origin`) asked once more: 'answered', the error's name, or the page's own
 * Content-Security-Policy refusing the request, which the browser tells only in a
 * `securitypolicyviolation` event (the fetch rejects with a TypeError, as when the network is
 * down). Listened for from before the request; a TypeError waits a little for the event, which
 * comes after it.
 */
async function askAgain(url: string, origin: string, init: RequestInit = {}): Promise<string | SecurityPolicyViolationEvent> {
  let refused!: (event: SecurityPolicyViolationEvent) => void;
  const violation = new Promise<SecurityPolicyViolationEvent>((resolve) => (refused = resolve));
  const listener = (event: SecurityPolicyViolationEvent) => {
    if (event.effectiveDirective === 'connect-src' && event.disposition === 'enforce' && originOf(event.blockedURI) === origin) refused(event);
  };
  document.addEventListener('securitypolicyviolation', listener);
  try {
    const outcome = await fetch(url, { ...init, ...timeout() }).then(() => 'answered', (error: Error) => error.name);
    if (outcome !== 'TypeError') return outcome;
    return await Promise.race([violation, new Promise<string>((resolve) => setTimeout(resolve, POLICY_WAIT, outcome))]);
  } finally {
    document.removeEventListener('securitypolicyviolation', listener);
  }
}

/**
 * The page's origin as its requests carry it: `self.origin`, not `location.origin`, which is its
 * URL's — a page in an iframe sandboxed without allow-same-origin keeps its URL's origin there,
 * but its requests carry `Origin: null`.
 */
const pageOrigin = (): string => self.origin;

/**
 * Why a page of no origin (`null`) cannot be allowed, and the fix; undefined for a page with one.
 * No setting of the companion (or of a gateway project) can allow `null`: a page opened from
 * file://, or sandboxed — in an iframe, or by its own Content-Security-Policy — without
 * allow-same-origin.
 */
function originless(): string | undefined {
  if (pageOrigin() !== 'null') return undefined;
  if (location.protocol === 'file:') return 'this page, opened from file://, has no origin to allow: serve it over http(s)';
  const [where, fix] =
    self !== top
      ? ['in an iframe whose sandbox attribute leaves out allow-same-origin', "add allow-same-origin to the iframe's sandbox attribute (or load the form outside the sandboxed iframe)"]
      : ['under a Content-Security-Policy sandbox without allow-same-origin', "add allow-same-origin to the policy's sandbox directive"];
  return `this page runs ${where}, so its requests carry no origin (Origin: null) that can be allowed: ${fix}`;
}

/**
 * Whether `url` answers this page from the network (a cached copy proves nothing: offline, the
 * script this page loaded still reads as there): with an answer it may read, or, `opaque`, with
 * any answer at all (a no-cors request: no CORS headers needed, nor an origin sent).
 */
const answers = (url: string, opaque?: boolean): Promise<boolean> =>
  fetch(url, { ...timeout(), cache: 'no-store', mode: opaque ? 'no-cors' : 'cors' }).then(
    () => true,
    () => false,
  );

/**
 * A request that got no answer the page may read. Asked once more first: a connection that
 * dropped, or a companion too slow to answer, is not a page set up wrong, and the customer may
 * try again; a request the page's own Content-Security-Policy refused is (see askAgain). Refused
 * again, at once: the companion serves its bundle to every origin, so when that is readable at
 * the endpoint, the companion is up. Whether it got this request and refused this page's origin
 * (CORS: only another origin than its own can be refused, and a page of no origin, `null`,
 * always is another), or the request never got an answer — blocked by the browser or an
 * extension (a privacy or ad blocker, which blocks by address), nothing answering at that path —
 * a no-cors request to a path under the one asked tells: no route there, so the companion
 * answers its no-route 404 to any page (its answers of the API itself, resources of its own
 * origin only, no no-cors request may have), and what blocks the address asked blocks that one
 * too. Neither up: a no-cors request to the address asked tells whether anything answered at
 * all — some other server, sending no CORS headers, is at the endpoint.
 */
async function unanswered(url: string, endpoint: string, name: string): Promise<CompanionError> {
  const origin = pageOrigin();
  const reached = new URL(url, location.href).origin;
  const again = await askAgain(url, reached);
  if (typeof again !== 'string') {
    return misconfigured(name, `this page's Content-Security-Policy refused the request to ${url}: add ${reached}, where <${name} endpoint> points, to ${connectSrc(again.originalPolicy)}`);
  }
  if (again !== 'TypeError') {
    warn(`<${name}>: the companion at ${endpoint} ${again === 'answered' ? 'answered only when asked again: the connection dropped' : 'is slow to answer'}`);
    return new CompanionError('network');
  }
  // The page's own origin needs no CORS, so nothing of it is refused as another origin's would be.
  const other = reached !== origin;
  const [companion, here] = other ? await Promise.all([answers(`${endpoint.replace(/\/$/, '')}/widget/pay-form.js`), answers(`${url}/probe`, true)]) : [];
  if (companion && here) {
    return misconfigured(name, `the companion at ${endpoint} refused this page's origin ${origin}: ${originless() ?? `add ${origin} to its PAYFORM_ALLOWED_ORIGINS (allowedOrigins)`}`);
  }
  if (companion) {
    warn(
      `<${name}>: the companion at ${endpoint} could not be reached from this page at ${url}, though it serves the page its script: ` +
        'blocked by the browser or an extension (a privacy or ad blocker), or nothing answers at that path (a proxy in front of the companion that passes on its script only)',
    );
    return new CompanionError('network');
  }
  if (other && (await answers(url, true))) return misconfigured(name, `${url} answered, but not as the payform companion (no CORS headers): ${EXPECTED(name, endpoint)}`);
  // Nothing answers: the customer's connection, a policy the browser did not name in time, or an
  // endpoint where no companion runs. The customer may try again; the developer is told where
  // the widget looked.
  warn(`<${name}>: nothing answered at ${endpoint}: if the connection is up, allow ${reached} in the page's Content-Security-Policy connect-src, or set <${name} endpoint> to where the payform companion runs`);
  return new CompanionError('network');
}

/**
 * Why the browser refused the page the gateway's tokenizer's answer (its fetch failed), for the
 * developer: `error` when the page is set up wrong — its Content-Security-Policy refused the
 * request, or the tokenizer is up (a no-cors request reaches it) but refuses this page's origin
 * the CORS headers of an unsigned POST, which it answers any origin it takes; `warning` when it
 * answers now (the connection dropped) or nothing answers, as when the network is down.
 */
export async function tokenizerUnanswered(url: string): Promise<{ readonly error: boolean; readonly why: string }> {
  const reached = new URL(url).origin;
  // Preflighted, as the tokenize request is; refused for its missing signature, with CORS headers.
  const again = await askAgain(url, reached, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (typeof again !== 'string') return { error: true, why: `this page's Content-Security-Policy refused the request: add ${reached} to ${connectSrc(again.originalPolicy)}` };
  if (again !== 'TypeError') return { error: false, why: 'it answered when asked again: the connection dropped' };
  if (await answers(url, true)) {
    const fix = originless();
    return { error: true, why: fix ? `it takes no page without an origin: ${fix}` : `it does not take this page's origin, ${pageOrigin()}: add it to the gateway project's widget origins (the sandbox's: widget_origins in its projects file)` };
  }
  return { error: false, why: `nothing answered: if the network is up, allow ${reached} in the page's Content-Security-Policy connect-src` };
}

/**
 * A payment's POST (or the hosted page's) that got no answer: it may have gone through, unless the
 * browser never sent it. A POST of JSON is preflighted (OPTIONS) on another origin than the page's,
 * and a server in front of the companion that answers OPTIONS itself, without CORS headers, fails
 * every one (Next.js does, for a route handler that does not export OPTIONS). Told apart by reading
 * the session twice at once: plainly, as the element does, and with the POST's JSON content type,
 * which is preflighted as the POST was (GET and POST are never refused by method). Only the
 * preflighted read failing, on a session still open to pay, means the payment was never sent.
 */
async function unsent(url: string, endpoint: string, name: string): Promise<CompanionError> {
  const session = url.slice(0, url.lastIndexOf('/'));
  // The page's own origin: nothing is preflighted.
  if (new URL(session, location.href).origin === pageOrigin()) return new CompanionError('network');
  const read = (headers?: HeadersInit) => fetch(session, { headers, ...timeout() });
  const [preflighted, status] = await Promise.all([
    read({ 'content-type': 'application/json' }).then(() => 'answered', (error: Error) => error.name),
    read().then((response) => response.json()).then((view: { status?: unknown }) => view?.status, () => undefined),
  ]);
  if (preflighted !== 'TypeError' || (status !== 'open' && status !== 'failure')) return new CompanionError('network');
  return misconfigured(name, `the companion at ${endpoint} does not answer CORS preflights (OPTIONS), so this page's browser never sent the payment (a POST of JSON): hand OPTIONS requests to it as well (Next.js: export OPTIONS from the route handler)`);
}

/**
 * The version of the session view `body` is, when this widget reads no view of it: `''` for a
 * view without one, as a 0.2 companion's and earlier ones' are. Anything but a session view (no
 * id, status and amount) is undefined: another server's JSON is no view of another version.
 */
function otherVersion(body: unknown): string | undefined {
  const view = body as Partial<Record<'id' | 'status' | 'amount' | 'version', unknown>> | undefined;
  if (typeof view?.id !== 'string' || typeof view.status !== 'string' || view.amount === undefined || view.version === VERSION) return undefined;
  return view.version === undefined ? '' : String(view.version).slice(0, 16);
}

/** Whether major.minor `version` comes before this widget's (0.10 after 0.9). */
const older = (version: string): boolean => {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [ours, ourMinor] = VERSION.split('.').map(Number) as [number, number];
  return major < ours || (major === ours && minor < ourMinor);
};

/**
 * A session view of another version than the one this widget reads (`''`: one before views said
 * theirs): 0.2's counted amounts in decimals, 0.3's in minor units, so each would show the
 * other's 100 times off. The form shows none, and cannot take payments (`unavailable`); the
 * developer hears both versions and the fix.
 */
function versionSkew(url: string, endpoint: string, name: string, version: string): CompanionError {
  const served = `${endpoint.replace(/\/$/, '')}/widget/pay-form.js`;
  const view = version
    ? `version ${version}`
    : 'no version, a payform companion 0.2’s or earlier (its amounts in decimals, where this widget reads minor units)';
  const fix = `serve this page the widget that companion serves (${served}), or ${
    !version || older(version) ? `upgrade the companion to a release whose session view is ${VERSION}` : `upgrade the page's @payform/widget to a release that reads session views of ${version}`
  }`;
  const reason = `${url} answered a session view of ${view}, but this <${name}> reads session views of version ${VERSION} only, and shows no amount it may misread: ${fix}`;
  return Object.assign(misconfigured(name, reason), { unavailable: true });
}

/**
 * The error for `response` (undefined: no answer could be read) and its parsed JSON body, to a
 * request of `element`'s to the companion at `endpoint`. `reading`: a GET of the session, where
 * a page set up wrong shows first; a payment's failed answer stays what it was (it may have been
 * paid: the element checks the session), unless the browser never sent it (unsent).
 */
export async function diagnose(url: string, endpoint: string, element: Caller, response: Response | undefined, body: unknown, reading: boolean): Promise<CompanionError> {
  const name = element.localName;
  // The element read a session it was never given (checkout-element.ts waited `sessionWait` first):
  // empty, or undefined or null as a framework's prop sets it, which the URL spells as a name. Not
  // a payment's error: it had a session, which the page may have unset since.
  if (reading && !element.session) {
    return misconfigured(name, `no checkout session was set: set <${name} session> to the id your server got from the companion's POST /api/checkout/sessions`);
  }
  // Pasted with a space or a line's end (a template's): blamed only where it broke the address
  // (a space in it, `//api` after a line's end); a browser drops what else surrounds it.
  const bare = endpoint.trim();
  if (reading && bare !== endpoint && (!URL.canParse(url, location.href) || new URL(url, location.href).pathname.includes('//'))) {
    return misconfigured(name, `endpoint "${endpoint}" has white space around it: give <${name} endpoint> without it`);
  }
  // `127.0.0.1:3000` is a path to the browser, read against the page's own address, and
  // `localhost:3000` a URL of the scheme `localhost:`, which nothing answers: neither is an address.
  if (reading && !/^(https?:)?\/\//.test(bare) && !bare.startsWith('/')) {
    return misconfigured(name, `endpoint "${endpoint}" is not an address: give <${name} endpoint> with its scheme (for example http://${endpoint})`);
  }
  if (!response) return reading ? unanswered(url, endpoint, name) : unsent(url, endpoint, name);
  const { status } = response;
  const version = reading && response.ok ? otherVersion(body) : undefined;
  if (version !== undefined) return versionSkew(url, endpoint, name, version);
  const error = (body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined)?.error;
  const code = error?.code;
  if (reading && status === 404 && code === 'not_found' && NO_ROUTE.test(String(error?.message))) {
    return misconfigured(name, offPath(url, name, endpoint, response.headers.get('payform-base-path')));
  }
  // Another server's page (the shop's 404, a single-page app's index.html), or another API's own
  // `not_found`: the endpoint is not where the checkout API is.
  const elsewhere = (status === 404 || status === 405) && (typeof code !== 'string' || code === 'not_found');
  if (reading && (elsewhere || (response.ok && body === undefined))) {
    const type = response.headers.get('content-type')?.split(';')[0] ?? 'no content type';
    return misconfigured(name, `${url} answered HTTP ${status} (${type}), not the payform companion's checkout API: ${EXPECTED(name, endpoint)}`);
  }
  if (reading && code === 'session_not_found') {
    // The customer is told the link is not valid; the developer, which attribute to look at.
    // Set from a number or another type (a property set in code), it is said as no text at all.
    const set: unknown = element.session;
    const spaced =
      typeof set !== 'string' ? ` (the one set is a ${typeof set}: set the id's text)` : set.trim() !== set ? ' (the one set has white space around it: set it without)' : '';
    const reason = `${url} answered that there is no such checkout session: set <${name} session> to the id your server got from this companion's POST /api/checkout/sessions${spaced}`;
    console.error(`<${name}>: ${reason}`);
    return new CompanionError('rejected', status, [], reason);
  }
  // The shop's server read the request's body before the companion could (a body parser mounted
  // in front of it): never a payment, and the companion's answer names the fix.
  if (code === 'body_already_read') return misconfigured(name, `${url}: ${String(error?.message)}`, status);
  // The companion would not send the customer where the gateway asked (its log says what to set):
  // an error, where a payment left pending would have the customer wait for a page never shown.
  if (code === 'unsafe_redirect') return misconfigured(name, `${url}: ${String(error?.message)}; the companion's log says which setting sends the customer nowhere`, status, code);
  // The gateway refuses the session's own terms (its currency…): refusals.ts words it (`shopSide`), and the element closes.
  if (code === 'session_refused') return new CompanionError('misconfigured', status, fieldNames(error?.fields));
  // A payment to a session the companion no longer knows (its ledger lost it): no try can pay it,
  // and the page may open another, as for one expired (outcome.ts closes the element).
  if (code === 'session_not_found') return new CompanionError('closed', status);
  // Expired by the companion's clock, not the customer's: its field says so, as after the tokenizer's refusal (CardRefused).
  if (code === 'card_expired') return Object.assign(new CompanionError('rejected', status, ['exp']), { shows: 'expired' });
  if (!response.ok) return new CompanionError(status === 429 ? 'rate_limited' : status >= 500 ? 'server' : 'rejected', status, fieldNames(error?.fields));
  return new CompanionError('malformed', status);
}
