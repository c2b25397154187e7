/**
 * Lifecycle for client tests: a GatewayDouble of its own for each test, on a new port, and
 * clients pointed at it with the test credentials. A double shared by a file's tests took the
 * late requests of the test before (an attempt that timed out on the client while the request
 * was still on its way), which consumed the next test's programmed answers on a busy machine;
 * to a closed double's port they are refused.
 */
import { afterEach, beforeEach } from 'vitest';
import { GatewayClient } from '../client.js';
import type { GatewayClientConfig } from '../client.js';
import { GatewayDouble } from './gateway-double.js';
import { POS_ID } from './samples.js';

export const CREDENTIALS = { apiKey: 'test-key', apiSecret: 'test-secret', endpointsKey: 'test-endpoints-key' } as const;

export interface DoubleContext {
  readonly gateway: GatewayDouble;
  /** A client of the double; retries wait 1–2 ms so retry tests stay quick. */
  client(overrides?: Partial<GatewayClientConfig>): GatewayClient;
}

export function useGatewayDouble(): DoubleContext {
  let double: GatewayDouble | undefined;
  beforeEach(async () => {
    double = await GatewayDouble.start();
  });
  afterEach(async () => {
    await double?.close();
    double = undefined;
  });
  const context: DoubleContext = {
    get gateway() {
      if (!double) throw new Error('the gateway double is not running');
      return double;
    },
    client: (overrides = {}) =>
      new GatewayClient({
        baseUrl: context.gateway.url,
        posId: POS_ID,
        ...CREDENTIALS,
        timeoutMs: 2_000,
        retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 50 },
        ...overrides,
      }),
  };
  return context;
}
