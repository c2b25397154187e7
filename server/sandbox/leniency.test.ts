import { Hono } from 'hono';
import type * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { RefundRequest, SplitRefundRequest } from '../gateway/wire/operation.js';
import { CreatePaymentRequest } from '../gateway/wire/payment.js';
import { ResendWebhookQuery } from '../gateway/wire/order.js';
import { resolveConfig } from './config.js';
import type { SandboxEnv } from './http/env.js';
import { LENIENCY_RULES, readLeniently } from './http/leniency.js';
import type { Leniency } from './http/leniency.js';
import { SUB_A, SUB_B, directPayment, hostedPayment, testSandbox } from './testing/in-process.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
const POS = '00000000-0000-4000-8000-000000000001';

/** What a PHP plugin in production sends beside the interface's fields: dates, amounts under other names. */
const pluginExtras = { refund_date: '2026-03-02 12:00:00', order_amount: '100.00', provider_order_id: '' };

async function paidOrder(sandbox: TestSandbox, method: 'purchase' | 'auth', amount = 100): Promise<string> {
  return String((await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { method, amount }))).order_id);
}
const target = (sandbox: TestSandbox, orderId: string, extra: Json = {}) => ({ pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', ...extra });
const violations = async (response: Response) => ((await response.json()) as { args: { field_name: string; violation: string }[] }).args;

describe('a tolerant project (the default) reads requests as the live gateway does', () => {
  it('ignores fields the interface does not list on capture, void and refund, and reads string amounts', async () => {
    const sandbox = testSandbox();
    const auth = await paidOrder(sandbox, 'auth');
    expect(await sandbox.postJson('/api/v1/capture', target(sandbox, auth, { ...pluginExtras, charge_amount: '60.5' }))).toMatchObject({
      method: 'capture', status: 'success', status_code: '1000', amount: 60.5,
    });
    const other = await paidOrder(sandbox, 'auth');
    expect(await sandbox.postJson('/api/v1/void', target(sandbox, other, pluginExtras))).toMatchObject({ method: 'void', status: 'success', status_code: '1009' });
    const purchase = await paidOrder(sandbox, 'purchase');
    expect(await sandbox.postJson('/api/v1/refund', target(sandbox, purchase, { ...pluginExtras, refund_amount: '40.25' }))).toMatchObject({
      method: 'refund', status: 'success', status_code: '1004', amount: 40.25,
    });
  });

  it('reads numeric strings where the interface types a Number, then holds them to its rules', async () => {
    const sandbox = testSandbox();
    const paid = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { amount: '10.10', exp_month: '12', exp_year: '2030', note: 'x' }));
    expect(paid).toMatchObject({ status: 'success', amount: 10.1 });
    const hosted = await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project, { order_timeout: '900' }));
    expect(hosted.status).toBe(303);

    const refused = async (body: Json, path = '/api/v1/payment') => {
      const response = await sandbox.post(path, body);
      expect(response.status).toBe(400);
      return violations(response);
    };
    expect(await refused(directPayment(sandbox.project, { exp_month: '13' }))).toEqual([{ field_name: 'exp_month', violation: 'must be at most 12' }]);
    // Named once, by the bound it is past.
    expect(await refused(directPayment(sandbox.project, { exp_year: '1000000000000000000' }))).toEqual([{ field_name: 'exp_year', violation: 'must be at most 2099' }]);
    expect(await refused(directPayment(sandbox.project, { exp_month: 'twelve' }))).toEqual([{ field_name: 'exp_month', violation: 'must be a number' }]);
    expect(await refused(directPayment(sandbox.project, { exp_month: ' 12' }))).toEqual([{ field_name: 'exp_month', violation: 'must be a number' }]);
    expect(await refused(hostedPayment(sandbox.project, { order_timeout: '1.5' }))).toEqual([{ field_name: 'order_timeout', violation: 'must be an integer' }]);
    expect(await refused(directPayment(sandbox.project, { amount: '10.105' }))).toEqual([{ field_name: 'amount', violation: 'must have at most 2 decimal digits' }]);
    // As the number 10.100 is refused as written, so is the string: a gateway reading decimals keeps the scale.
    expect(await refused(directPayment(sandbox.project, { amount: '10.100' }))).toEqual([{ field_name: 'amount', violation: 'must have at most 2 decimal digits' }]);
    // Only an amount's scale counts: other numbers are read as the number they write.
    expect((await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project, { order_timeout: '900.000' }))).status).toBe(303);
    expect(await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { exp_month: '12.000' }))).toMatchObject({ status: 'success' });
    const purchase = await paidOrder(sandbox, 'purchase');
    expect(await refused(target(sandbox, purchase, { refund_amount: '-1', note: 'x' }), '/api/v1/refund')).toEqual([
      { field_name: 'refund_amount', violation: 'must be greater than 0' },
    ]);
    expect(await refused(target(sandbox, purchase, { refund_amount: '1e2' }), '/api/v1/refund')).toEqual([
      { field_name: 'refund_amount', violation: 'must be a plain decimal number' },
    ]);
    expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, purchase)?.operations).toEqual([]);
  });

  it('ignores a field "not sent" in hosted mode like an unknown one, but still refuses card data there', async () => {
    const sandbox = testSandbox();
    const response = await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project, { cc_number: '4242424242424242', customer_ip: '203.0.113.7' }));
    expect(response.status).toBe(400);
    expect(await violations(response)).toEqual([{ field_name: 'cc_number', violation: 'is not sent in hosted mode' }]);
    const withoutCard = await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project, { customer_ip: '203.0.113.7' }));
    expect(withoutCard.status).toBe(303);
    // Except in a hosted lookup, whose card fields the interface's table marks required: the page still asks for the card.
    const lookup = hostedPayment(sandbox.project, { method: 'lookup', customer_lang: undefined, cc_number: '4242424242424242', exp_month: 12, exp_year: 2030, card_cvv: '123' });
    const looked = await sandbox.post('/api/v1/payment', lookup);
    expect(looked.status).toBe(303);
    const entries = await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${String(lookup.order_id)}`);
    expect(entries).toEqual([expect.objectContaining({ method: 'lookup', status: 'init' })]);
    expect(entries[0]).toMatchObject({ cc_mask: null });
    // Neither the number nor a mask of it (the order's random ids may hold "4242" by chance).
    expect(JSON.stringify(entries)).not.toMatch(/4242424242424242|424242\*+4242/);
  });

  it('ignores unknown query parameters of the reads, which a strict project refuses', async () => {
    for (const strict of [false, true]) {
      const sandbox = testSandbox({ projects: [{ strict }] });
      const purchase = await paidOrder(sandbox, 'purchase');
      const base = `/api/v1/pos/${sandbox.project.posId}/orders/${purchase}`;
      for (const path of [`${base}?lang=en`, `${base}/report/receipt?format=html&_=1709373600`, `${base}/purchase?lang=en`, `${base}/purchase?callback=true&lang=en`]) {
        expect((await sandbox.get(path)).status, `${path} strict=${strict}`).toBe(strict ? 400 : 200);
      }
    }
  });
});

describe('tolerant reading never makes the sandbox fail', () => {
  const odd: unknown[] = [null, true, -1, 0, 1e308, '', ' 1', '1.', '.5', '-0', '00012', '1e3', '9'.repeat(400), [], {}, [{}], { amount: '1' }];

  it('answers odd unknown fields and odd strings in Number fields with a 2xx, 3xx or 4xx', async () => {
    const sandbox = testSandbox();
    const auth = await paidOrder(sandbox, 'auth', 50);
    const cases: [string, Json, string[]][] = [
      ['/api/v1/payment', directPayment(sandbox.project), ['exp_month', 'exp_year', 'amount']],
      ['/api/v1/payment', hostedPayment(sandbox.project), ['order_timeout', 'amount']],
      ['/api/v1/capture', target(sandbox, auth, { charge_amount: 10 }), ['charge_amount']],
      ['/api/v1/refund', target(sandbox, auth, { refund_amount: 5 }), ['refund_amount']],
      ['/api/v1/split/refund', { pos_id: sandbox.project.posId, order_id: auth, currency: 'UAH', refund_amount: 5, split: [{ sub_merchant_id: SUB_A, amount: 5 }] }, ['refund_amount']],
    ];
    const statuses = new Set<number>();
    let sent = 0;
    for (const [path, valid, numbers] of cases) {
      for (const value of odd) {
        const variants = [{ ...valid, extra: value, nested: { deeper: value } }, ...numbers.map((field) => ({ ...valid, [field]: typeof value === 'string' ? value : JSON.stringify(value) }))];
        for (const body of variants) {
          sent += 1;
          // Creates need a fresh order id each; operations all aim at the one auth.
          const response = await sandbox.post(path, path === '/api/v1/payment' ? { ...body, order_id: `${String(valid.order_id)}-${sent}` } : body);
          statuses.add(response.status);
          expect(response.status, `${path} ${JSON.stringify(body).slice(0, 160)}`).toBeLessThan(500);
          await response.arrayBuffer();
        }
      }
    }
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 303, 400]));
  });

  it('reads a request with an unknown field nested thousands of levels deep, and leaves the request as it came', async () => {
    const sandbox = testSandbox();
    const purchase = await paidOrder(sandbox, 'purchase');
    // 2,000 levels, about 12 KB: within the body limit, past what structuredClone's recursion took.
    const deep = `${'{"a":'.repeat(2_000)}{}${'}'.repeat(2_000)}`;
    const refund = JSON.stringify(target(sandbox, purchase, { refund_amount: 1 })).replace(/}$/, `,"deep":${deep}}`);
    expect(await sandbox.postJson('/api/v1/refund', refund)).toMatchObject({ method: 'refund', status: 'success', amount: 1 });
    const sent = { ...directPayment(sandbox.project), deep: JSON.parse(deep) as unknown };
    const before = sent.deep;
    const read = readLeniently(CreatePaymentRequest, sent, false);
    expect(read).toMatchObject({ success: true, leniency: { ignored: [{ field: 'deep' }] } });
    expect(read.success && 'deep' in read.data).toBe(false);
    expect(sent.deep).toBe(before);
  });
});

describe('a strict project reads requests exactly as payform’s client checks them', () => {
  it('refuses unknown fields and numeric strings, amounts included', async () => {
    const sandbox = testSandbox({ projects: [{ strict: true }] });
    const purchase = await paidOrder(sandbox, 'purchase');
    const refund = await sandbox.post('/api/v1/refund', target(sandbox, purchase, { ...pluginExtras, refund_amount: '40.25' }));
    expect(refund.status).toBe(400);
    expect(await violations(refund)).toEqual([
      { field_name: 'refund_amount', violation: 'must be a number' },
      { field_name: 'refund_date', violation: 'is not allowed' },
      { field_name: 'order_amount', violation: 'is not allowed' },
      { field_name: 'provider_order_id', violation: 'is not allowed' },
    ]);
    const payment = await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { exp_month: '12' }));
    expect(await violations(payment)).toEqual([{ field_name: 'exp_month', violation: 'must be a number' }]);
    // An amount is a Number in the interface, and payform's client sends a JSON number: a string is refused like exp_month's.
    const refused = async (path: string, body: Json) => {
      const response = await sandbox.post(path, body);
      expect(response.status, path).toBe(400);
      return violations(response);
    };
    expect(await refused('/api/v1/payment', directPayment(sandbox.project, { amount: '10.5' }))).toEqual([{ field_name: 'amount', violation: 'must be a number' }]);
    expect(await refused('/api/v1/refund', target(sandbox, purchase, { refund_amount: '10' }))).toEqual([{ field_name: 'refund_amount', violation: 'must be a number' }]);
    const auth = await paidOrder(sandbox, 'auth');
    expect(await refused('/api/v1/capture', target(sandbox, auth, { charge_amount: '60.5' }))).toEqual([{ field_name: 'charge_amount', violation: 'must be a number' }]);
    const split = { ...directPayment(sandbox.project, { amount: 30 }), split: [{ sub_merchant_id: SUB_A, amount: '20' }, { sub_merchant_id: SUB_B, amount: 10 }] };
    expect(await refused('/api/v1/split/purchase', split)).toEqual([{ field_name: 'split[0].amount', violation: 'must be a number' }]);
    expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, purchase)?.operations).toEqual([]);
    expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, auth)?.operations).toEqual([]);
    // As numbers, as payform's client sends them, they pass.
    expect(await sandbox.postJson('/api/v1/refund', target(sandbox, purchase, { refund_amount: 40.25 }))).toMatchObject({ amount: 40.25 });
    expect(await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { amount: 10.5 }))).toMatchObject({ status: 'success', amount: 10.5 });
  });

  it('refuses an amount written with an exponent, as Java prints round and large ones, which a tolerant project reads', async () => {
    // BigDecimal("100.00").stripTrailingZeros() prints 1E+2 (Jackson writes BigDecimal so by default), a double of ten million 1.0E7.
    const written = (body: Json, literals: Record<string, string>) =>
      Object.entries(literals).reduce((json, [from, to]) => json.replace(from, to), JSON.stringify(body));
    const strict = testSandbox({ projects: [{ strict: true }] });
    const said = 'must be written without an exponent, as a plain decimal (100, not 1E+2; 10000000, not 1.0E7)';
    const refused = async (path: string, json: string) => {
      const response = await strict.post(path, json);
      expect(response.status, path).toBe(400);
      return violations(response);
    };
    expect(await refused('/api/v1/payment', written(directPayment(strict.project, { amount: 100 }), { '"amount":100': '"amount":1E+2' }))).toEqual([{ field_name: 'amount', violation: said }]);
    expect(await refused('/api/v1/payment', written(directPayment(strict.project, { amount: 10000000 }), { '"amount":10000000': '"amount":1.0E7' }))).toEqual([{ field_name: 'amount', violation: said }]);
    const purchase = await paidOrder(strict, 'purchase');
    expect(await refused('/api/v1/refund', written(target(strict, purchase, { refund_amount: 10 }), { '"refund_amount":10': '"refund_amount":1e1' }))).toEqual([{ field_name: 'refund_amount', violation: said }]);
    const auth = await paidOrder(strict, 'auth');
    expect(await refused('/api/v1/capture', written(target(strict, auth, { charge_amount: 60 }), { '"charge_amount":60': '"charge_amount":6E+1' }))).toEqual([{ field_name: 'charge_amount', violation: said }]);
    const split = { ...directPayment(strict.project, { amount: 30 }), split: [{ sub_merchant_id: SUB_A, amount: 20 }, { sub_merchant_id: SUB_B, amount: 10 }] };
    expect(await refused('/api/v1/split/purchase', written(split, { '"amount":20': '"amount":2E+1' }))).toEqual([{ field_name: 'split[0].amount', violation: said }]);
    expect(strict.app.sandbox.gateway.store.order(strict.project.posId, purchase)?.operations).toEqual([]);
    expect(strict.app.sandbox.gateway.store.order(strict.project.posId, auth)?.operations).toEqual([]);
    expect(strict.app.sandbox.gateway.store.orders(strict.project.posId)).toHaveLength(2);
    // Only an amount's form counts: a product's number is the merchant's own.
    expect((await strict.post('/api/v1/payment', written(directPayment(strict.project, { products: [{ name: 'Rice', weight: 1000 }] }), { '"weight":1000': '"weight":1E+3' }))).status).toBe(200);

    const tolerant = testSandbox();
    const json = written(directPayment(tolerant.project, { amount: 100 }), { '"amount":100': '"amount":1E+2' });
    expect(await tolerant.postJson('/api/v1/payment', json)).toMatchObject({ status: 'success', amount: 100 });
    const { requests } = (await (await tolerant.control('GET', '/_sandbox/requests')).json()) as { requests: { path: string; notes: Json[] }[] };
    expect(requests.find(({ path }) => path === '/api/v1/payment')?.notes).toEqual([
      { kind: 'coerced', field: 'amount', from: 'exponent notation', to: 'plain decimal', what: 'exponent read as a plain decimal', rule: LENIENCY_RULES.exponent },
    ]);
  });

  it('names the strict rule for a string amount, and reads it as the live gateway does when tolerant', () => {
    const request = { pos_id: POS, order_id: 'o-1', order_currency: 'UAH', refund_amount: '10' };
    expect(readLeniently(RefundRequest, request, true).leniency.refused).toEqual([
      { field: 'refund_amount', reason: 'must be a number', rule: LENIENCY_RULES.strictNumeric },
    ]);
    const tolerant = readLeniently(RefundRequest, request, false);
    expect(tolerant).toMatchObject({ success: true, data: { refund_amount: 10 } });
    expect(tolerant.leniency.coerced).toEqual([
      { field: 'refund_amount', from: 'string', to: 'number', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric },
    ]);
    // A string no number holds exactly is not read as a near one: refused in every mode, saying why.
    for (const strict of [false, true]) {
      expect(readLeniently(RefundRequest, { ...request, refund_amount: '10.000000000000000000001' }, strict).leniency.refused).toEqual([
        { field: 'refund_amount', reason: 'must have at most 2 decimal digits', rule: LENIENCY_RULES.refused },
      ]);
    }
  });

  it('is per project, and SANDBOX_STRICT=1 makes the default project strict', () => {
    const saved = process.env.SANDBOX_STRICT;
    try {
      process.env.SANDBOX_STRICT = '1';
      const [first, second] = resolveConfig({ projects: [{}, { posId: POS, apiKey: 'other-key' }] }).projects;
      expect([first?.strict, second?.strict]).toEqual([true, false]);
      expect(resolveConfig({ projects: [{ strict: false }] }).projects[0]?.strict).toBe(false);
      delete process.env.SANDBOX_STRICT;
      expect(resolveConfig().projects[0]?.strict).toBe(false);
      // Neither on nor off: refused by name, not read as tolerant (createSandbox in npm start, the demo).
      process.env.SANDBOX_STRICT = 'yes';
      expect(() => resolveConfig()).toThrow('payform sandbox: SANDBOX_STRICT must be 1 or true (strict), or 0, false or empty (tolerant), not "yes"');
    } finally {
      if (saved === undefined) delete process.env.SANDBOX_STRICT;
      else process.env.SANDBOX_STRICT = saved;
    }
  });
});

describe('the leniency report', () => {
  it('lists what was ignored and coerced, with the rule, naming fields and never values', () => {
    const read = readLeniently(
      SplitRefundRequest,
      {
        pos_id: POS, order_id: 'o-1', currency: 'UAH', refund_amount: '15', note: 'x', '4242424242424242': 'card as a key',
        split: [{ sub_merchant_id: SUB_A, amount: 10, share: 'a' }, { sub_merchant_id: SUB_B, amount: '5' }],
      },
      false,
    );
    expect(read.success).toBe(true);
    expect(read.leniency).toEqual({
      strict: false,
      ignored: [
        { field: 'split[0].share', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown },
        { field: 'note', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown },
        { field: '*', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown },
      ],
      coerced: [
        { field: 'refund_amount', from: 'string', to: 'number', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric },
        { field: 'split[1].amount', from: 'string', to: 'number', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric },
      ],
      waived: [],
      refused: [],
    });
    expect(JSON.stringify(read.leniency)).not.toContain('4242');
  });

  it('lists refusals with their reasons beside what was ignored', () => {
    const request = { pos_id: POS, order_id: 'o-1', order_currency: 'UAH', refund_amount: '15', comment: 5, extra: true };
    const read = readLeniently(RefundRequest, request, false);
    expect(read).toEqual({
      success: false,
      issues: [
        { field: 'comment', reason: 'must be a string' },
      ],
      leniency: {
        strict: false,
        ignored: [{ field: 'extra', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown }],
        coerced: [{ field: 'refund_amount', from: 'string', to: 'number', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric }],
        waived: [],
        refused: [{ field: 'comment', reason: 'must be a string', rule: LENIENCY_RULES.refused }],
      },
    });
  });

  it('tells a strict refusal of what a tolerant project would take from a refusal in every mode', () => {
    const read = readLeniently(CreatePaymentRequest, { ...directPayment(testSandbox().project, { exp_month: '12', exp_year: 'soon' }), payway: 'card' }, true);
    expect(read.success).toBe(false);
    expect(read.leniency.refused).toEqual([
      { field: 'exp_month', reason: 'must be a number', rule: LENIENCY_RULES.strictNumeric },
      { field: 'exp_year', reason: 'must be a number', rule: LENIENCY_RULES.refused },
      { field: 'payway', reason: 'is not allowed', rule: LENIENCY_RULES.strictUnknown },
    ]);
    expect(read.leniency).toMatchObject({ strict: true, ignored: [], coerced: [], waived: [] });
  });

  it('names each tolerance of the live gateway it applied, and a strict project refuses each under its own rule', () => {
    const project = testSandbox().project;
    const cases: { schema: z.ZodType; request: Json; applied: { kind: 'ignored' | 'coerced' | 'waived'; field: string; what: string; rule: string }[] }[] = [
      {
        schema: CreatePaymentRequest,
        request: directPayment(project, { customer_id: null, exp_year: '30', customer_phone: '+38 (050) 123-45-67', customer_email: 'unregistered', shop_ref: 'A-17' }),
        applied: [
          { kind: 'ignored', field: 'customer_id', what: 'null dropped', rule: LENIENCY_RULES.null },
          { kind: 'ignored', field: 'shop_ref', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown },
          { kind: 'coerced', field: 'exp_year', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric },
          { kind: 'coerced', field: 'customer_phone', what: 'spaces, brackets and dashes left out', rule: LENIENCY_RULES.phone },
          { kind: 'coerced', field: 'exp_year', what: 'two-digit year widened', rule: LENIENCY_RULES.year },
          { kind: 'waived', field: 'customer_email', what: 'not an address: taken as a string', rule: LENIENCY_RULES.email },
        ],
      },
      {
        schema: CreatePaymentRequest,
        request: hostedPayment(project, { customer_phone: undefined, customer_referrer: 'https://shop.example/cart' }),
        applied: [
          { kind: 'ignored', field: 'customer_referrer', what: 'not sent in this mode: ignored', rule: LENIENCY_RULES.notSent },
          { kind: 'waived', field: 'customer_phone', what: 'absent: taken without it', rule: LENIENCY_RULES.contact },
        ],
      },
      {
        schema: ResendWebhookQuery,
        request: { callback: '1' },
        applied: [{ kind: 'coerced', field: 'callback', what: '`1` read as true', rule: LENIENCY_RULES.boolean }],
      },
    ];
    const strictRules: Record<string, string> = {
      [LENIENCY_RULES.null]: LENIENCY_RULES.strictNull,
      [LENIENCY_RULES.unknown]: LENIENCY_RULES.strictUnknown,
      [LENIENCY_RULES.numeric]: LENIENCY_RULES.strictNumeric,
      [LENIENCY_RULES.phone]: LENIENCY_RULES.strictPhone,
      [LENIENCY_RULES.email]: LENIENCY_RULES.strictEmail,
      [LENIENCY_RULES.notSent]: LENIENCY_RULES.strictNotSent,
      [LENIENCY_RULES.contact]: LENIENCY_RULES.strictContact,
      [LENIENCY_RULES.boolean]: LENIENCY_RULES.strictBoolean,
    };
    for (const { schema, request, applied } of cases) {
      const tolerant = readLeniently(schema, request, false);
      expect(tolerant.success).toBe(true);
      const { ignored, coerced, waived } = tolerant.leniency;
      const entries = [
        ...ignored.map((entry) => ({ kind: 'ignored', ...entry })),
        ...coerced.map(({ from: _from, to: _to, ...entry }) => ({ kind: 'coerced', ...entry })),
        ...waived.map((entry) => ({ kind: 'waived', ...entry })),
      ];
      expect(entries).toEqual(applied);

      const strict = readLeniently(schema, request, true);
      expect(strict.success).toBe(false);
      // The year is refused as a numeric string before it could be a two-digit one.
      const expected = applied.filter((entry) => entry.rule !== LENIENCY_RULES.year).map((entry) => ({ field: entry.field, rule: strictRules[entry.rule] }));
      expect(strict.leniency.refused.map(({ field, rule }) => ({ field, rule }))).toEqual(expect.arrayContaining(expected));
      expect(strict.leniency.refused).toHaveLength(expected.length);
    }
    expect(readLeniently(CreatePaymentRequest, directPayment(project, { exp_year: 30 }), true).leniency.refused).toEqual([
      { field: 'exp_year', reason: 'must be at least 2000', rule: LENIENCY_RULES.strictYear },
    ]);
  });

  it('reads only the Boolean spellings it knows, and quotes nothing else', () => {
    for (const callback of ['toString', '__proto__', 'constructor', '2', 'yes', '']) {
      const read = readLeniently(ResendWebhookQuery, { callback }, false);
      expect(read.success, callback).toBe(false);
      expect(read.leniency.coerced, callback).toEqual([]);
    }
    const falsy = readLeniently(ResendWebhookQuery, { callback: '0' }, false);
    expect(falsy.leniency.coerced).toMatchObject([{ field: 'callback', from: '0', to: 'false' }]);
    expect(falsy.success).toBe(false);
  });

  it('takes an e-mail that is no address, but not an empty one, in either mode', () => {
    const project = testSandbox().project;
    for (const customer_email of ['', '   ']) {
      for (const request of [directPayment(project, { customer_email }), hostedPayment(project, { customer_email })]) {
        const read = readLeniently(CreatePaymentRequest, request, false);
        expect(read.success, JSON.stringify(customer_email)).toBe(false);
        expect(read.leniency.waived).toEqual([]);
        expect(read.leniency.refused).toEqual([{ field: 'customer_email', reason: 'must be an email address', rule: LENIENCY_RULES.refused }]);
      }
    }
  });

  it('takes a phone as typed with as many digits as the interface allows, 15, and not one more', () => {
    const project = testSandbox().project;
    const read = (customer_phone: string) => readLeniently(CreatePaymentRequest, directPayment(project, { customer_phone }), false);
    const longest = read('+380 (50) 123-45-67-890');
    expect(longest.success && longest.data).toMatchObject({ customer_phone: '+380501234567890' });
    expect(read('+380 (50) 123-45-67-8901').success).toBe(false);
  });

  it('a tolerant read hands on what was sent for a rule it waived, and reports no value', () => {
    const project = testSandbox().project;
    const read = readLeniently(CreatePaymentRequest, hostedPayment(project, { customer_email: 'guest-7', customer_phone: undefined }), false);
    expect(read.success && read.data).toMatchObject({ customer_email: 'guest-7' });
    expect(read.success && 'customer_phone' in read.data).toBe(false);
    expect(JSON.stringify(read.leniency)).not.toContain('guest-7');
  });

  it('is left on the Hono context for a request inspector, refused requests included', async () => {
    const sandbox = testSandbox();
    const seen: (Leniency | undefined)[] = [];
    const inspected = new Hono<SandboxEnv>()
      .use(async (c, next) => {
        await next();
        seen.push(c.var.leniency);
      })
      .route('/', sandbox.app);
    const send = (body: Json) =>
      inspected.request('/api/v1/payment', {
        method: 'POST',
        headers: { 'X-API-AUTH': `CPAY ${sandbox.project.apiKey}:${sandbox.project.apiSecret}`, 'X-API-KEY': sandbox.project.endpointsKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await send(directPayment(sandbox.project, { exp_year: '2030', payway: 'card' }))).status).toBe(200);
    expect((await send(directPayment(sandbox.project, { exp_month: '0', payway: 'card' }))).status).toBe(400);
    expect(seen).toEqual([
      {
        strict: false,
        ignored: [{ field: 'payway', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown }],
        coerced: [{ field: 'exp_year', from: 'string', to: 'number', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric }],
        waived: [],
        refused: [],
      },
      {
        strict: false,
        ignored: [{ field: 'payway', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown }],
        coerced: [{ field: 'exp_month', from: 'string', to: 'number', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric }],
        waived: [],
        refused: [{ field: 'exp_month', reason: 'must be at least 1', rule: LENIENCY_RULES.refused }],
      },
    ]);
  });
});

describe('an amount left out moves everything, so an amount sent malformed is refused in every mode', () => {
  const operationsOf = (sandbox: TestSandbox, orderId: string) => sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, orderId)?.operations;
  const fullRefund = 'without refund_amount all that is left would be refunded';
  const fullCapture = 'without charge_amount the whole reserve would be captured';

  it('refuses a null amount, which a tolerant project would otherwise drop, naming the field and what leaving it out does', async () => {
    for (const strict of [false, true]) {
      const sandbox = testSandbox({ projects: [{ strict }] });
      const purchase = await paidOrder(sandbox, 'purchase');
      const auth = await paidOrder(sandbox, 'auth');
      const cases: [string, Json, { field_name: string; violation: string }[]][] = [
        ['/api/v1/refund', target(sandbox, purchase, { refund_amount: null }), [
          { field_name: 'refund_amount', violation: `must be the amount, not null: ${fullRefund} (leave refund_amount out for a full refund)` },
        ]],
        ['/api/v1/capture', target(sandbox, auth, { charge_amount: null }), [
          { field_name: 'charge_amount', violation: `must be the amount, not null: ${fullCapture} (leave charge_amount out for a full capture)` },
        ]],
        ['/api/v1/split/capture', target(sandbox, auth, { charge_amount: null, split: [{ sub_merchant_id: SUB_A, amount: 100 }] }), [
          { field_name: 'charge_amount', violation: `must be the amount, not null: ${fullCapture} (leave charge_amount out for a full split capture)` },
        ]],
        ['/api/v1/split/refund', { pos_id: sandbox.project.posId, order_id: purchase, currency: 'UAH', refund_amount: null, split: [{ sub_merchant_id: SUB_A, amount: 5 }] }, [
          { field_name: 'refund_amount', violation: 'must be the amount, not null: a split refund names the amount it refunds in refund_amount' },
        ]],
      ];
      for (const [path, body, expected] of cases) {
        const response = await sandbox.post(path, body);
        expect(response.status, `${path} strict=${strict}`).toBe(400);
        expect(await violations(response), `${path} strict=${strict}`).toEqual(expected);
      }
      expect(operationsOf(sandbox, purchase)).toEqual([]);
      expect(operationsOf(sandbox, auth)).toEqual([]);
    }
  });

  it('refuses an unknown field named like an amount, sent without the amount: `amount`, `refundAmount`, the other operation’s field', async () => {
    const sandbox = testSandbox();
    const purchase = await paidOrder(sandbox, 'purchase');
    const auth = await paidOrder(sandbox, 'auth');
    const refused = async (path: string, body: Json) => {
      const response = await sandbox.post(path, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      return violations(response);
    };
    const notField = (operation: string, field: string, omitted: string) => `is not a field of ${operation}: ${omitted} — send the amount as ${field}`;
    for (const key of ['refundAmount', 'amount', 'Refund_Amount', 'charge_amount', 'partial_amount', 'refund_ammount', 'refund_amout', 'charge_amuont']) {
      expect(await refused('/api/v1/refund', target(sandbox, purchase, { ...pluginExtras, [key]: '40.25' })), key).toEqual([
        { field_name: key, violation: notField('refund', 'refund_amount', fullRefund) },
      ]);
    }
    expect(await refused('/api/v1/capture', target(sandbox, auth, { amount: 60 }))).toEqual([{ field_name: 'amount', violation: notField('capture', 'charge_amount', fullCapture) }]);
    expect(await refused('/api/v1/capture', target(sandbox, auth, { refund_amount: 60, chargeAmount: 60 }))).toEqual([
      { field_name: 'refund_amount', violation: notField('capture', 'charge_amount', fullCapture) },
      { field_name: 'chargeAmount', violation: notField('capture', 'charge_amount', fullCapture) },
    ]);
    expect(await refused('/api/v1/split/capture', target(sandbox, auth, { amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 100 }] }))).toEqual([
      { field_name: 'amount', violation: notField('split capture', 'charge_amount', fullCapture) },
    ]);
    // A split refund requires its amount: the look-alike is named beside the missing one.
    expect(await refused('/api/v1/split/refund', { pos_id: sandbox.project.posId, order_id: purchase, currency: 'UAH', amount: 5, split: [{ sub_merchant_id: SUB_A, amount: 5 }] })).toEqual([
      { field_name: 'refund_amount', violation: 'is required' },
      { field_name: 'amount', violation: notField('split refund', 'refund_amount', 'a split refund names the amount it refunds in refund_amount') },
    ]);
    expect(operationsOf(sandbox, purchase)).toEqual([]);
    expect(operationsOf(sandbox, auth)).toEqual([]);
  });

  it('still takes a full refund or capture with ordinary unknown fields, the order’s total among them, and ignores a look-alike beside the amount', async () => {
    const sandbox = testSandbox();
    const auth = await paidOrder(sandbox, 'auth');
    // The gateway's WooCommerce plugin sends order_amount (the order's total) with every operation.
    expect(await sandbox.postJson('/api/v1/capture', target(sandbox, auth, { ...pluginExtras, orderAmount: '100.00', account: 'shop-1', mount: 1, note: 'x' }))).toMatchObject({
      method: 'capture', status: 'success', amount: 100,
    });
    const purchase = await paidOrder(sandbox, 'purchase');
    expect(await sandbox.postJson('/api/v1/refund', target(sandbox, purchase, { ...pluginExtras, refund_amount: 30, amount: 99 }))).toMatchObject({
      method: 'refund', status: 'success', amount: 30,
    });
    expect(await sandbox.postJson('/api/v1/refund', target(sandbox, purchase, { ...pluginExtras, ORDER_AMOUNT: '100.00' }))).toMatchObject({
      method: 'refund', status: 'success', amount: 70,
    });
  });

  it('reports the refusal in the leniency with the rule that says why, the same in a strict project', async () => {
    for (const strict of [false, true]) {
      const sandbox = testSandbox({ projects: [{ strict }] });
      const purchase = await paidOrder(sandbox, 'purchase');
      const response = await sandbox.post('/api/v1/refund', target(sandbox, purchase, { refundAmount: 40, note: 'x' }));
      expect(response.status).toBe(400);
      const { requests } = (await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: { path: string; notes: Json[] }[] };
      const notes = requests.find((request) => request.path === '/api/v1/refund')?.notes;
      expect(notes).toContainEqual({ kind: 'refused', field: 'refundAmount', reason: expect.stringContaining('all that is left would be refunded'), rule: LENIENCY_RULES.wholeAmount });
      // The ordinary unknown field beside it is ignored by a tolerant project, refused by a strict one under its own rule.
      if (strict) expect(notes).toContainEqual(expect.objectContaining({ kind: 'refused', field: 'note', rule: LENIENCY_RULES.strictUnknown }));
      else expect(notes).toContainEqual({ kind: 'ignored', field: 'note', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown });
    }
    const read = readLeniently(RefundRequest, { pos_id: POS, order_id: 'o-1', order_currency: 'UAH', refund_amount: null, amount: 5 }, false);
    expect(read.leniency).toEqual({
      strict: false,
      ignored: [],
      coerced: [],
      waived: [],
      refused: [
        { field: 'refund_amount', reason: expect.stringContaining('must be the amount, not null'), rule: LENIENCY_RULES.wholeAmount },
        { field: 'amount', reason: expect.stringContaining('is not a field of refund'), rule: LENIENCY_RULES.wholeAmount },
      ],
    });
  });
});

describe('a split sent where the endpoint takes none would move everything to the merchant, so it is refused in every mode', () => {
  it('refuses `split` on a payment, a capture and a refund, naming the split endpoint, and nothing moves', async () => {
    for (const strict of [false, true]) {
      const sandbox = testSandbox({ projects: [{ strict }] });
      const auth = await paidOrder(sandbox, 'auth');
      const purchase = await paidOrder(sandbox, 'purchase');
      const split = [{ sub_merchant_id: SUB_A, amount: 70 }, { sub_merchant_id: SUB_B, amount: 30 }];
      const cases: [string, Json, string][] = [
        ['/api/v1/payment', { ...directPayment(sandbox.project, { order_id: `split-${strict}` }), split }, '/api/v1/split/purchase'],
        ['/api/v1/capture', target(sandbox, auth, { charge_amount: 100, split }), '/api/v1/split/capture'],
        ['/api/v1/refund', target(sandbox, purchase, { refund_amount: 100, split, ...pluginExtras }), '/api/v1/split/refund'],
      ];
      for (const [path, body, endpoint] of cases) {
        const response = await sandbox.post(path, body);
        expect(response.status, `${path} strict=${strict}`).toBe(400);
        const expected = [{ field_name: 'split', violation: `is not taken here: send a split to POST ${endpoint}, or the whole amount would go to the merchant` }];
        // A strict project refuses the plugin's ordinary extras beside it; a tolerant one ignores them.
        if (strict && path === '/api/v1/refund') expect(await violations(response)).toEqual(expect.arrayContaining(expected));
        else expect(await violations(response), `${path} strict=${strict}`).toEqual(expected);
      }
      expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, `split-${strict}`)).toBeUndefined();
      expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, auth)?.operations).toEqual([]);
      expect(sandbox.app.sandbox.gateway.store.order(sandbox.project.posId, purchase)?.operations).toEqual([]);
      const { requests } = (await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: { path: string; notes: Json[] }[] };
      expect(requests.find((request) => request.path === '/api/v1/payment')?.notes).toContainEqual(expect.objectContaining({ kind: 'refused', field: 'split', rule: LENIENCY_RULES.splitElsewhere }));
      // An empty split (a plugin that always sends the key) shares nothing out: any unknown field.
      for (const empty of [[], null]) {
        const response = await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project, { order_id: `empty-${String(empty)}-${strict}` }), split: empty });
        if (strict) expect(await violations(response)).toEqual([{ field_name: 'split', violation: expect.not.stringContaining('/api/v1/split/') }]);
        else expect(response.status).toBe(200);
      }
    }
  });
});

describe('the card fields of a hosted lookup, which the interface’s table marks required', () => {
  const card = { cc_number: '4242424242424242', exp_month: 12, exp_year: 2030, card_cvv: '123' };
  const lookup = (sandbox: TestSandbox, extra: Json = {}) => hostedPayment(sandbox.project, { method: 'lookup', customer_lang: undefined, ...extra });

  it('are taken by every project, strict included, checked and then set aside: the hosted page asks for the card', async () => {
    for (const strict of [false, true]) {
      const sandbox = testSandbox({ projects: [{ strict }] });
      const body = lookup(sandbox, card);
      const created = await sandbox.post('/api/v1/payment', body);
      expect(created.status, `strict=${strict}: ${await created.clone().text()}`).toBe(303);
      const entries = await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${String(body.order_id)}`);
      expect(entries).toEqual([expect.objectContaining({ method: 'lookup', status: 'init', cc_mask: null })]);
      // Neither the number nor a mask of it (the order's random ids may hold "4242" by chance).
      expect(JSON.stringify(entries)).not.toMatch(/4242424242424242|424242\*+4242/);
      const { requests } = (await (await sandbox.control('GET', '/_sandbox/requests')).json()) as { requests: { path: string; notes: Json[] }[] };
      expect(requests.find((request) => request.path === '/api/v1/payment')?.notes).toEqual(
        Object.keys(card).map((field) => ({ kind: 'ignored', field, what: 'card data of a hosted lookup: checked, then set aside', rule: LENIENCY_RULES.lookupCard })),
      );
      // Without them, as payform's client sends a hosted lookup, it is taken too.
      expect((await sandbox.post('/api/v1/payment', lookup(sandbox))).status).toBe(303);
    }
  });

  it('are held to the card fields’ rules in every mode, and read as the live gateway reads them unless strict', async () => {
    for (const strict of [false, true]) {
      const sandbox = testSandbox({ projects: [{ strict }] });
      const refused = async (extra: Json) => {
        const response = await sandbox.post('/api/v1/payment', lookup(sandbox, extra));
        expect(response.status, JSON.stringify(extra)).toBe(400);
        return violations(response);
      };
      expect(await refused({ ...card, cc_number: '4242424242424241' })).toEqual([{ field_name: 'cc_number', violation: 'fails the Luhn check' }]);
      expect(await refused({ cc_number: card.cc_number, exp_month: 12 })).toEqual([
        { field_name: 'exp_year', violation: 'is required with the other card fields' },
        { field_name: 'card_cvv', violation: 'is required with the other card fields' },
      ]);
      expect(await refused({ ...card, exp_month: 13, customer_ip: strict ? '203.0.113.7' : undefined })).toEqual([
        { field_name: 'exp_month', violation: 'must be at most 12' },
        ...(strict ? [{ field_name: 'customer_ip', violation: 'is not sent in hosted mode' }] : []),
      ]);
      // A token is "not sent" in a hosted lookup, and card data where the interface takes none stays refused.
      expect(await refused({ ...card, cc_token: 'tok' })).toEqual([{ field_name: 'cc_token', violation: 'is not sent in hosted mode' }]);
      const asStrings = await sandbox.post('/api/v1/payment', lookup(sandbox, { ...card, exp_month: '12', exp_year: '30' }));
      if (strict) {
        expect(asStrings.status).toBe(400);
        expect(await violations(asStrings)).toEqual([
          { field_name: 'exp_month', violation: 'must be a number' },
          { field_name: 'exp_year', violation: 'must be a number' },
        ]);
      } else {
        expect(asStrings.status).toBe(303);
      }
    }
  });

  it('are reported field by field, with what the tolerances did to them', () => {
    const project = testSandbox().project;
    const read = readLeniently(CreatePaymentRequest, hostedPayment(project, { method: 'lookup', customer_lang: undefined, ...card, exp_year: '30', payway: 'card' }), false);
    expect(read.success).toBe(true);
    expect(read.success && Object.keys(read.data).filter((field) => field in card)).toEqual([]);
    expect(read.leniency).toEqual({
      strict: false,
      ignored: [
        ...Object.keys(card).map((field) => ({ field, what: 'card data of a hosted lookup: checked, then set aside', rule: LENIENCY_RULES.lookupCard })),
        { field: 'payway', what: 'unknown field ignored', rule: LENIENCY_RULES.unknown },
      ],
      coerced: [
        { field: 'exp_year', from: 'string', to: 'number', what: 'numeric string read as a number', rule: LENIENCY_RULES.numeric },
        { field: 'exp_year', from: 'two-digit year', to: 'four-digit year', what: 'two-digit year widened', rule: LENIENCY_RULES.year },
      ],
      waived: [],
      refused: [],
    });
    expect(JSON.stringify(read.leniency)).not.toContain('4242');
  });
});
