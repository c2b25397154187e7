/**
 * One read at start that the gateway answers only for the project's own credentials: its
 * accounts' balances (401 for a wrong POS id, API key or secret; the endpoints key is not sent
 * there). Its outcome is told like any call's to GatewayTrouble, which says once — as the
 * companion starts, before a customer's payment finds out — that the credentials are refused or
 * that nothing answers at the gateway's URL. It never holds the start up.
 */
import type { GatewayClient } from '@payform/gateway';

/** Each attempt's timeout: a gateway slower than that at start is worth a line anyway. */
const CHECK_TIMEOUT_MS = 10_000;

/** Reads the balances once; `signal` stops it when the companion closes first. */
export async function checkGateway(gateway: GatewayClient, signal: AbortSignal): Promise<void> {
  await gateway.balances.listAccounts({ signal, timeoutMs: CHECK_TIMEOUT_MS }).catch(() => undefined);
}
