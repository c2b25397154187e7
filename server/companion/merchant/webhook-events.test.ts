// The merchant API over the gateway's events that apply to nothing in the ledger: what no order
// shows, listed for a person — through the real webhook route, the real sandbox and SQLite.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testProjectCredentials } from '@payform/gateway/testing';
import { webhookForm } from '@payform/gateway';
import { createStack } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const { apiSecret, posId } = testProjectCredentials({});
let stack: Stack;
beforeEach(async () => {
  stack = await createStack();
});
afterEach(async () => {
  await stack.close();
});

/** A correctly signed purchase event, as the gateway posts it, for any order id. */
async function postEvent(fields: Record<string, unknown>): Promise<Json> {
  const event = {
    payment_id: '0b6f5a7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
    pos_id: posId,
    mode: 'direct',
    method: 'purchase',
    amount: 12.5,
    currency: 'UAH',
    status: 'success',
    status_code: '1000',
    cc_mask: '424242******4242',
    created_at: '2030-01-15T09:30:00.000',
    ...fields,
  };
  const response = await stack.request('POST', '/webhooks/gateway', {
    body: new URLSearchParams({ ...webhookForm(event, apiSecret) }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(response.status).toBe(200);
  return response.json();
}

const list = (query = '', status = 200) => stack.json('GET', `/api/webhook-events${query}`, status, { admin: true });
const orderIds = (page: Json) => page.events.map((event: Json) => event.order_id);

describe('GET /api/webhook-events', () => {
  it('lists an event for an order this ledger does not know, as unmatched; an applied one is not listed', async () => {
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    await stack.settleWebhooks();
    expect((await stack.ledger.getOrder(session.order_id))?.events).toMatchObject([{ outcome: 'applied' }]);

    const answer = await postEvent({ order_id: 'other-shop-17', payment_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', cc_token: 'tok_9f8e7d6c5b4a' });
    expect(answer).toMatchObject({ received: true, outcome: 'unmatched' });

    const page = await list();
    expect(page).toEqual({
      events: [{
        id: expect.stringMatching(/^[0-9a-f]{64}$/),
        method: 'purchase',
        status: 'success',
        order_id: 'other-shop-17',
        operation_id: null,
        payment_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
        amount: 1250,
        currency: 'UAH',
        outcome: 'unmatched',
        received_at: expect.any(String),
        applied_at: null,
        reviewed_at: null,
        tried_at: expect.any(String),
        event: expect.objectContaining({ order_id: 'other-shop-17', amount: 1250, cc_mask: '424242******4242', cc_token: '[redacted]' }),
      }],
      next_cursor: null,
    });
    expect(Date.parse(page.events[0].received_at)).not.toBeNaN();
    expect(JSON.stringify(page)).not.toContain('tok_9f8e7d6c5b4a');
    expect(orderIds(await list('?outcome=unmatched'))).toEqual(['other-shop-17']);
    expect((await list('?outcome=parked')).events).toEqual([]);
  });

  it('marks an unmatched event reviewed: it leaves the list and the gauge; only an unmatched one, only by its id', async () => {
    await postEvent({ order_id: 'other-shop-18' });
    await postEvent({ order_id: 'other-shop-19', payment_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f' });
    const [newest, older] = (await list()).events;
    const review = (id: string, status = 200) => stack.json('POST', `/api/webhook-events/${id}/review`, status, { admin: true, body: {} });
    expect(await review(older.id)).toEqual({ event: expect.objectContaining({ id: older.id, outcome: 'unmatched', applied_at: null, reviewed_at: expect.any(String) }) });
    expect(orderIds(await list())).toEqual([newest.order_id]);
    expect(await stack.ledger.backlog()).toMatchObject({ unmatchedEvents: 1 });
    expect(stack.logs.filter((line) => line.includes('an unmatched webhook event was marked reviewed'))).toEqual([expect.stringContaining(`"event_id":"${older.id}"`)]);
    // Again: the same answer. An applied event, or no event, is refused by name.
    expect((await review(older.id)).event.reviewed_at).toBe((await review(older.id)).event.reviewed_at);
    const session = await stack.openSession();
    await stack.pay(session.id);
    await stack.settleWebhooks();
    const [applied] = (await stack.ledger.getOrder(session.order_id))!.events;
    expect((await review(applied!.id, 409)).error.code).toBe('event_not_unmatched');
    expect((await review('f'.repeat(64), 404)).error.code).toBe('event_not_found');
    expect((await review('not-an-id', 404)).error.code).toBe('event_not_found');
    expect((await stack.json('POST', `/api/webhook-events/${newest.id}/review`, 401, { body: {} })).error.code).toBe('unauthorized');
  });

  it('refuses an unknown field in a review, as every route does, and leaves the event waiting', async () => {
    await postEvent({ order_id: 'other-shop-20' });
    const [event] = (await list()).events;
    const refused = await stack.json('POST', `/api/webhook-events/${event.id}/review`, 400, { admin: true, body: { x: 1 } });
    expect(refused.error).toMatchObject({ code: 'invalid_request', fields: { x: 'is not allowed' } });
    expect(orderIds(await list())).toEqual(['other-shop-20']);
    // No body at all is `{}`, as on the other operations.
    expect((await stack.json('POST', `/api/webhook-events/${event.id}/review`, 200, { admin: true })).event.reviewed_at).toEqual(expect.any(String));
  });

  it('pages newest first with a cursor', async () => {
    for (const orderId of ['stray-1', 'stray-2', 'stray-3']) {
      await postEvent({ order_id: orderId });
      await new Promise((resolve) => setTimeout(resolve, 2)); // distinct received times
    }
    const first = await list('?limit=2');
    expect(orderIds(first)).toEqual(['stray-3', 'stray-2']);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list(`?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(orderIds(second)).toEqual(['stray-1']);
    expect(second.next_cursor).toBeNull();
  });

  it('lists a refund event waiting for its reservation as parked, until the reservation settles', async () => {
    const session = await stack.openSession();
    expect((await (await stack.pay(session.id)).json()).status).toBe('success');
    // The companion reserved a refund and has not heard back yet; the gateway's event beats the answer.
    const reservation = await stack.ledger.reserveOperation(session.order_id, { kind: 'refund', amount: 300 });
    await postEvent({ method: 'refund', order_id: session.order_id, operation_id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f', amount: 3, status_code: '1004' });
    const parked = await list('?outcome=parked');
    expect(parked.events).toMatchObject([{ method: 'refund', order_id: session.order_id, operation_id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f', amount: 300, currency: 'UAH', outcome: 'parked' }]);
    expect((await list()).events).toEqual([]);
    await stack.ledger.settleOperation(reservation.id, { status: 'pending', operationId: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f' });
    expect((await list('?outcome=parked')).events).toEqual([]);
  });

  it('shows no amount rather than failing when the event names one too long to write exactly', async () => {
    await postEvent({ order_id: 'huge-1', amount: '12345678901234.56' });
    expect((await list()).events).toMatchObject([{ order_id: 'huge-1', amount: null, currency: 'UAH' }]);
  });

  it('needs the admin token', async () => {
    const response = await stack.request('GET', '/api/webhook-events');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('refuses a bad query with 400 naming the field', async () => {
    for (const [query, field] of [
      ['?outcome=applied', 'outcome'],
      ['?outcome=', 'outcome'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=ten', 'limit'],
      ['?cursor=bogus', 'cursor'],
      ['?cursor=', 'cursor'],
      ['?status=success', 'status'],
    ] as const) {
      const answer = await list(query, 400);
      expect(answer.error.code, query).toBe('invalid_request');
      expect(Object.keys(answer.error.fields), query).toEqual([field]);
    }
  });
});
