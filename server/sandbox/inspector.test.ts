/**
 * The request inspector: GET /_sandbox/requests and the page at /_sandbox, in-process. What a
 * request carried and got back, masked; what was ignored, coerced or refused; the webhooks it
 * caused; and no card data, credential or markup from a request ever coming back out raw.
 */
import { request as httpRequest } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { authHeaderValue } from '@payform/gateway/wire';
import { RequestLog } from './inspector/request-log.js';
import { directPayment, hostedPayment, testSandbox } from './testing/in-process.js';
import { serveSandbox } from './testing/served.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
interface Listed extends Json {
  id: number;
  method: string;
  path: string;
  status: number;
  headers: Json;
  body: Json;
  notes: Json[];
  webhooks: Json[];
}

const PAN = '4242424242424242';
const CVV = '737';

let sandbox: TestSandbox;
beforeEach(() => {
  sandbox = testSandbox();
});

async function listing(query = ''): Promise<{ requests: Listed[]; cursor: number }> {
  const answer = await sandbox.control('GET', `/_sandbox/requests${query}`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as { requests: Listed[]; cursor: number };
}

/** Every string and number anywhere in a value. */
function leaves(value: unknown): (string | number)[] {
  if (typeof value === 'string' || typeof value === 'number') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(leaves);
}

function expectNoCardData(value: unknown): void {
  for (const leaf of leaves(value)) {
    expect(String(leaf).replace(/\D/g, '')).not.toContain(PAN);
    expect(String(leaf)).not.toBe(CVV);
    expect(String(leaf)).not.toContain(sandbox.project.apiSecret);
    expect(String(leaf)).not.toContain(sandbox.project.endpointsKey);
  }
}

async function page(path = '/_sandbox'): Promise<Response> {
  return sandbox.app.request(path, { headers: { Accept: 'text/html,application/xhtml+xml' } });
}

/** The JSON shown in the page's <pre> blocks, unescaped and parsed. */
function shownJson(html: string): unknown[] {
  const unescape = (text: string) =>
    text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return [...html.matchAll(/<pre>([\s\S]*?)<\/pre>/g)].map((match) => JSON.parse(unescape(match[1] ?? '')) as unknown);
}

describe('GET /_sandbox/requests', () => {
  it('lists a request with its answer and the webhook it caused, card data and credentials masked', async () => {
    const request = directPayment(sandbox.project, { card_cvv: CVV });
    expect((await sandbox.post('/api/v1/payment', request)).status).toBe(200);
    await sandbox.deliver();

    const { requests } = await listing();
    expect(requests).toHaveLength(1);
    const [recorded] = requests as [Listed];
    expect(recorded).toMatchObject({ method: 'POST', path: '/api/v1/payment', status: 200, notes: [] });
    expect(recorded.body).toMatchObject({ order_id: request.order_id, amount: 10.1, cc_number: '[redacted]', card_cvv: '[redacted]' });
    expect(recorded.headers).toMatchObject({ 'x-api-auth': '[redacted]', 'x-api-key': '[redacted]' });
    expect(recorded.response).toMatchObject({ body: { status: 'success', order_id: request.order_id, cc_mask: '424242******4242' } });
    expect(recorded.webhooks).toEqual([
      expect.objectContaining({ method: 'purchase', event_status: 'success', status: 'delivered', target: request.server_url }),
    ]);
    expectNoCardData(requests);
  });

  it('masks a card number wherever it is sent — as a number under an unknown key, in the path, in text', async () => {
    await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), card_num: Number(PAN) });
    await sandbox.get(`/api/v1/order/${sandbox.project.posId}/${PAN}`);
    await sandbox.call('POST', '/api/v1/payment', { body: `cc_number=${PAN}&card_cvv=${CVV}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    await sandbox.call('POST', '/api/v1/payment', { body: `{"cc_number": "${PAN}", "card_cvv": "${CVV}",`, headers: { 'Content-Type': 'application/json' } });
    // Cut short, so kept as text: its digits written as JSON escapes are digits to the mask too.
    const escaped = [...PAN].map((digit) => `\\u003${digit}`).join('');
    await sandbox.call('POST', '/api/v1/payment', { body: `{"cc_number": "${escaped}", "exp_month": 12`, headers: { 'Content-Type': 'application/json' } });

    const { requests } = await listing();
    expect(requests[0]?.body).toBe('{"cc_number": "[card number]", "exp_month": 12');
    requests.shift();
    // A tolerant project ignores the unknown `card_num`, as the live gateway does: the payment goes through.
    expect(requests.map((request) => request.status)).toEqual([400, 406, 404, 200]);
    expect(requests[3]?.body).toMatchObject({ card_num: '[card number]' });
    expect(requests[2]?.path).toBe(`/api/v1/order/${sandbox.project.posId}/[card number]`);
    expect(requests[1]?.body).toEqual({ cc_number: '[redacted]', card_cvv: '[redacted]' });
    expectNoCardData(requests);
  });

  it('masks a card number in a comment or a User-Agent however written, and shows phones and ids as sent', async () => {
    const fours = (separator: string) => PAN.match(/.{4}/g)!.join(separator);
    const wide = PAN.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    const payment = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { amount: 100 }));
    const orderId = String(payment.order_id);
    const comment = `read out ${fours('.')} then ${fours('  ')} then ${fours('/')} then ${wide}; order e4-1795384870676, call +38 (050) 123-45-67`;
    await sandbox.post('/api/v1/refund', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', refund_amount: 1, comment }, { 'User-Agent': `shop/1.0 (card ${fours('.')})` });

    const [refunded, paid] = (await listing()).requests as [Listed, Listed];
    expect(refunded.body).toMatchObject({ comment: 'read out [card number] then [card number] then [card number] then [card number]; order e4-1795384870676, call +38 (050) 123-45-67' });
    expect(refunded.headers).toMatchObject({ 'user-agent': 'shop/1.0 (card [card number])' });
    expect(paid.body).toMatchObject({ customer_phone: '+380501234567', order_id: orderId });
    // The sandbox's own ids, as it answered them.
    expect((paid.response as Json).body).toMatchObject({ order_id: orderId, payment_id: payment.payment_id, transaction_id: payment.transaction_id });
    expectNoCardData(refunded);
  });

  it('masks a CVV sent under a key the interface does not have, however it is spelt', async () => {
    const misspelt = { card_cvc: CVV, cvv_code: CVV, cardSecurityCode: CVV, 'CVV-2': Number(CVV), csc: CVV, securityNumber: CVV };
    expect((await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), ...misspelt })).status).toBe(200);

    const [recorded] = (await listing()).requests;
    expect(recorded?.body).toMatchObject({ card_cvc: '[redacted]', cvv_code: '[redacted]', cardSecurityCode: '[redacted]', 'CVV-2': '[redacted]', csc: '[redacted]', securityNumber: '[redacted]' });
    expectNoCardData(recorded);
  });

  it('masks the card typed into the hosted checkout form, and a card number sent as a key', async () => {
    const created = await sandbox.post('/api/v1/payment', hostedPayment(sandbox.project));
    const form = new URL(created.headers.get('location') ?? '').pathname;
    const paid = await sandbox.app.request(form, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cc_number: PAN, exp_month: '12', exp_year: '2030', card_cvv: CVV }).toString(),
    });
    expect(paid.status).toBe(303);
    await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), [PAN]: 1 });

    const [keyed, checkout] = (await listing()).requests as [Listed, Listed];
    expect(checkout).toMatchObject({ method: 'POST', path: form, status: 303 });
    expect(checkout.body).toEqual({ cc_number: '[redacted]', exp_month: '[redacted]', exp_year: '[redacted]', card_cvv: '[redacted]' });
    expect(keyed.body).toMatchObject({ '[card number]': 1 });
    expectNoCardData(Object.keys(keyed.body));
  });

  it('notes every refused field with its reason, and the rule behind a refusal without fields', async () => {
    await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { amount: -1, currency: 'ABC' }));
    await sandbox.post('/api/v1/payment', directPayment(sandbox.project), { 'X-API-KEY': 'wrong' });

    const [unauthorised, invalid] = (await listing()).requests as [Listed, Listed];
    expect(invalid.notes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'refused', field: 'amount' }),
        expect.objectContaining({ kind: 'refused', field: 'currency' }),
      ]),
    );
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.notes).toEqual([
      { kind: 'refused', field: '', reason: 'Invalid X-API-KEY: it is not project "payform test shop"\'s endpoints key', rule: expect.stringContaining('X-API-AUTH') },
    ]);
  });

  it('notes what a tolerant project ignored and coerced, by field and JSON type, never by value', async () => {
    const request = { ...directPayment(sandbox.project), shop_ref: 'A-17', exp_month: '12' };
    expect((await sandbox.post('/api/v1/payment', request)).status).toBe(200);

    const [recorded] = (await listing()).requests as [Listed];
    expect(recorded.notes).toEqual([
      { kind: 'ignored', field: 'shop_ref', what: 'unknown field ignored', rule: expect.stringContaining('ignore') },
      { kind: 'coerced', field: 'exp_month', from: 'string', to: 'number', what: 'numeric string read as a number', rule: expect.stringContaining('numeric string') },
    ]);
    expect(JSON.stringify(recorded.notes)).not.toContain('A-17');
  });

  it('links a webhook sent later to the request that set it going, not to the request that found it due', async () => {
    const slow = directPayment(sandbox.project, {}, '4000000000000119');
    await sandbox.post('/api/v1/payment', slow);
    await sandbox.advance(5_000); // the slow card succeeds: a webhook
    await sandbox.deliver();

    const [clock, payment] = (await listing()).requests as [Listed, Listed];
    expect(clock.path).toBe('/_sandbox/clock');
    expect(clock.webhooks).toEqual([]);
    expect(payment.webhooks.map((webhook) => [webhook.event_status, (webhook.event as Json).status_code])).toEqual([
      ['pending', '2119'],
      ['success', '1000'],
    ]);
  });

  it('keeps a webhook’s request through its retries and its copies', async () => {
    await sandbox.control('PUT', '/_sandbox/faults', { webhook_duplicates: 1 });
    sandbox.inbox.status = 500;
    await sandbox.post('/api/v1/payment', directPayment(sandbox.project));
    await sandbox.deliver(); // the first attempts fail
    sandbox.inbox.status = 200;
    await sandbox.advance(1_000); // the retries fall due
    await sandbox.deliver();

    const [clock, payment] = (await listing()).requests as [Listed, Listed];
    expect(clock.webhooks).toEqual([]);
    const [original, copy] = payment.webhooks as [Json, Json];
    expect(payment.webhooks).toHaveLength(2);
    expect(copy.duplicate_of).toBe(original.id);
    for (const webhook of [original, copy]) expect(webhook).toMatchObject({ status: 'delivered', attempts: [{ http_status: 500 }, { http_status: 200 }] });
  });

  it('links each change to the request that made it, now or later: the page, the control plane, operations, re-sends, payouts', async () => {
    const project = sandbox.project;
    const validated = directPayment(project, { validation_url: 'https://shop.example/validate' });
    await sandbox.post('/api/v1/payment', validated);
    const challenged = await sandbox.postJson('/api/v1/payment', directPayment(project, {}, '4000000000003220'));
    await sandbox.control('POST', `/_sandbox/3ds/${String(challenged.payment_id)}`, { result: 'success' });
    await sandbox.post('/api/v1/payment', directPayment(project, {}, '4000000000003220')); // never answered
    await sandbox.post('/api/v1/payment', hostedPayment(project, { order_timeout: 60 })); // never paid
    const hosted = await sandbox.post('/api/v1/payment', hostedPayment(project));
    const form = new URL(hosted.headers.get('location') ?? '').pathname;
    const card = new URLSearchParams({ cc_number: '4242424242424242', exp_month: '12', exp_year: '2030', card_cvv: '123' });
    await sandbox.app.request(form, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: card.toString() });
    await sandbox.post('/api/v1/refund', { pos_id: project.posId, order_id: validated.order_id, order_currency: 'UAH', refund_amount: 1 });
    const refundPath = `/api/v1/pos/${project.posId}/orders/${validated.order_id}/refund`;
    await sandbox.get(`${refundPath}?callback=true`);
    const payout = { pos_id: project.posId, mode: 'direct', method: 'credit', amount: 5, currency: 'UAH', description: 'Payout', order_id: `payout-${String(validated.order_id)}`, order_3ds_bypass: 'supported', customer_ip: '203.0.113.7', cc_number: '4000000000000119', server_url: validated.server_url };
    await sandbox.post('/api/v1/payment', payout); // a slow card: paid out later
    await sandbox.advance(15 * 60_000); // the payout succeeds, the challenge and the unpaid payment time out
    await sandbox.deliver();

    const caused = (await listing()).requests.reverse().map((request) => [request.path, request.webhooks.map((webhook) => `${String(webhook.method)} ${String(webhook.event_status)} ${String(webhook.reason)}`)]);
    expect(caused).toEqual([
      ['/api/v1/payment', ['purchase pending validation', 'purchase success status_change']],
      ['/api/v1/payment', ['purchase pending status_change']],
      [`/_sandbox/3ds/${String(challenged.payment_id)}`, ['purchase success status_change']],
      ['/api/v1/payment', ['purchase pending status_change', 'purchase failure status_change']],
      ['/api/v1/payment', ['purchase failure status_change']],
      ['/api/v1/payment', []],
      [form, ['purchase success status_change']],
      ['/api/v1/refund', ['refund success status_change']],
      [refundPath, ['refund success resend']],
      ['/api/v1/payment', ['credit pending status_change', 'credit success status_change']],
      ['/_sandbox/clock', []],
    ]);
  });

  it('gives only what was recorded after a cursor, and does not record its own reads', async () => {
    await sandbox.post('/api/v1/payment', directPayment(sandbox.project));
    const first = await listing();
    expect(first.requests).toHaveLength(1);
    expect((await listing(`?after=${first.cursor}`)).requests).toEqual([]);

    await sandbox.get(`/api/v1/balances/pos/${sandbox.project.posId}/accounts`);
    const next = await listing(`?after=${first.cursor}`);
    expect(next.requests.map((request) => request.path)).toEqual([`/api/v1/balances/pos/${sandbox.project.posId}/accounts`]);
    expect((await sandbox.control('GET', '/_sandbox/requests?after=soon')).status).toBe(400);
  });

  it('records the answer that went out: an injected fault’s, not the one it replaced', async () => {
    await sandbox.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'after', times: 1 });
    expect((await sandbox.post('/api/v1/payment', directPayment(sandbox.project))).status).toBe(503);
    const [recorded] = (await listing()).requests as [Listed];
    expect(recorded.status).toBe(503);
    expect(recorded.response).toEqual({
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
      body: { message: 'Injected fault: the sandbox answers HTTP 503', args: { code: 'P-503' } },
    });
  });

  it('records a body over the limit as refused without reading it', async () => {
    sandbox = testSandbox({ bodyLimitBytes: 1024 });
    await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), description: 'x'.repeat(2048) });
    const [recorded] = (await listing()).requests as [Listed];
    expect(recorded).toMatchObject({ status: 413, body: '[larger than the body limit: not read]' });
  });

  it('over HTTP, records the headers as Node received them (a repeated one joined) and the JSON body, masked', async () => {
    const served = await serveSandbox();
    try {
      const project = served.app.sandbox.gateway.defaultProject;
      const body = JSON.stringify(directPayment(project, { card_cvv: CVV, description: `card ${PAN}` }));
      // node:http, to send a header twice as it goes on the wire (fetch would join it first).
      const status = await new Promise<number>((resolve, reject) => {
        const sent = httpRequest(`${served.url}/api/v1/payment`, { method: 'POST', headers: {
          'Content-Type': 'application/json',
          'X-API-AUTH': authHeaderValue(project.apiKey, project.apiSecret),
          'X-API-KEY': project.endpointsKey,
          'X-Trace': ['first', 'second'],
          ['__proto__']: 'a header like any other',
          'User-Agent': `shop/1.0 (card ${PAN})`,
        } }, (answer) => answer.resume().on('end', () => resolve(answer.statusCode ?? 0)));
        sent.on('error', reject);
        sent.end(body);
      });
      expect(status).toBe(200);
      const { requests } = (await (await served.app.request('/_sandbox/requests')).json()) as { requests: Listed[] };
      const [recorded] = requests as [Listed];
      expect(recorded.headers).toMatchObject({
        'x-api-auth': '[redacted]',
        'x-api-key': '[redacted]',
        'x-trace': 'first, second',
        ['__proto__']: 'a header like any other',
        'user-agent': 'shop/1.0 (card [card number])',
        'content-type': 'application/json',
      });
      expect(recorded.body).toMatchObject({ amount: 10.1, cc_number: '[redacted]', card_cvv: '[redacted]', description: 'card [card number]' });
      expect(recorded.response).toMatchObject({ body: { status: 'success', cc_mask: '424242******4242' } });
      const shown = JSON.stringify(requests);
      for (const secret of [PAN, project.apiSecret, project.endpointsKey]) expect(shown).not.toContain(secret);
    } finally {
      await served.close();
    }
  });

  it('keeps the last requests only: the oldest make room', () => {
    const log = new RequestLog(2);
    const record = (id: number) => ({
      id, at: '', method: 'POST', path: `/${id}`, query: {}, headers: {}, body: null, status: 200,
      response: { headers: {}, body: null }, duration_ms: 0, notes: [],
    });
    for (const id of [1, 2, 3]) log.add(record(log.nextId() && id));
    expect(log.since().requests.map((request) => request.id)).toEqual([3, 2]);
    expect(log.since(2).requests.map((request) => request.id)).toEqual([3]);
  });
});

describe('the inspector page at /_sandbox', () => {
  it('shows each request with its webhooks, escaped and masked, under a CSP that allows only its own script', async () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const request = directPayment(sandbox.project, { card_cvv: CVV, description: hostile });
    await sandbox.post('/api/v1/payment', request);
    await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), [hostile]: 1 });
    await sandbox.deliver();

    const answer = await page();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'; connect-src 'self';/);
    const html = await answer.text();
    expect(html).toContain('<script src="./assets/inspector.js" defer></script>');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('POST</span> <code>/api/v1/payment</code>');
    expect(html).toContain(`purchase success → <code>${request.server_url}</code> · delivered, 1 attempt`);
    expect(html).not.toContain(PAN);
    const shown = shownJson(html);
    expect(shown).toContainEqual(expect.objectContaining({ card_cvv: '[redacted]', description: hostile }));
    expectNoCardData(shown);
  });

  it('says on the page what a tolerant project ignored, coerced and waived, and why', async () => {
    const { customer_phone: _phone, ...withoutPhone } = hostedPayment(sandbox.project, { customer_id: null, customer_ip: '203.0.113.7' });
    expect((await sandbox.post('/api/v1/payment', withoutPhone)).status).toBe(303);
    expect((await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { exp_year: 30 }))).status).toBe(200);

    const html = await (await page()).text();
    expect(html).toContain('<strong>Ignored</strong> <code>customer_id</code>: null dropped.');
    expect(html).toContain('<strong>Ignored</strong> <code>customer_ip</code>: not sent in this mode: ignored.');
    expect(html).toContain('<strong>Waived</strong> <code>customer_phone</code>: absent: taken without it.');
    expect(html).toContain('<strong>Coerced</strong> <code>exp_year</code>: two-digit year widened (from <code>two-digit year</code> to <code>four-digit year</code>).');
  });

  it('shows a warning on the page: a payment whose order_id capture, void and refund would refuse', async () => {
    const orderId = 'W'.repeat(40);
    expect((await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { order_id: orderId }))).status).toBe(200);
    const html = await (await page()).text();
    expect(html).toContain(
      '<strong>Warning</strong> <code>order_id</code>: 40 characters: capture, void and refund take an order_id of at most 32 characters, so this payment could never be captured, voided or refunded.',
    );
  });

  it('serves the list alone for the page to refresh, and JSON to everyone else as before', async () => {
    await sandbox.post('/api/v1/payment', directPayment(sandbox.project));
    const fragment = await sandbox.app.request('/_sandbox/requests?format=html');
    expect(fragment.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await fragment.text()).toMatch(/^<ol id="requests"[\s\S]*\/api\/v1\/payment[\s\S]*<\/ol>$/);
    const script = await sandbox.app.request('/assets/inspector.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const projects = (await (await sandbox.control('GET', '/_sandbox')).json()) as { projects: Json[] };
    expect(projects.projects[0]).toMatchObject({ pos_id: sandbox.project.posId, three_d_secure: 'card' });
  });
});
