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
 * event of its order is stored. One created while the ledger was away is left out: its webhooks
 * may have come and been answered 503. Several companions on one ledger each give the gateway
 * their own address: the payment's may be another's, so this one's is named as one of them.
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
  #lookedAt = Number.NEGATIVE_INFINITY;

  constructor(deps: MissingWebhooksDeps) {
    this.#deps = deps;
  }

  /** Looks, unless it did in the last ten minutes, and warns if a payment it asked about has no webhook. */
  async look(): Promise<void> {
    const { ledger, logger, clock, webhookUrl, outage } = this.#deps;
    const now = clock();
    if (now - this.#lookedAt < LOOK_EVERY_MS) return;
    this.#lookedAt = now;
    const { orders } = await ledger.listOrders({ status: 'success', createdFrom: now - LOOKED_BACK_MS, createdTo: now - SETTLED_FOR_MS, limit: SAMPLE });
    const asked = orders.filter((payment) => !outage?.downSince(payment.createdAt));
    const without: string[] = [];
    for (const payment of asked) if ((await ledger.getOrder(payment.orderId))?.events.length === 0) without.push(payment.orderId);
    if (without.length === 0) return;
    logger.warn(
      `the gateway sent no webhook for ${without.length} of the ${asked.length} payments that succeeded 5 to 30 minutes ago: if none arrives at all, it cannot deliver to the webhook address ` +
        `of the companion that took them (this one's: ${webhookUrl}). Check PAYFORM_PUBLIC_URL (of each companion on this ledger), that the gateway may reach that address, ` +
        "and that nothing in front of the companion refuses the gateway's form-encoded POST (a CSRF check, SvelteKit's among them; a firewall). " +
        'The payments are settled; what changes at the gateway later (a refund made in its portal) is learnt by webhook',
      { payments: without.length, of: asked.length, last_order_id: without[0] },
    );
  }
}
