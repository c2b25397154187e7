/**
 * The wire shapes of PUT /_sandbox/faults `shapes` (shapes.ts), in-process: each variant in the
 * answers and webhooks it touches, and nowhere else; "varied" following the seed; off by default.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD } from './shapes.js';
import { directPayment, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
let sandbox: TestSandbox;
beforeEach(() => {
  sandbox = testSandbox();
});

const shapes = async (setting: unknown, extra: Json = {}) => {
  const answer = await sandbox.control('PUT', '/_sandbox/faults', { shapes: setting, ...extra });
  expect(answer.status).toBe(200);
};
const pay = (overrides: Json = {}, card?: string) => sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, overrides, card));
const orderPath = (orderId: string) => `/api/v1/pos/${sandbox.project.posId}/orders/${orderId}`;
const target = (orderId: string) => ({ pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH' });
/** The forms an answer or event was written in, without its (random) ids. */
const formsOf = (object: unknown) => {
  const { status_code: code, created_at: created, pos_id: pos, args } = object as Json;
  const form = (value: unknown) => (value === undefined ? undefined : value === null ? 'null' : typeof value);
  return {
    status_code: form(code),
    created_at: created,
    pos_id: form(pos),
    unknown: UNKNOWN_FIELD in (object as Json),
    args: args === undefined ? undefined : Array.isArray(args) ? 'violations' : 'legacy',
  };
};
/** Every webhook received so far, once the due ones are delivered. */
const webhooks = async () => {
  await sandbox.deliver();
  return sandbox.inbox.received.map((entry) => entry.event);
};

describe('off by default', () => {
  it('answers and webhooks keep the sandbox’s own forms', async () => {
    const payment = await pay();
    const [event] = await webhooks();
    for (const object of [payment, event]) {
      expect(object).toMatchObject({ status_code: '1000', created_at: '2026-03-02T10:00:00.000', pos_id: sandbox.project.posId });
      expect(object).not.toHaveProperty(UNKNOWN_FIELD);
    }
    expect(await sandbox.postJson('/api/v1/payment', { ...directPayment(sandbox.project), amount: -1 }, 400)).toMatchObject({
      args: [{ field_name: 'amount', violation: 'must be greater than 0' }],
    });
  });
});

