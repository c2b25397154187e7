/**
 * The gateway failing the companion's calls, as an operator should hear of it: one error when it
 * starts — no connection, an https:// URL where plain http answers or TLS fails, no answer in
 * time or a 5xx, rate limiting (429), refusing the credentials (401, 403), another server (no such path where the gateway always has one, a
 * redirect, an HTML page where the gateway answers JSON) —, a
 * reminder with the count at most once a minute while it lasts, and one line when a call is
 * answered again, with how long it lasted and how many calls failed.
 * Failing calls (a timeout, a 5xx) and rate limiting come and go: one or two, answered again at
 * the next call, are a blip the flows ride out (a payment's outcome is read back), so they are said
 * only once they last — LASTING_CALLS calls in a row, or LASTING_MS from the first. No connection,
 * TLS failing, refused credentials and another server are said at the first call.
 * A gateway that fails calls on and off (a flaky network, a balancer resetting connections)
 * begins and ends an outage at nearly every call: one whose line was said less than a minute
 * before is not said again (nor is its end), only counted, and the next line says how many failed
 * meanwhile — at most two lines a minute, where there were two for every failed call.
 * The flows' own lines, about each payment or operation, are warnings without a stack until
 * the trouble is said, then info (`paymentLineLevel`): the order ids stay in the log, the warnings do not
 * bury the one line that says what is wrong. Told of every call by `GatewayClient.onCall`;
 * the check at start (gateway-check.ts) is such a call, so trouble there is said before a
 * customer's payment meets it. `onChange` hears the trouble said (or counted quietly) begin, turn
 * into another kind, and end: the metrics' gauge of it (metrics.ts), a state from its first call.
 */
import type { GatewayCallRecord } from '@payform/gateway';
import type { Logger } from '../log/logger.js';

export const TROUBLES = ['unreachable', 'plain http', 'tls', 'failing', 'busy', 'credentials', 'endpoints key', 'elsewhere'] as const;
export type Trouble = (typeof TROUBLES)[number];

const REMINDER_INTERVAL_MS = 60_000;
/** How recent a call without the endpoints key must be for a 401 with it to be that key's. */
const KEYLESS_FRESH_MS = 60_000;
/** Failing or rate-limited calls in a row that are trouble, not a blip. */
const LASTING_CALLS = 3;
/** Or this long from the first of them. */
const LASTING_MS = 10_000;

/** Trouble that a blip can make: said only once it lasts. */
const mayPass = (trouble: Trouble) => trouble === 'failing' || trouble === 'busy';

