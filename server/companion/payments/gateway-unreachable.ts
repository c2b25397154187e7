/**
 * The gateway down, busy or out of reach — worth asking again soon, and said to the operator
 * once for every call by operator/gateway-trouble.ts, not again by each flow that met it.
 */
import { GatewayUnavailableError, NetworkError, NetworkTimeoutError, OutcomeUnknownError, RateLimitError } from '@payform/gateway';

export function isGatewayUnreachable(error: unknown): boolean {
  return [NetworkError, NetworkTimeoutError, GatewayUnavailableError, RateLimitError, OutcomeUnknownError].some((kind) => error instanceof kind);
}