describe('each variant', () => {
  it('legacy_args: a 400’s field violations as {"obj.<field>": [{"msg"}]}, the body as a whole under obj; {code} bodies keep their code', async () => {
    await shapes(['legacy_args']);
    const wrong = await sandbox.postJson('/api/v1/payment', { ...directPayment(sandbox.project), amount: -1, currency: 'uah' }, 400);
    expect(wrong.args).toEqual({
      'obj.amount': [{ msg: ['must be greater than 0'] }],
      'obj.currency': [{ msg: [expect.any(String)] }],
    });
    expect(wrong.message).toMatch(/^Invalid request: /);
    const notJson = await sandbox.call('POST', '/api/v1/payment', { body: '{', headers: { 'Content-Type': 'application/json' } });
    expect(await notJson.json()).toMatchObject({ args: { obj: [{ msg: ['the body is not valid JSON'] }] } });
    const request = directPayment(sandbox.project);
    await sandbox.postJson('/api/v1/payment', request);
    expect(await sandbox.postJson('/api/v1/payment', request, 409)).toMatchObject({ args: { code: 'P-409' } });
    expect(await sandbox.getJson(orderPath('no-such-order'), 404)).toMatchObject({ args: { code: 'P-404' } });
  });

  it('legacy_args: the inspector still names each refused field', async () => {
    await shapes(['legacy_args']);
    await sandbox.postJson('/api/v1/payment', { ...directPayment(sandbox.project), amount: -1 }, 400);
    const { requests } = (await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: { notes: Json[] }[] };
    expect(requests[0]?.notes).toContainEqual(expect.objectContaining({ kind: 'refused', field: 'amount', reason: 'must be greater than 0' }));
  });

  it('numeric_status_code: status_code as a JSON number in answers, order-state reads and webhooks', async () => {
    await shapes(['numeric_status_code']);
    const payment = await pay({ method: 'auth' });
    expect(payment.status_code).toBe(1002);
    const orderId = String(payment.order_id);
    expect(await sandbox.postJson('/api/v1/capture', target(orderId))).toMatchObject({ status_code: 1000 });
    expect(await sandbox.getJson<Json[]>(orderPath(orderId))).toMatchObject([{ status_code: 1002 }, { status_code: 1000 }]);
    expect((await webhooks()).map((event) => event.status_code)).toEqual([1002, 1000]);
  });

  it('timestamps_without_fraction and timestamps_with_z, alone and together, in answers and webhooks', async () => {
    const times = async () => {
      const payment = await pay();
      const [event] = (await webhooks()).slice(-1);
      return [payment.created_at, payment.processed_at, event?.created_at, event?.processed_at];
    };
    await shapes(['timestamps_without_fraction']);
    expect(await times()).toEqual(Array(4).fill('2026-03-02T10:00:00'));
    await shapes(['timestamps_with_z']);
    expect(await times()).toEqual(Array(4).fill('2026-03-02T10:00:00.000Z'));
    await shapes(['timestamps_without_fraction', 'timestamps_with_z']);
    expect(await times()).toEqual(Array(4).fill('2026-03-02T10:00:00Z'));
    // The two-step answer's processing_time too.
    expect(await pay({ method: 'auth' })).toMatchObject({ processing_time: '2026-03-02T10:00:00Z' });
  });

  it('null_fields: a webhook’s pos_id, transaction_id, status_code and update time null; answers and the delivery list keep them', async () => {
    await shapes(['null_fields']);
    const payment = await pay();
    expect(payment).toMatchObject({ pos_id: sandbox.project.posId, status_code: '1000', transaction_id: expect.any(String) });
    const [event] = await webhooks();
    expect(event).toMatchObject({ pos_id: null, transaction_id: null, status_code: null, processed_at: null, payment_id: payment.payment_id, status: 'success' });
    const { deliveries } = (await (await sandbox.control('GET', '/_sandbox/webhooks')).json()) as { deliveries: Json[] };
    expect(deliveries[0]).toMatchObject({ pos_id: sandbox.project.posId, event_status: 'success', event: { pos_id: null } });
    // The validation_url preflight is posted like a webhook, and shaped like one.
    await pay({ validation_url: 'https://shop.example/validate' });
    const preflight = sandbox.inbox.received.find((entry) => entry.url === 'https://shop.example/validate');
    expect(preflight?.event).toMatchObject({ status: 'pending', pos_id: null, status_code: null });
  });

  it('unknown_fields: payments and operations, in answers and webhooks, carry a field the interface does not list; balances do not', async () => {
    await shapes(['unknown_fields']);
    const payment = await pay();
    const refund = await sandbox.postJson('/api/v1/refund', target(String(payment.order_id)));
    for (const object of [payment, refund, ...(await sandbox.getJson<Json[]>(orderPath(String(payment.order_id)))), ...(await webhooks())]) {
      expect(object).toHaveProperty(UNKNOWN_FIELD);
    }
    expect(await sandbox.getJson(`/api/v1/balances/pos/${sandbox.project.posId}/accounts`)).not.toHaveProperty(UNKNOWN_FIELD);
  });

  it('minimal_order_state: order-state reads and re-sends carry only what the live service promises; other answers keep everything', async () => {
    await shapes(['minimal_order_state']);
    const payment = await pay({ method: 'auth', server_url: 'https://shop.example/hook' });
    const orderId = String(payment.order_id);
    const capture = await sandbox.postJson('/api/v1/capture', target(orderId));
    expect(payment).toMatchObject({ currency: 'UAH', payment_id: expect.any(String) });
    expect(capture).toMatchObject({ order_currency: 'UAH', operation_id: expect.any(String) });
    const promised = ['amount', 'created_at', 'method', 'processing_time', 'status', 'status_code'];
    const entries = [
      ...(await sandbox.getJson<Json[]>(orderPath(orderId))),
      await sandbox.getJson<Json>(`${orderPath(orderId)}/capture`),
      await sandbox.getJson<Json>(`${orderPath(orderId)}/auth?callback=true`),
    ];
    expect(entries.map((entry) => Object.keys(entry).sort())).toEqual(Array(4).fill(promised));
    expect(entries[0]).toMatchObject({ method: 'auth', status: 'success', status_code: '1002', amount: 10.1 });
    // Its receipt and the order's errors are not order-state entries.
    expect((await sandbox.call('GET', `${orderPath(orderId)}/report/receipt?format=html`)).status).toBe(200);
    expect(await sandbox.getJson(orderPath('no-such-order'), 404)).toMatchObject({ args: { code: 'P-404' } });
  });
});