function started(trouble: Trouble, gatewayUrl: string, record: GatewayCallRecord): string {
  switch (trouble) {
    case 'unreachable':
      // Connected, then cut before the answer: the payments may have reached it, and are read back.
      if (record.dropped) {
        return `the gateway at ${gatewayUrl} drops the companion’s connections before answering: each payment sent meanwhile waits while its outcome is read back from the gateway; check the network between them (a proxy, a firewall, a balancer’s idle timeout)`;
      }
      return `the gateway at ${gatewayUrl} cannot be reached: payments are refused until it answers; check PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) if it does not come back`;
    case 'plain http':
      return (
        `the gateway at ${gatewayUrl} speaks plain http, not https (${record.tls?.code}): set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) ` +
        `to ${gatewayUrl.replace(/^https:/, 'http:')} if it is a sandbox (npx payform-sandbox speaks plain http), or to the gateway's https address`
      );
    case 'tls':
      if (record.tls?.certificate === 'out of date') {
        return (
          `the gateway at ${gatewayUrl} cannot be reached over https: its certificate has expired or is not yet valid (${record.tls.code}), so no payment can be sent; ` +
          "check this machine's clock, and that PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) is the gateway's https address"
        );
      }
      if (record.tls?.certificate === 'other host') {
        return (
          `the gateway at ${gatewayUrl} cannot be reached over https: its certificate names other hosts (${record.tls.code}), so no payment can be sent; ` +
          "set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to a host name the certificate names"
        );
      }
      return (
        `the gateway at ${gatewayUrl} cannot be reached over https: the TLS handshake failed (${record.tls?.code}), so no payment can be sent; ` +
        "check that PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) is the gateway's https address, and, for a certificate of your own CA, set NODE_EXTRA_CA_CERTS to it"
      );
    case 'failing':
      return `the gateway at ${gatewayUrl} keeps failing its calls (no answer in time, or 5xx): payments wait for their outcome, or are refused, until it answers again`;
    case 'busy':
      return `the gateway at ${gatewayUrl} is rate limiting the companion's calls (429): payments are refused with Retry-After until it takes them again`;
    case 'elsewhere':
      if (record.outcome === MISDIRECTED) {
        return (
          `the server at ${gatewayUrl} does not serve that host name (421 Misdirected Request), so no payment can be sent: a payform sandbox answers so to a name it was not given — ` +
          "add the host to the sandbox's SANDBOX_ALLOWED_HOSTS (createSandbox's allowedHosts), or set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to an address it answers"
        );
      }
      return `what answers at ${gatewayUrl} is not the gateway (${notTheGateway(record) ?? 'it has no such path'}): set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to the gateway's address`;
    case 'credentials':
      return (
        'the gateway refuses the companion’s credentials, so no payment can be sent: check PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, ' +
        'PAYFORM_GATEWAY_API_SECRET and PAYFORM_GATEWAY_ENDPOINTS_KEY (or the gateway client’s options, mounted) against the gateway project’s' +
        gatewaySays(record)
      );
    case 'endpoints key':
      return (
        'the gateway took the companion’s POS id, API key and secret less than a minute ago but refuses its endpoints key (X-API-KEY), which every payment carries, ' +
        'so no payment can be sent: check PAYFORM_GATEWAY_ENDPOINTS_KEY (the client’s endpointsKey, mounted) against the gateway project’s — ' +
        'or, if the project’s credentials were changed just now, all four' +
        gatewaySays(record)
      );
  }
}

/**
 * What the gateway said of its refusal (the client's record of it: masked, bounded, the
 * credentials named in brackets, never quoted), which often names the one that is wrong.
 */
function gatewaySays(record: GatewayCallRecord): string {
  return record.said ? `; the gateway says: “${record.said}”` : '';
}

export class GatewayTrouble {
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #gatewayUrl: string;
  #trouble: Trouble | undefined;
  /** The trouble has been said (else it may still be a blip). */
  #told = false;
  /** A call was observed: the first (the check at start) is said whatever it meets. */
  #observed = false;
  /** When a call without the endpoints key was last answered: the POS id, API key and secret were right then. */
  #keylessTakenAt = Number.NEGATIVE_INFINITY;
  #since = 0;
  #remindedAt = 0;
  #failed = 0;
  /** The trouble under way began within a minute of the last line said: counted, not said. */
  #quiet = false;
  /** When a line of trouble (its start, a reminder) was last said, and the last start said. */
  #saidAt = Number.NEGATIVE_INFINITY;
  #saidStart: string | undefined;
  /** Failed calls of the troubles not said since that line. */
  #unsaid = 0;
  readonly #onChange: ((trouble: Trouble | undefined) => void) | undefined;

  constructor(logger: Logger, clock: () => number, gatewayUrl: string, onChange?: (trouble: Trouble | undefined) => void) {
    this.#logger = logger;
    this.#clock = clock;
    this.#gatewayUrl = gatewayUrl;
    this.#onChange = onChange;
  }

  /**
   * The level of a payment's own line about the gateway failing it (the flows', a 502's request
   * line): a warning until the trouble is said (its error line, reminders once a minute), then
   * info — a hundred warnings a minute would bury the line that says what is wrong.
   */
  get paymentLineLevel(): 'warn' | 'info' {
    // Or a line of trouble said within the minute: an order read answered between payments that
    // time out ends the trouble, and the next two payments (a blip until a third) were warnings
    // again, each carrying its error, while the one line said what was wrong.
    return this.#told || this.#clock() - this.#saidAt < REMINDER_INTERVAL_MS ? 'info' : 'warn';
  }

