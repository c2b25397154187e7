/**
 * A currency the gateway project does not take fails every payment of every session in it, and
 * only the operator can fix that: said as an error, once per currency rather than per payment —
 * again after an hour while it lasts, so a log read later still shows it. Only the refusal path
 * comes here.
 */
import type { GatewayClient } from '@payform/gateway';
import { RateLimiter } from '../http/rate-limit.js';
import type { CompanionOptions } from '../config.js';
import type { Logger } from '../log/logger.js';

/** How long one line stands for a refused currency before it is said again. */
export const REFUSED_CURRENCY_REMINDER_MS = 3_600_000;

/** Per gateway client (one project): each refused currency said once a reminder's time. */
const said = new WeakMap<GatewayClient, RateLimiter>();

export interface RefusedCurrency {
  readonly gateway: GatewayClient;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly options: Pick<CompanionOptions, 'currencies'>;
}

/** `reason`: the gateway's own words about the field, which may list the currencies the project takes. */
export function tellRefusedCurrency({ gateway, logger, clock, options }: RefusedCurrency, currency: string, reason: string, orderId: string): void {
  let times = said.get(gateway);
  if (!times) said.set(gateway, (times = new RateLimiter(1, REFUSED_CURRENCY_REMINDER_MS, clock)));
  if (!times.take(currency).allowed) return;
  logger.error(
    `the gateway project does not take payments in ${currency} (the gateway: currency ${reason}): every payment of a session in ${currency} is refused, and its customer cannot fix that; ${
      options.currencies?.includes(currency)
        ? `enable ${currency} for the project at the gateway, or take it out of the currencies option (PAYFORM_CURRENCIES), which names it`
        : `open checkout sessions in a currency the project takes, or enable ${currency} for the project at the gateway; the currencies option (PAYFORM_CURRENCIES), set to the project's currencies, refuses a session in another as it opens, before a customer types a card`
    }`,
    { currency, order_id: orderId },
  );
}
