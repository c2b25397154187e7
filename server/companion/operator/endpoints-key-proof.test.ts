// A wrong endpoints key (X-API-KEY) refuses every payment, while the order-state reads — which
// carry the key, as real clients do, but which the gateway answers without it — still go through.
// Reconciliation's read of a waiting payment used to end the refusal: the log said "the gateway
// answers again" and payform_gateway_credentials_refused went to 0 (the documented alert resolved)
// while the next payment was refused again.
import { describe, expect, it } from 'vitest';
import { createLogger, memorySink } from '../log/logger.js';
import { GatewayTrouble } from './gateway-trouble.js';
import { CompanionMetrics } from './metrics.js';

const PAY = 'POST /api/v1/payment';
const BALANCES = 'GET /api/v1/balances/pos/:pos_id/accounts';
const RECEIPT = 'GET /api/v1/pos/:pos_id/orders/:order_id/report/receipt';
const ORDER = 'GET /api/v1/pos/:pos_id/orders/:order_id';
const OPERATION = 'GET /api/v1/pos/:pos_id/orders/:order_id/:operation';

/** GatewayTrouble as the check at start leaves it with a wrong endpoints key: the balances read taken, the receipt's 401 said. */
function refusedKey() {
  const memory = memorySink();
  const trouble = new GatewayTrouble(createLogger({ sink: memory.sink }), Date.now, 'https://api.gateway.example');
  trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 200, seconds: 0.1 });
  trouble.observe({ route: RECEIPT, endpointsKey: true, outcome: 401, seconds: 0.1 });
  return { trouble, lines: () => memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('a refused endpoints key', () => {
  it('is not ended by an order-state read the gateway answers without it; a payment taken ends it', () => {
    const { trouble, lines } = refusedKey();
    // Reconciliation reads a waiting payment, and an operation's state: both answered.
    trouble.observe({ route: ORDER, endpointsKey: true, outcome: 200, seconds: 0.1 });
    trouble.observe({ route: OPERATION, endpointsKey: true, outcome: 200, seconds: 0.1 });
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 401, seconds: 0.1 });
    expect(lines()).toMatchObject([{ level: 'error', msg: expect.stringMatching(/refuses its endpoints key/) }]);
    expect(lines()).toHaveLength(1);
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 200, seconds: 0.1 });
    expect(lines().at(-1)).toMatchObject({ level: 'warn', msg: 'the gateway answers again', was: 'endpoints key' });
  });

  it('is not turned into a passing 5xx by one failed payment, which the read of its outcome would end', () => {
    const { trouble, lines } = refusedKey();
    // One 503 to a payment (a blip), then the read of its outcome: no such order.
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 503, seconds: 0.1 });
    trouble.observe({ route: ORDER, endpointsKey: true, outcome: 404, seconds: 0.1 });
    expect(lines()).toMatchObject([{ level: 'error', msg: expect.stringMatching(/refuses its endpoints key/) }]);
    expect(lines()).toHaveLength(1);
  });

  it('keeps payform_gateway_credentials_refused at 1 through order-state reads, until a payment is taken', async () => {
    const metrics = new CompanionMetrics();
    const refused = async () => Number(/^payform_gateway_credentials_refused (\S+)$/m.exec(await metrics.registry.metrics())?.[1]);
    metrics.gatewayCall({ route: BALANCES, endpointsKey: false, outcome: 200, seconds: 0.1 });
    metrics.gatewayCall({ route: PAY, endpointsKey: true, outcome: 401, seconds: 0.1 });
    expect(await refused()).toBe(1);
    metrics.gatewayCall({ route: ORDER, endpointsKey: true, outcome: 200, seconds: 0.1 });
    metrics.gatewayCall({ route: OPERATION, endpointsKey: true, outcome: 404, seconds: 0.1 });
    expect(await refused()).toBe(1);
    metrics.gatewayCall({ route: PAY, endpointsKey: true, outcome: 200, seconds: 0.1 });
    expect(await refused()).toBe(0);
  });
});
