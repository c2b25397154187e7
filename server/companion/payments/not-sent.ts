/**
 * A call the gateway did not process, told apart from one it refused: refused credentials, rate
 * limited, no connection, or something else answering at its address. The order or operation
 * keeps why in the merchant's words — their setup's trouble, not the customer's card or the
 * order's state.
 */
import { AuthenticationError, InvalidRequestError, NotFoundError, NotTheGatewayError, RateLimitError } from '@payform/gateway';
import type { GatewayError } from '@payform/gateway';
import { NOT_SENT_REASON } from '../../ledger/index.js';

/** A 404 that is no answer of the gateway's: it writes every error as `{"message", "args"}`. */
export const foreignNotFound = (error: GatewayError): boolean => error instanceof NotFoundError && error.args === undefined;

/** The gateway read the call and said no to what it asked (its 400, or its own 404). */
export const refusedByGateway = (error: GatewayError): boolean =>
  error instanceof InvalidRequestError || (error instanceof NotFoundError && !foreignNotFound(error));

/** Why a call that was not processed was not, as the order or operation keeps it. */
export function notSentReason(error: GatewayError): string {
  if (error instanceof AuthenticationError) return `${NOT_SENT_REASON} the gateway refused the companion’s credentials`;
  if (error instanceof RateLimitError) return `${NOT_SENT_REASON} the gateway was rate limiting the companion`;
  if (error instanceof NotTheGatewayError || foreignNotFound(error)) return `${NOT_SENT_REASON} what answers at the gateway’s address is not the gateway`;
  return `${NOT_SENT_REASON} the gateway could not be reached`;
}

/** The problem a client is answered for a call not processed: a 404 of something else is the gateway away, not "not found". */
export const notSentProblemOf = (error: GatewayError): GatewayError => (foreignNotFound(error) ? new NotTheGatewayError(404, undefined) : error);
