// How a gateway failure is answered: a refusal in the gateway's words, never the address the
// companion asked (its path names the point of sale) in an answer a customer's browser reads.
import { describe, expect, it } from 'vitest';
import { GatewayUnavailableError, InvalidRequestError, NetworkError, NetworkTimeoutError } from '@payform/gateway';
import { gatewayProblem } from './failure-problems.js';

describe('gatewayProblem', () => {
  it('answers a refusal without a message of the gateway’s in its words, without the address asked', () => {
    const target = 'POST https://gateway.example/api/v1/pos/0f2b6c1e-6a1b-4d6e-9a63-9f1d2c3b4a5e/payment';
    const problem = gatewayProblem(new InvalidRequestError(`The gateway answered HTTP 400 to ${target}`, { status: 400, target }));
    expect(problem).toMatchObject({ status: 422, code: 'gateway_rejected' });
    expect(problem.message).toBe('The gateway refused the request: The gateway answered HTTP 400');
  });

  it('keeps the gateway’s own message whole', () => {
    const problem = gatewayProblem(new InvalidRequestError('Invalid order_currency', { status: 400, target: 'POST https://gateway.example/api/v1/payment' }));
    expect(problem.message).toBe('The gateway refused the request: Invalid order_currency');
  });

  it('says a 5xx as the gateway failing the request, and only no connection or no answer as not reached', () => {
    const failed = gatewayProblem(new GatewayUnavailableError('Internal error', { status: 500 }));
    expect(failed).toMatchObject({ status: 503, code: 'gateway_unavailable', message: 'The gateway failed the request (HTTP 500); try again shortly' });
    for (const away of [new NetworkError('connect ECONNREFUSED', { connectFailed: true }), new NetworkTimeoutError(5000)]) {
      expect(gatewayProblem(away)).toMatchObject({ status: 503, code: 'gateway_unavailable', message: 'The gateway cannot be reached; try again shortly' });
    }
  });
});
