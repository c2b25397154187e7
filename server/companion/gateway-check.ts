/**
 * Two reads at start that the gateway answers only for the project's own credentials: its
 * accounts' balances (401 for a wrong POS id, API key or secret; the endpoints key is not sent
 * there), then the receipt of an order that does not exist (404 — or 401 for a wrong endpoints
 * key, which every payment carries). Their outcomes are told like any call's to GatewayTrouble,
 * which says once — as the companion starts, before a customer's payment finds out — that the
 * credentials are refused, that nothing answers at the gateway's URL, or that something else
 * does (no such path, a redirect, an HTML page: GatewayTrouble reads that from the call's
 * record). So a failed read is not said here again — but for an answer of the right kind that
 * is not the gateway's shape (another JSON service at that address: `200 {}`), which no call's
 * record shows, and which would leave every payment's outcome unknown. It never holds the start
 * up, and moves no money.
 */
import { UnexpectedResponseError } from '@payform/gateway';
import type { GatewayClient } from '@payform/gateway';
import type { Logger } from './log/logger.js';

/** Each attempt's timeout: a gateway slower than that at start is worth a line anyway. */
const CHECK_TIMEOUT_MS = 10_000;

/** An order id no session can have (theirs are at most 28 characters): its receipt is always "not found". */
const NO_ORDER = 'payform-check-of-the-endpoints-key';

/** Reads the balances and a receipt once; `signal` stops it when the companion closes first. */
export async function checkGateway(gateway: GatewayClient, baseUrl: string, logger: Logger, signal: AbortSignal): Promise<void> {
  const options = { signal, timeoutMs: CHECK_TIMEOUT_MS };
  // Its failure is GatewayTrouble's to say; a receipt read after it would only repeat it.
  const read = await gateway.balances.listAccounts(options).then(
    () => true,
    (error: unknown) => {
      // JSON of another shape: an HTML page or a redirect there is GatewayTrouble's, from the call's record.
      const answered = error instanceof UnexpectedResponseError && error.fields.length > 0;
      if (answered) {
        logger.error(
          `the gateway at ${baseUrl} answers, but not as the gateway does (${error.message}): payments sent there would end with their outcome unknown; ` +
            "set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to the gateway's API address, or to a sandbox started with `npx payform-sandbox`",
        );
      }
      return false;
    },
  );
  if (read) await gateway.receipts.forOrder(NO_ORDER, { format: 'pdf' }, options).catch(() => undefined);
}
