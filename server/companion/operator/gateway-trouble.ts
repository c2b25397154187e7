/**
 * The gateway failing the companion's calls, as an operator should hear of it: one error when it
 * starts — no connection, no answer in time or a 5xx, rate limiting (429), refusing the
 * credentials (401, 403), no such path where the gateway always has one (another server) —, a
 * reminder with the count at most once a minute while it lasts, and one line when a call is
 * answered again, with how long it lasted and how many calls failed.
 * The flows' own lines, about each payment or operation, stay warnings without a stack, as
 * during a database outage (ledger-outage.ts). Told of every call by `GatewayClient.onCall`;
 * the check at start (gateway-check.ts) is such a call, so trouble there is said before a
 * customer's payment meets it.
 */
import type { GatewayCallRecord } from '@payform/gateway';
import type { Logger } from '../log/logger.js';

type Trouble = 'unreachable' | 'failing' | 'busy' | 'credentials' | 'elsewhere';

const REMINDER_INTERVAL_MS = 60_000;

function started(trouble: Trouble, gatewayUrl: string): string {
  switch (trouble) {
    case 'unreachable':
      return `the gateway at ${gatewayUrl} cannot be reached: payments are refused until it answers; check PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) if it does not come back`;
    case 'failing':
      return `the gateway at ${gatewayUrl} fails its calls (no answer in time, or 5xx): payments are refused, or wait for their outcome, until it answers again`;
    case 'busy':
      return `the gateway at ${gatewayUrl} is rate limiting the companion's calls (429): payments are refused with Retry-After until it takes them again`;
    case 'elsewhere':
      return `what answers at ${gatewayUrl} is not the gateway (it has no such path): set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to the gateway's address`;
    case 'credentials':
      return (
        'the gateway refuses the companion’s credentials, so no payment can be sent: check PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, ' +
        'PAYFORM_GATEWAY_API_SECRET and PAYFORM_GATEWAY_ENDPOINTS_KEY (or the gateway client’s options, mounted) against the gateway project’s'
      );
  }
}

export class GatewayTrouble {
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #gatewayUrl: string;
  #trouble: Trouble | undefined;
  #since = 0;
  #remindedAt = 0;
  #failed = 0;

  constructor(logger: Logger, clock: () => number, gatewayUrl: string) {
    this.#logger = logger;
    this.#clock = clock;
    this.#gatewayUrl = gatewayUrl;
  }

  observe({ route, outcome }: GatewayCallRecord): void {
    // A call its caller gave up on says nothing of the gateway.
    if (outcome === 'aborted') return;
    const trouble = troubleOf(route, outcome);
    const now = this.#clock();
    if (trouble === undefined) {
      // Some other server's 404 for an order read says nothing of the gateway being back.
      if (this.#trouble === 'elsewhere' && (outcome === 404 || outcome === 405)) return;
      if (this.#trouble !== undefined) this.#logger.warn('the gateway answers again', { was: this.#trouble, down_for_ms: now - this.#since, failed: this.#failed });
      this.#trouble = undefined;
      return;
    }
    if (trouble !== this.#trouble) {
      this.#trouble = trouble;
      this.#since = this.#remindedAt = now;
      this.#failed = 1;
      this.#logger.error(started(trouble, this.#gatewayUrl), { route, outcome });
      return;
    }
    this.#failed += 1;
    if (now - this.#remindedAt < REMINDER_INTERVAL_MS) return;
    this.#remindedAt = now;
    this.#logger.error('the gateway still fails the companion’s calls', { was: trouble, down_for_ms: now - this.#since, failed: this.#failed, route, outcome });
  }
}

// Paths the gateway always has, whatever the order: a 404 or 405 there is some other server.
const ALWAYS_THERE = /^(POST \/api\/v1\/(payment|split\/purchase)|GET \/api\/v1\/balances\/pos\/:pos_id\/(accounts|terminals))$/;

/** A call the gateway answered otherwise (a success, a decline, a refused field, a duplicate order id) is no trouble. */
function troubleOf(route: string, outcome: number | 'network' | 'timeout'): Trouble | undefined {
  if (outcome === 'network') return 'unreachable';
  if ((outcome === 404 || outcome === 405) && ALWAYS_THERE.test(route)) return 'elsewhere';
  if (outcome === 'timeout' || outcome >= 500) return 'failing';
  if (outcome === 429) return 'busy';
  if (outcome === 401 || outcome === 403) return 'credentials';
  return undefined;
}