  observe(record: GatewayCallRecord): void {
    const { route, outcome } = record;
    const endpointsKey = provesEndpointsKey(record);
    // A call its caller gave up on says nothing of the gateway, nor does one terminal's balance
    // the gateway could not read (its 500 with a reason: that terminal's acquirer; a balancer's
    // 502–504 in front of a gateway away still counts).
    if (outcome === 'aborted' || (outcome === 500 && route === TERMINAL_READ)) return;
    let trouble = troubleOf(record);
    const now = this.#clock();
    // A 401 with the endpoints key just after a call without it was taken (the check at start
    // reads the two one after the other): that key is the one. Long after, the others may have
    // changed since; the message then names them all.
    if (trouble === 'credentials' && outcome === 401 && endpointsKey && now - this.#keylessTakenAt <= KEYLESS_FRESH_MS) trouble = 'endpoints key';
    if (trouble === undefined) {
      if (!endpointsKey) this.#keylessTakenAt = now;
      // Some other server's 404 for an order read says nothing of the gateway being back.
      if (this.#trouble === 'elsewhere' && (outcome === 404 || outcome === 405 || record.html)) return;
      // Nor does a balances read, which does not carry the endpoints key, of that key taken again.
      if (this.#trouble === 'endpoints key' && !endpointsKey) return;
      this.#observed = true;
      if (this.#told && !this.#quiet) this.#logger.warn('the gateway answers again', { was: this.#trouble, down_for_ms: now - this.#since, failed: this.#failed });
      else if (this.#trouble !== undefined) this.#logger.debug('the gateway failed a call, then answered again', { was: this.#trouble, failed: this.#failed });
      if (this.#quiet) this.#unsaid += this.#failed;
      if (this.#told) this.#onChange?.(undefined);
      this.#trouble = undefined;
      this.#told = false;
      this.#quiet = false;
      return;
    }
    const first = !this.#observed;
    this.#observed = true;
    if (trouble !== this.#trouble) {
      // Refused credentials said, then a 5xx or 429: that says nothing of them (the gateway did
      // not read them), and taken as the trouble now, the next answered read (of that payment's
      // outcome) said the gateway answers again while every payment was still refused.
      if (this.#told && (this.#trouble === 'credentials' || this.#trouble === 'endpoints key') && mayPass(trouble)) {
        this.#failed += 1;
        return;
      }
      // Trouble already said that turns into another kind (no connection, then 5xx while it
      // restarts) goes on as one outage: said again as what it is now, and its end said once.
      const goesOn = this.#told;
      this.#trouble = trouble;
      if (goesOn) {
        this.#onChange?.(trouble);
        this.#failed += 1;
        if (this.#quiet) return;
        this.#remindedAt = now;
        this.#say(started(trouble, this.#gatewayUrl, record), { route, outcome, failed: this.#failed });
        return;
      }
      this.#since = now;
      this.#failed = 0;
    }
    this.#failed += 1;
    if (!this.#told) {
      // The first call of all (the check at start) has no call before it to tell a blip by.
      if (!first && mayPass(trouble) && this.#failed < LASTING_CALLS && now - this.#since < LASTING_MS) return;
      this.#told = true;
      this.#onChange?.(trouble);
      this.#remindedAt = now;
      // On and off: the same line said under a minute ago stands for this one too.
      const line = started(trouble, this.#gatewayUrl, record);
      this.#quiet = line === this.#saidStart && now - this.#saidAt < REMINDER_INTERVAL_MS;
      if (!this.#quiet) this.#say(line, { route, outcome, failed: this.#failed });
      return;
    }
    if (now - this.#remindedAt < REMINDER_INTERVAL_MS) return;
    this.#remindedAt = now;
    const fields = { was: trouble, down_for_ms: now - this.#since, failed: this.#failed, route, outcome };
    // A trouble begun quietly that lasts is said as the outage it has become.
    if (this.#quiet) this.#say(started(trouble, this.#gatewayUrl, record), fields);
    else this.#say('the gateway still fails the companion’s calls', fields, { reminder: true });
    this.#quiet = false;
  }

  /** An error line of trouble, with the failed calls of the troubles not said since the last one. */
  #say(message: string, fields: Record<string, unknown>, { reminder = false } = {}): void {
    this.#saidAt = this.#clock();
    if (!reminder) this.#saidStart = message;
    this.#logger.error(message, { ...fields, ...(this.#unsaid > 0 ? { failed_since_last_line: this.#unsaid } : {}) });
    this.#unsaid = 0;
  }
}

const TERMINAL_READ = 'GET /api/v1/balances/pos/:pos_id/terminals/:terminal_id';

/** The order-state reads: they carry the endpoints key (routes.ts), but the gateway answers them without it. */
const KEY_NOT_NEEDED = /^GET \/api\/v1\/pos\/:pos_id\/orders\/:order_id(\/:operation)?$/;

/**
 * Whether the call's answer speaks for the endpoints key: it carried the key where the gateway
 * requires it (every POST, receipts). An order-state read carries it too but is answered with a
 * wrong one, so it says only that the POS id, API key and secret are right — taken as the key's,
 * reconciliation's reads of waiting payments ended a refused key's trouble ("the gateway answers
 * again", the credentials gauge 0) while every payment was still refused. A webhook re-send
 * (`?callback=true`, the same route) does need it, but the route does not say which it was.
 */
export function provesEndpointsKey({ route, endpointsKey }: Pick<GatewayCallRecord, 'route' | 'endpointsKey'>): boolean {
  return endpointsKey && !KEY_NOT_NEEDED.test(route);
}

/** A server that does not serve the Host asked for: a proxy's or a payform sandbox's answer to a name it was not given. */
const MISDIRECTED = 421;
// Paths the gateway always has, whatever the order: a 404 or 405 there is some other server.
const ALWAYS_THERE = /^(POST \/api\/v1\/(payment|split\/purchase)|GET \/api\/v1\/balances\/pos\/:pos_id\/(accounts|terminals))$/;
/** The hosted create, whose 303 to the checkout page is the gateway's one redirect. */
const CREATES = /^POST \/api\/v1\/(payment|split\/purchase)$/;
/** The answers that may be HTML: receipts (format html) and the health check's text. */
const MAY_BE_HTML = /^GET (\/api\/v1\/pos\/:pos_id\/(orders\/:order_id|date\/:date)\/report\/receipt|\/health)$/;

/**
 * What answers a call, when the answer proves it is not the gateway: no such path where the
 * gateway always has one, a redirect (the gateway's API has none but the hosted create's 303),
 * an HTML page where the gateway answers JSON, a Host it does not serve (421) on any path.
 * Undefined when it may be the gateway. The metrics
 * count such calls as `not_gateway` (metrics.ts).
 */
export function notTheGateway({ route, outcome, location, html }: GatewayCallRecord): string | undefined {
  if (typeof outcome !== 'number') return undefined;
  if ((outcome === 404 || outcome === 405) && ALWAYS_THERE.test(route)) return 'it has no such path';
  if (outcome === MISDIRECTED) return 'it does not serve that host name: 421 Misdirected Request';
  if (outcome >= 300 && outcome < 400 && !(outcome === 303 && CREATES.test(route))) {
    return location ? `it answers HTTP ${outcome}, a redirect to ${location}` : `it answers HTTP ${outcome}, a redirect`;
  }
  if (html && !MAY_BE_HTML.test(route)) return 'it answers an HTML page';
  return undefined;
}

/** A call the gateway answered otherwise (a success, a decline, a refused field, a duplicate order id) is no trouble. */
function troubleOf(record: GatewayCallRecord): Trouble | undefined {
  const { outcome } = record;
  // A handshake that failed is the URL's scheme or a certificate, not a gateway that is away.
  if (outcome === 'network') return record.tls ? (record.tls.plainHttp ? 'plain http' : 'tls') : 'unreachable';
  if (outcome === 'aborted') return undefined;
  if (notTheGateway(record) !== undefined) return 'elsewhere';
  if (outcome === 'timeout' || outcome >= 500) return 'failing';
  if (outcome === 429) return 'busy';
  if (outcome === 401 || outcome === 403) return 'credentials';
  return undefined;
}
