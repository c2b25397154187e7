import type { Transport } from '../transport.js';
import type { MerchantSector } from '../wire/payment.js';

/** What every resource of the client shares. */
export interface GatewayContext {
  readonly transport: Transport;
  readonly posId: string;
  /** Turns on the microfinance / iGaming request rules. */
  readonly merchantSector: MerchantSector | undefined;
}
