/**
 * Lifecycle for client tests: one GatewayDouble per test file, emptied before each test, and
 * clients pointed at it with the test credentials.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
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
  beforeAll(async () => {
    double = await GatewayDouble.start();
  });
  afterAll(async () => {
    await double?.close();
  });
  beforeEach(() => double?.reset());
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