describe('switching', () => {
  it('"varied" follows the seed: the same seed, the same answers and webhooks; both forms met', async () => {
    const run = async () => {
      const box = testSandbox();
      await box.control('PUT', '/_sandbox/faults', { shapes: 'varied', seed: 7 });
      const answers: unknown[] = [];
      for (let i = 0; i < 8; i += 1) {
        answers.push(await box.postJson('/api/v1/payment', directPayment(box.project, { order_id: `varied-${i}` })));
        answers.push(await box.postJson('/api/v1/payment', { ...directPayment(box.project), amount: -1 }, 400));
      }
      await box.deliver();
      return [...answers, ...box.inbox.received.map((entry) => entry.event)].map(formsOf);
    };
    const first = await run();
    expect(await run()).toEqual(first);
    const met = (field: keyof ReturnType<typeof formsOf>) => new Set(first.map((forms) => forms[field]).filter((form) => form !== undefined));
    expect(met('status_code')).toEqual(new Set(['string', 'number', 'null']));
    expect(met('pos_id')).toEqual(new Set(['string', 'null']));
    expect(met('created_at')).toEqual(new Set(['2026-03-02T10:00:00.000', '2026-03-02T10:00:00', '2026-03-02T10:00:00.000Z', '2026-03-02T10:00:00Z']));
    expect(new Set(first.filter((forms) => forms.args === undefined).map((forms) => forms.unknown))).toEqual(new Set([true, false]));
    expect(met('args')).toEqual(new Set(['violations', 'legacy']));
  });

  it('duplicates of a shaped webhook are the same signed data', async () => {
    await shapes('varied', { webhook_duplicates: 2 });
    await pay();
    await sandbox.deliver();
    expect(new Set(sandbox.inbox.received.map((entry) => entry.data)).size).toBe(1);
    expect(sandbox.inbox.received).toHaveLength(3);
  });

  it('outlive `times` (they are no API fault), and are cleared by PUT {}, DELETE and reset', async () => {
    await shapes(['numeric_status_code'], { error_rate: 1, times: 1 });
    await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project), 500);
    expect((await pay()).status_code).toBe(1000);
    expect(await (await sandbox.control('GET', '/_sandbox/faults')).json()).toMatchObject({ error_rate: 0, shapes: ['numeric_status_code'] });
    for (const clear of [() => sandbox.control('PUT', '/_sandbox/faults', {}), () => sandbox.control('DELETE', '/_sandbox/faults'), () => sandbox.control('POST', '/_sandbox/reset')]) {
      await shapes(['numeric_status_code']);
      await clear();
      expect((await pay()).status_code).toBe('1000');
    }
  });

  it('refuses an unknown variant, naming it and what it may be', async () => {
    for (const setting of [['status_code_as_number'], 'all']) {
      const answer = await sandbox.control('PUT', '/_sandbox/faults', { shapes: setting });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        args: [{ field_name: 'shapes', violation: expect.stringContaining('must be "varied" or a list of variants (legacy_args, numeric_status_code,') }],
      });
    }
  });

  it('leave the control plane alone', async () => {
    await shapes(['numeric_status_code', 'unknown_fields']);
    const payment = await pay({ method: 'auth' }, '4000000000003220');
    const answered = (await (await sandbox.control('POST', `/_sandbox/3ds/${String(payment.payment_id)}`, { result: 'success' })).json()) as Json;
    expect(answered).toMatchObject({ status_code: '1002' });
    expect(answered).not.toHaveProperty(UNKNOWN_FIELD);
  });

  it('a HEAD does not move the seeded sequence', async () => {
    const reads = async (withHead: boolean) => {
      const box = testSandbox();
      const { order_id: orderId } = await box.postJson('/api/v1/payment', directPayment(box.project, { order_id: 'head-order' }));
      await box.control('PUT', '/_sandbox/faults', { shapes: 'varied', seed: 3 });
      const path = `/api/v1/pos/${box.project.posId}/orders/${String(orderId)}`;
      const answers = [await box.getJson<Json[]>(path)];
      if (withHead) expect((await box.call('HEAD', path)).status).toBe(200);
      for (let i = 0; i < 4; i += 1) answers.push(await box.getJson<Json[]>(path));
      return answers.flat().map(formsOf);
    };
    expect(await reads(true)).toEqual(await reads(false));
  });
});
