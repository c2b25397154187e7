/**
 * Two reads at start that the gateway answers only for the project's own credentials: its
 * accounts' balances (401 for a wrong POS id, API key or secret; the endpoints key is not sent
 * there), then the receipt of an order that does not exist (404 — or 401 for a wrong endpoints
 * key, which every payment carries). Their outcomes are told like any call's to GatewayTrouble,
 * which says once — as the companion starts, before a customer's payment finds out — that the
 * credentials are refused, that nothing answers at the gateway's URL, or that something else
 * does (no such path, a redirect, an HTML page: GatewayTrouble reads that from the call's
 * record). So a failed read is not said here again. It never holds the start up, and moves no
 * money.
 */
import type { GatewayClient } from '@payform/gateway';

/** Each attempt's timeout: a gateway slower than that at start is worth a line anyway. */
const CHECK_TIMEOUT_MS = 10_000;

/** An order id no session can have (theirs are at most 28 characters): its receipt is always "not found". */
const NO_ORDER = 'payform-check-of-the-endpoints-key';

/** Reads the balances and a receipt once; `signal` stops it when the companion closes first. */
export async function checkGateway(gateway: GatewayClient, signal: AbortSignal): Promise<void> {
  const options = { signal, timeoutMs: CHECK_TIMEOUT_MS };
  // Its failure is GatewayTrouble's to say; a receipt read after it would only repeat it.
  if (!(await gateway.balances.listAccounts(options).then(() => true, () => false))) return;
  await gateway.receipts.forOrder(NO_ORDER, { format: 'pdf' }, options).catch(() => undefined);
}
