// A capture, void or refund the gateway declines (HTTP 200, status failure) is reported by its own
// webhook too: the companion takes it for the operation it recorded as failed, or is still
// reserving, without an error, an unmatched event for review, or a change to its books.
import { describe, expect, it } from 'vitest';
import type { SandboxApp } from '@payform/sandbox';
import { memoryBackend, postgresBackend, withTestDatabase } from '../../ledger/testing/databases.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { eventually, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const open = stacksPerTest();

/** The gateway's limit over the reserve is lower than the companion was told (15 %): it declines what the companion allows. */
const sandbox = { projects: [{ strict: true, captureOverReservePercent: 0 }] };

async function paidAuth(stack: Stack): Promise<string> {
  const session = await stack.openSession({ method: 'auth', amount: 1010 });
  expect((await (await stack.pay(session.id)).json()).status).toBe('success');
  return session.order_id;
}

/** The sandbox's capture webhooks of the order, once each has been answered. */
async function deliveredCaptureWebhooks(stack: Stack, orderId: string): Promise<Json[]> {
  return eventually(async () => {
    const { deliveries } = await stack.control('GET', `/_sandbox/webhooks?order_id=${orderId}&method=capture`);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.map((delivery: Json) => delivery.status)).toEqual(deliveries.map(() => 'delivered'));
    return deliveries as Json[];
  });
}

const logged = (stack: Stack) => stack.logs.map((line) => JSON.parse(line) as Json);
/** The setting the gateway's refusal shows too high, said once (secondary-operations.ts): this file's premise. */
const overCaptureSaid = (entry: Json) => entry.level === 'warn' && String(entry.msg).includes('PAYFORM_CAPTURE_OVER_RESERVE_PERCENT (captureOverReservePercent) is 15, more than the gateway project allows');
const troubles = (stack: Stack) => logged(stack).filter((entry) => (entry.level === 'error' || entry.level === 'warn') && !overCaptureSaid(entry));

async function expectNothingForReview(stack: Stack): Promise<void> {
  expect((await stack.json('GET', '/api/webhook-events', 200, { admin: true })).events).toEqual([]);
  expect((await stack.json('GET', '/api/webhook-events?outcome=parked', 200, { admin: true })).events).toEqual([]);
  expect(await stack.ledger.backlog()).toMatchObject({ unmatchedEvents: 0 });
  expect(troubles(stack)).toEqual([]);
}

function describeDeclines(backend: LedgerBackend): void {
  describe(`a declined capture reported by webhook (${backend.name})`, () => {
    it('after the answer recorded it as failed: taken, nothing for review, the books as they were', async () => {
      const stack = await open({ served: true, backend, sandbox });
      const orderId = await paidAuth(stack);
      const answer = await stack.json('POST', `/api/orders/${orderId}/capture`, 200, { admin: true, body: { amount: 1100 } });
      expect(answer.operation).toMatchObject({ kind: 'capture', amount: 1100, status: 'failure', status_code: '4012', operation_id: expect.any(String) });
      const before = await stack.ledger.getOrder(orderId);
      const changes = stack.changes.length;

      const [delivery] = await deliveredCaptureWebhooks(stack, orderId);
      expect(delivery?.event).toMatchObject({ method: 'capture', operation_id: answer.operation.operation_id, status: 'failure', status_code: '4012' });
      const after = await stack.ledger.getOrder(orderId);
      expect(after?.events.filter((event) => event.method === 'capture')).toMatchObject([{ status: 'failure', operationId: answer.operation.operation_id, outcome: 'applied' }]);
      expect(after?.operations).toEqual([expect.objectContaining({ ...pick(before!.operations[0]!), status: 'failure', statusCode: '4012', amount: 1100 })]);
      expect(after?.totals).toEqual(before?.totals);
      expect(after?.payment.status).toBe('success');
      expect(stack.changes).toHaveLength(changes);
      await expectNothingForReview(stack);
      // The setting that let it through is named, once, for the operator.
      expect(logged(stack).filter(overCaptureSaid)).toEqual([expect.objectContaining({ order_id: orderId, capture_over_reserve_percent: 15 })]);
      // A capture within the gateway's limit is still made.
      expect((await stack.json('POST', `/api/orders/${orderId}/capture`, 200, { admin: true, body: { amount: 1010 } })).operation).toMatchObject({ status: 'success' });
    });

    it('before the answer is recorded, while the capture is still reserved: waits for it, then taken once', async () => {
      const held: { sandbox?: SandboxApp } = {};
      // The gateway's answer to the capture reaches the companion only once its webhook has been answered.
      const fetchAfterWebhook: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const url = input instanceof Request ? input.url : String(input);
        if (url.endsWith('/api/v1/capture')) {
          await eventually(() => expect(held.sandbox?.sandbox.gateway.webhooks.list().filter((delivery) => delivery.method === 'capture').map((delivery) => delivery.status)).toEqual(['delivered']));
        }
        return response;
      };
      const stack = await open({ served: true, backend, sandbox, gateway: { fetch: fetchAfterWebhook } });
      held.sandbox = stack.sandbox;
      const orderId = await paidAuth(stack);
      const changes = stack.changes.length;
      const answer = await stack.json('POST', `/api/orders/${orderId}/capture`, 200, { admin: true, body: { amount: 1100 } });
      expect(answer.operation).toMatchObject({ kind: 'capture', amount: 1100, status: 'failure', status_code: '4012', operation_id: expect.any(String) });

      const detail = await stack.ledger.getOrder(orderId);
      expect(detail?.events.filter((event) => event.method === 'capture')).toMatchObject([{ status: 'failure', operationId: answer.operation.operation_id, outcome: 'applied' }]);
      expect(detail?.operations).toMatchObject([{ kind: 'capture', status: 'failure', statusCode: '4012', amount: 1100, operationId: answer.operation.operation_id }]);
      expect(detail?.totals).toMatchObject({ captured: 0, refunded: 0 });
      // The decline is one change for the merchant, not two.
      expect(stack.changes.slice(changes)).toMatchObject([{ kind: 'operation', status: 'failure' }]);
      await expectNothingForReview(stack);
    });
  });
}

describeDeclines(memoryBackend);
withTestDatabase((url) => describeDeclines(postgresBackend(url)));

/** What a later delivery must leave as it was. */
function pick(operation: Json): Json {
  const { id, kind, amount, operationId, statusDescription, origin, comment } = operation;
  return { id, kind, amount, operationId, statusDescription, origin, comment };
}
