/**
 * A currency the gateway project does not take fails every payment of every session in it, and
 * only the operator can fix that: said as an error, once per currency rather than per payment —
 * again after an hour while it lasts, so a log read later still shows it. Only the refusal path
 * comes here.
 */
import type { GatewayClient } from '@payform/gateway';
import type { Logger } from '../log/logger.js';

/** How long one line stands for a refused currency before it is said again. */
export const REFUSED_CURRENCY_REMINDER_MS = 3_600_000;

/** Per gateway client (one project), when each refused currency was last said. */
const said = new WeakMap<GatewayClient, Map<string, number>>();

export interface RefusedCurrency {
  readonly gateway: GatewayClient;
  readonly logger: Logger;
  readonly clock: () => number;
}

/** `reason`: the gateway's own words about the field, which may list the currencies the project takes. */
export function tellRefusedCurrency({ gateway, logger, clock }: RefusedCurrency, currency: string, reason: string, orderId: string): void {
  const now = clock();
  let times = said.get(gateway);
  if (!times) said.set(gateway, (times = new Map()));
  const last = times.get(currency);
  if (last !== undefined && now - last < REFUSED_CURRENCY_REMINDER_MS) return;
  times.set(currency, now);
  logger.error(
    `the gateway project does not take payments in ${currency} (the gateway: currency ${reason}): every payment of a session in ${currency} is refused, and its customer cannot fix that; open checkout sessions in a currency the project takes, or enable ${currency} for the project at the gateway`,
    { currency, order_id: orderId },
  );
}
