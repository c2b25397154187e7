/**
 * One read at start that the gateway answers only for the project's own credentials: its
 * accounts' balances (401 for a wrong POS id, API key or secret; the endpoints key is not sent
 * there). A companion given the wrong ones, or pointed at no gateway, says so once as it starts,
 * before a customer's payment finds out. It never holds the start up.
 */
import { AuthenticationError } from '@payform/gateway';
import type { GatewayClient } from '@payform/gateway';
import type { Logger } from './log/logger.js';

/** Each attempt's timeout: a gateway slower than that at start is worth a line anyway. */
const CHECK_TIMEOUT_MS = 10_000;

/** Reads the balances once; `signal` stops it when the companion closes first. */
export async function checkGateway(gateway: GatewayClient, baseUrl: string, logger: Logger, signal: AbortSignal): Promise<void> {
  try {
    await gateway.balances.listAccounts({ signal, timeoutMs: CHECK_TIMEOUT_MS });
  } catch (error) {
    if (signal.aborted) return;
    if (error instanceof AuthenticationError) {
      logger.error(
        'the gateway refused the companion’s credentials at start, so every payment will fail: check PAYFORM_GATEWAY_POS_ID, ' +
          'PAYFORM_GATEWAY_API_KEY and PAYFORM_GATEWAY_API_SECRET (or the gateway client’s options, mounted) against the gateway project’s',
      );
    } else {
      logger.warn(`the gateway at ${baseUrl} did not answer at start, so payments fail while it does not: check PAYFORM_GATEWAY_BASE_URL`, { err: error });
    }
  }
}
