/**
 * Outcome rules for calls that move money or end a payment (create, split purchase, capture,
 * void, refund, their split forms, cancel). The gateway has no idempotency key, so such a call
 * is sent once. If it may have reached the gateway and no definite answer came back — timeout,
 * dropped connection, 5xx, unreadable answer, abort — the caller gets OutcomeUnknownError and
 * must read the order's state. Definite answers (4xx: invalid, duplicate, not found, rate
 * limited…), connections that never opened and a permanent redirect (NotTheGatewayError: what
 * answered is not the gateway) pass through unchanged: nothing happened.
 */
import {
  AuthenticationError, InvalidRequestError, NetworkError, NotFoundError, NotTheGatewayError, OutcomeUnknownError, RateLimitError,
} from './errors.js';
import type { GatewayCall, GatewayReply, Transport } from './transport.js';

/** Sends a money-moving call exactly once and reads its answer with `read`. */
export async function sendOnce<T>(
  transport: Transport,
  operation: string,
  orderId: string,
  call: GatewayCall,
  read: (reply: GatewayReply) => T,
): Promise<T> {
  try {
    return read(await transport.send(call));
  } catch (error) {
    throw nothingHappened(error) ? error : new OutcomeUnknownError(operation, orderId, error);
  }
}

function nothingHappened(error: unknown): boolean {
  return (
    error instanceof InvalidRequestError ||
    error instanceof AuthenticationError ||
    error instanceof NotFoundError ||
    error instanceof RateLimitError ||
    error instanceof NotTheGatewayError ||
    (error instanceof NetworkError && error.connectFailed)
  );
}
