/**
 * Payments settled a while ago that no webhook came for. The gateway reports every change of a
 * payment's status by webhook, so now and then one missing is a webhook late or lost on the way;
 * every payment so is a gateway that cannot deliver to the companion's webhook address (a wrong
 * PAYFORM_PUBLIC_URL, a firewall, a server in front refusing its form-encoded post: SvelteKit's
 * CSRF check), which nothing else would say. Payments still settle, by their pay answer or by
 * reconciliation, but what changes at the gateway later (a refund made there) never arrives.
 *
 * Looked for by the reconciler's passes, at most once every ten minutes: the newest successful
 * payments created 5 to 30 minutes ago, a webhook's retries included, each asked whether any
 * event of its order is stored. One created while the ledger was away, or before this process
 * started, is left out: its webhooks may have come and been answered 503, or still be in the
 * gateway's retries. Several companions on one ledger each give the gateway their own address:
 * the payment's may be another's, so this one's is named as one of them.
 */
import type { Ledger } from '../../ledger/index.js';
import type { Logger } from '../log/logger.js';
import type { LedgerOutage } from '../operator/ledger-outage.js';

const MINUTE = 60_000;
const LOOK_EVERY_MS = 10 * MINUTE;
/** Long enough for a webhook's first tries: younger payments may still get theirs. */
const SETTLED_FOR_MS = 5 * MINUTE;
const LOOKED_BACK_MS = 30 * MINUTE;
/** Payments asked about in a look: enough to tell "none arrive" from one lost. */
const SAMPLE = 20;

export interface MissingWebhooksDeps {
  readonly ledger: Pick<Ledger, 'listOrders' | 'getOrder'>;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly webhookUrl: string;
  readonly outage?: Pick<LedgerOutage, 'downSince'>;
}

export class MissingWebhooks {
  readonly #deps: MissingWebhooksDeps;
  /** Webhooks the gateway sent while this process was not running may still be in its retries. */
  readonly #startedAt: number;
  #lookedAt = Number.NEGATIVE_INFINITY;

  constructor(deps: MissingWebhooksDeps) {
    this.#deps = deps;
    this.#startedAt = deps.clock();
  }

  /**
   * Looks, unless it did in the last ten minutes: warns when none of the payments it asked about
   * has a webhook, and says at info when some have none (late or lost on the way, or one of
   * several companions out of the gateway's reach).
   */
  async look(): Promise<void> {
    const { ledger, logger, clock, webhookUrl, outage } = this.#deps;
    const now = clock();
    if (now - this.#lookedAt < LOOK_EVERY_MS) return;
    this.#lookedAt = now;
    // From the epoch at most: a clock less than half an hour past it (a test's, a board that has
    // not learnt the time) would ask for a negative date, which the ledger refuses.
    const createdTo = now - SETTLED_FOR_MS;
    if (createdTo <= 0) return;
    // Verifications left out: what the gateway sends for them is not documented.
    const { orders } = await ledger.listOrders({ status: 'success', kind: 'payments', createdFrom: Math.max(0, now - LOOKED_BACK_MS), createdTo, limit: SAMPLE });
    const asked = orders.filter((payment) => payment.createdAt >= this.#startedAt && !outage?.downSince(payment.createdAt));
    const without: string[] = [];
    for (const payment of asked) if ((await ledger.getOrder(payment.orderId))?.events.length === 0) without.push(payment.orderId);
    if (without.length === 0) return;
    const fields = { payments: without.length, of: asked.length, last_order_id: without[0] };
    const counted = `the gateway sent no webhook for ${without.length} of the ${asked.length} payments that succeeded 5 to 30 minutes ago`;
    if (without.length < asked.length) {
      logger.info(`${counted}: late or lost on the way, or the webhook address of another companion on this ledger out of its reach (this one's: ${webhookUrl})`, fields);
      return;
    }
    logger.warn(
      `${counted}: it cannot deliver to the webhook address of the companion that took them (this one's: ${webhookUrl}). ` +
        'Check PAYFORM_PUBLIC_URL (of each companion on this ledger), that the gateway may reach that address, ' +
        "and that nothing in front of the companion refuses the gateway's form-encoded POST (a CSRF check, SvelteKit's among them; a firewall); " +
        'webhooks refused here for their signature are logged on their own. ' +
        'The payments are settled; what changes at the gateway later (a refund made in its portal) is learnt by webhook',
      fields,
    );
  }
}
