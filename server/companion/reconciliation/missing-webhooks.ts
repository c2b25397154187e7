/**
 * Payments reconciliation settled from the order state though the gateway never sent a webhook
 * for them. Now and then that is a webhook late or lost on the way; every payment so is a
 * gateway that cannot reach the companion's webhook address (a wrong PAYFORM_PUBLIC_URL, a
 * firewall), which nothing else would say: payments still settle, a minute or more late, and
 * the merchant's hook hears of them late. Said at most once every ten minutes, with the count.
 * Several companions on one ledger each give the gateway their own address: the payment's may
 * be another's, so this one's is named as one of them.
 */
import type { Logger } from '../log/logger.js';

const SAID_EVERY_MS = 10 * 60_000;

export class MissingWebhooks {
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #webhookUrl: string;
  #count = 0;
  #saidAt = Number.NEGATIVE_INFINITY;

  constructor(logger: Logger, clock: () => number, webhookUrl: string) {
    this.#logger = logger;
    this.#clock = clock;
    this.#webhookUrl = webhookUrl;
  }

  /** Reconciliation settled `orderId`, whose order has no webhook event stored. */
  settledWithout(orderId: string): void {
    this.#count += 1;
    const now = this.#clock();
    if (now - this.#saidAt < SAID_EVERY_MS) return;
    this.#logger.warn(
      `reconciliation settled payments the gateway sent no webhook for: if none arrives at all, the gateway cannot reach the webhook address of the companion that took them (this one's: ${this.#webhookUrl}); ` +
        'check PAYFORM_PUBLIC_URL (of each companion on this ledger) and that the gateway may reach that address',
      { payments: this.#count, last_order_id: orderId },
    );
    this.#saidAt = now;
    this.#count = 0;
  }
}
