import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBody, routes, authHeaderValue } from '@payform/gateway/wire';
import { directPayment, hostedPayment, testSandbox } from './testing/in-process.js';
import { serveSandbox } from './testing/served.js';
import type { TestSandbox } from './testing/in-process.js';

type Json = Record<string, unknown>;
let sandbox: TestSandbox;
beforeEach(() => {
  // Strict, so that unknown fields are refused too; leniency.test.ts has the tolerant reading.
  sandbox = testSandbox({ bodyLimitBytes: 4096, projects: [{ strict: true }] });
});

/** Every answer to bad input is the gateway's error body with a 4xx. */
async function expectError(response: Response, status: number): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return ErrorBody.parse(await response.json());
}

/** The fields a 400's violations name, in order. */
const fieldsOf = (body: ErrorBody): string[] => (body.args as { field_name: string }[]).map((arg) => arg.field_name);

async function orderCount(): Promise<number> {
  return sandbox.app.sandbox.gateway.store.orders(sandbox.project.posId).length;
}

describe('bad input never reaches the state', () => {
  it('malformed JSON → 400', async () => {
    const body = await expectError(await sandbox.post('/api/v1/payment', '{"pos_id": "x",'), 400);
    expect(body).toEqual({ message: 'Invalid request: the body is not valid JSON', args: [{ field_name: '', violation: 'the body is not valid JSON' }] });
  });

  it('a key given twice → 400 naming it, in every mode: the amount charged was the last one written', async () => {
    const json = JSON.stringify(directPayment(sandbox.project)).replace('"amount":', '"amount":99999,"amount":');
    const reason = 'is given more than once in its object: JSON readers keep one of them, not all the same one; send it once';
    expect((await expectError(await sandbox.post('/api/v1/payment', json), 400)).args).toEqual([{ field_name: 'amount', violation: reason }]);
    // A key that may be card data is named as `*`, never echoed.
    const keyed = JSON.stringify(directPayment(sandbox.project)).replace('{', '{"4242424242424242":1,"4242424242424242":2,');
    const answer = await expectError(await sandbox.post('/api/v1/payment', keyed), 400);
    expect(answer.args).toEqual([{ field_name: '*', violation: reason }]);
    expect(JSON.stringify(answer)).not.toContain('4242');
    expect(await orderCount()).toBe(0);
  });

  it('a body that is not UTF-8 → 400, not kept with its letters replaced; U+FFFD sent as UTF-8 is text', async () => {
    const json = JSON.stringify(directPayment(sandbox.project, { description: 'Café crème' }));
    const latin1 = await sandbox.call('POST', '/api/v1/payment', { body: Buffer.from(json, 'latin1'), headers: { 'Content-Type': 'application/json; charset=iso-8859-1' } });
    expect(await expectError(latin1, 400)).toEqual({
      message: 'Invalid request: the body is not UTF-8 text: JSON is sent as UTF-8 (RFC 8259)',
      args: [{ field_name: '', violation: 'the body is not UTF-8 text: JSON is sent as UTF-8 (RFC 8259)' }],
    });
    expect(await orderCount()).toBe(0);
    const replacement = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { description: 'sent as \uFFFD' }));
    expect(replacement).toMatchObject({ status: 'success' });
  });

  it('a body that is not application/json → 406, whatever it contains', async () => {
    const json = JSON.stringify(directPayment(sandbox.project));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
      await expectError(await sandbox.call('POST', '/api/v1/payment', { body: json, headers: { 'Content-Type': type } }), 406);
    }
    expect(await orderCount()).toBe(0);
  });

  it('a compressed body → 406 naming its Content-Encoding, not its bytes as text that is not UTF-8', async () => {
    const json = JSON.stringify(directPayment(sandbox.project));
    const gzipped = await sandbox.call('POST', '/api/v1/payment', { body: gzipSync(json), headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } });
    expect(await expectError(gzipped, 406)).toEqual({
      message: 'The body must be JSON sent as it is: a body with Content-Encoding (gzip, br, deflate) is not read',
      args: { code: 'P-406' },
    });
    expect(await orderCount()).toBe(0);
  });

  it('JSON that is not an object, or has wrong types → 400 naming each field', async () => {
    await expectError(await sandbox.post('/api/v1/payment', '[1,2]'), 400);
    await expectError(await sandbox.post('/api/v1/payment', 'null'), 400);
    const body = await expectError(
      await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), amount: 'ten', exp_month: '12', browser_fingerprint: 'yes', extra: 1 }),
      400,
    );
    expect(body.args).toEqual(
      expect.arrayContaining([
        { field_name: 'amount', violation: 'must be a plain decimal number' },
        { field_name: 'exp_month', violation: 'must be a number' },
        { field_name: 'browser_fingerprint', violation: 'must be an object' },
        { field_name: 'extra', violation: 'is not allowed' },
      ]),
    );
    expect(await orderCount()).toBe(0);
  });

  it('a request whose mode or method picks no variant → 400 naming that and every shared field that is wrong', async () => {
    for (const tried of [sandbox, testSandbox()]) {
      const empty = await expectError(await tried.post('/api/v1/payment', {}), 400);
      expect(fieldsOf(empty)).toEqual(['mode', 'method', 'pos_id', 'amount', 'currency', 'description', 'order_id', 'order_3ds_bypass']);
      expect(empty.args).toContainEqual({ field_name: 'mode', violation: 'is required' });
      // A payout is this endpoint's too: an unknown method is told it, beside what else is wrong.
      const p2p = await expectError(await tried.post('/api/v1/payment', { ...directPayment(tried.project), method: 'p2p', amount: -1 }), 400);
      expect(p2p.args).toEqual([
        { field_name: 'method', violation: 'must be one of auth, purchase, lookup, credit' },
        { field_name: 'amount', violation: 'must be greater than 0' },
      ]);
      const split = await expectError(await tried.post('/api/v1/split/purchase', { mode: 'widget', pos_id: tried.project.posId }), 400);
      expect(fieldsOf(split)).toEqual(['mode', 'method', 'amount', 'currency', 'description', 'order_id', 'order_3ds_bypass', 'split']);
      expect(split.args).toContainEqual({ field_name: 'mode', violation: 'must be one of direct, hosted' });
      expect(tried.app.sandbox.gateway.store.orders(tried.project.posId)).toHaveLength(0);
    }
  });

  it('never echoes a card number: a number in the wrong field or failing Luhn is named, not quoted', async () => {
    const response = await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), cc_number: '4242424242424241', customer_id: 4242424242424242 });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text).not.toMatch(/424242424242424/);
    expect(text).toContain('fails the Luhn check');
  });

  it('masks a refused CVV\'s figures only: another field\'s limits stay as they are, in the message as in the args', async () => {
    const body = await expectError(await sandbox.post('/api/v1/payment', { ...directPayment(sandbox.project), card_cvv: '12', description: 'x'.repeat(2049), exp_year: 2150 }), 400);
    const said = (body.args as { field_name: string; violation: string }[]).map(({ field_name, violation }) => `${field_name}: ${violation}`);
    expect(said).toEqual(['description: must be at most 2048 characters', 'exp_year: must be at most 2099', 'card_cvv: must be 3 or 4 digits']);
    expect(body.message).toBe(`Invalid request: ${said.join('; ')}`);
  });

  it('an amount a float wrote with all its digits → 400 in every mode, though it parses as 10.1', async () => {
    for (const tolerant of [sandbox, testSandbox()]) {
      const json = JSON.stringify({ ...directPayment(tolerant.project), amount: 10.1 }).replace('"amount":10.1', '"amount":10.099999999999999');
      const body = await expectError(await tolerant.post('/api/v1/payment', json), 400);
      expect(body.args).toEqual([{ field_name: 'amount', violation: expect.stringMatching(/^must have at most 2 decimal digits as written/) }]);
      expect(tolerant.app.sandbox.gateway.store.orders(tolerant.project.posId)).toHaveLength(0);
    }
    const both = JSON.stringify({ ...directPayment(sandbox.project), amount: 10.1, extra: 1 }).replace('"amount":10.1', '"amount":10.100');
    expect((await expectError(await sandbox.post('/api/v1/payment', both), 400)).args).toEqual([
      { field_name: 'amount', violation: expect.stringMatching(/^must have at most 2 decimal digits/) },
      { field_name: 'extra', violation: 'is not allowed' },
    ]);
  });

  it('an `amount` that is no amount of the interface (a product\'s, an unknown field\'s) keeps its decimals', async () => {
    for (const tried of [sandbox, testSandbox()]) {
      const products = [{ name: 'Cheese, by weight', price: 10.5, amount: 0.125 }];
      const response = await tried.post('/api/v1/payment', { ...directPayment(tried.project), products });
      expect(response.status, await response.clone().text()).toBe(200);
    }
    const tolerant = testSandbox();
    const unknown = await tolerant.post('/api/v1/payment', { ...directPayment(tolerant.project), meta: { amount: 1.234 } });
    expect(unknown.status, await unknown.clone().text()).toBe(200);
  });

  it('an order_id no path could name, or holding a control character → 400 in every mode, and no order', async () => {
    const cases = [
      ['ord\ud800-1', 'must be valid Unicode: it holds half of a surrogate pair'],
      ['ord\u0000-1', 'must not hold control characters'],
      ['ord\n1', 'must not hold control characters'],
    ] as const;
    for (const tried of [sandbox, testSandbox()]) {
      for (const [orderId, violation] of cases) {
        const body = await expectError(await tried.post('/api/v1/payment', { ...directPayment(tried.project), order_id: orderId }), 400);
        expect(body.args).toEqual([{ field_name: 'order_id', violation }]);
      }
      // A pair is one character, and stays welcome.
      expect((await tried.post('/api/v1/payment', { ...directPayment(tried.project), order_id: 'ord-\u{1F600}' })).status).toBe(200);
      expect(tried.app.sandbox.gateway.store.orders(tried.project.posId).map((order) => order.orderId)).toEqual(['ord-\u{1F600}']);
    }
  });

  it('an oversize body → 413, declared or streamed', async () => {
    const big = { ...directPayment(sandbox.project), description: 'x'.repeat(5000) };
    await expectError(await sandbox.post('/api/v1/payment', big), 413);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
        controller.close();
      },
    });
    const streamed = await sandbox.app.request('/api/v1/payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      // @ts-expect-error undici needs duplex for a stream body; the DOM type does not know it
      duplex: 'half',
    });
    await expectError(streamed, 413);
    expect(await orderCount()).toBe(0);
  });

  it('over HTTP, an oversize body → 413 by its declared length before it is sent, or while a chunked one is read', async () => {
    const served = await serveSandbox({ bodyLimitBytes: 4096 });
    try {
      const project = served.app.sandbox.gateway.defaultProject;
      const headers = {
        'X-API-AUTH': authHeaderValue(project.apiKey, project.apiSecret),
        'X-API-KEY': project.endpointsKey,
        'Content-Type': 'application/json',
      };
      /** Sends the head and `chunks` (none: a body announced and never sent); the answer's status and body. */
      const send = (head: Record<string, string>, chunks: string[]) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const outgoing = request(`${served.url}/api/v1/payment`, { method: 'POST', headers: { ...headers, ...head } }, (incoming) => {
            let body = '';
            incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
            incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
          });
          outgoing.on('error', reject);
          if (chunks.length === 0) return void outgoing.flushHeaders();
          for (const chunk of chunks) outgoing.write(chunk);
          outgoing.end();
        });
      const big = JSON.stringify({ ...directPayment(project), description: 'x'.repeat(5000) });
      const declared = await send({ 'Content-Length': String(big.length) }, []);
      expect(declared.status).toBe(413);
      expect(ErrorBody.parse(JSON.parse(declared.body)).args).toEqual({ code: 'P-413' });
      const chunked = await send({ 'Transfer-Encoding': 'chunked' }, [big.slice(0, 3000), big.slice(3000)]);
      expect(chunked.status).toBe(413);
      const small = JSON.stringify(directPayment(project));
      const fits = await send({ 'Content-Length': String(Buffer.byteLength(small)) }, [small]);
      expect(fits.status, fits.body).toBe(200);
      expect(served.app.sandbox.gateway.store.orders(project.posId)).toHaveLength(1);
    } finally {
      await served.close();
    }
  });

  it('over HTTP, a client that closes the connection inside its body is recorded as a 400 of its own making, not a fault', async () => {
    const lines: string[] = [];
    const served = await serveSandbox({ log: (line) => lines.push(line) });
    try {
      const project = served.app.sandbox.gateway.defaultProject;
      const socket = connect(Number(new URL(served.url).port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        `POST /api/v1/payment HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n` +
          `X-API-AUTH: ${authHeaderValue(project.apiKey, project.apiSecret)}\r\nX-API-KEY: ${project.endpointsKey}\r\n\r\n{"pos_id":`,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      const recorded = async () => ((await (await served.app.request('/_sandbox/requests')).json()) as { requests: { status: number; response: unknown }[] }).requests;
      await vi.waitFor(async () => expect(await recorded()).toHaveLength(1));
      expect((await recorded())[0]).toMatchObject({ status: 400, response: { body: { args: [{ field_name: '', violation: expect.stringMatching(/^the body ended before/) }] } } });
      expect(lines).toEqual([]);
    } finally {
      await served.close();
    }
  });

  it('a wrong method → 405 with Allow; an unknown path → 404', async () => {
    const wrong = await sandbox.call('GET', '/api/v1/payment');
    await expectError(wrong, 405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const put = await sandbox.call('DELETE', `/api/v1/balances/pos/${sandbox.project.posId}/accounts`);
    await expectError(put, 405);
    expect(put.headers.get('allow')).toContain('GET');
    const body = await expectError(await sandbox.call('POST', '/api/v2/payment', { body: {} }), 404);
    expect(body.args).toEqual({ code: 'P-404' });
    await expectError(await sandbox.call('GET', '/nowhere'), 404);
  });

  it('a 404 outside /api/v1, or with a trailing or double slash, names where the endpoint is', async () => {
    const message = async (method: string, path: string) => (await expectError(await sandbox.call(method, path, { body: method === 'POST' ? {} : undefined }), 404)).message;
    expect(await message('POST', '/payment')).toBe('POST /payment not found: the interface is under /api/v1, POST /api/v1/payment');
    expect(await message('POST', '/api/v2/payment')).toBe('POST /api/v2/payment not found: the interface is under /api/v1, POST /api/v1/payment');
    expect(await message('POST', '/v1/split/purchase')).toBe('POST /v1/split/purchase not found: the interface is under /api/v1, POST /api/v1/split/purchase');
    expect(await message('GET', `/balances/pos/${sandbox.project.posId}/accounts`)).toBe(
      `GET /balances/pos/${sandbox.project.posId}/accounts not found: the interface is under /api/v1, GET /api/v1/balances/pos/${sandbox.project.posId}/accounts`,
    );
    expect(await message('POST', '/api/v1/payment/')).toBe('POST /api/v1/payment/ not found: no trailing or double slash, POST /api/v1/payment');
    expect(await message('POST', '/api/v1//refund')).toBe('POST /api/v1//refund not found: no trailing or double slash, POST /api/v1/refund');
    expect(await message('GET', '/_sandbox/webhooks/')).toBe('GET /_sandbox/webhooks/ not found: no trailing or double slash, GET /_sandbox/webhooks');
    expect(await message('GET', '/nowhere')).toBe('GET /nowhere not found: the interface is under /api/v1 (POST /api/v1/payment…), the control plane under /_sandbox');
    for (const probe of ['/healthz', '/readyz', '/livez']) expect(await message('GET', probe)).toBe(`GET ${probe} not found: the sandbox’s health check is GET /health`);
    // Under /api/v1 an unknown path is only not found.
    expect(await message('POST', '/api/v1/payments')).toBe('POST /api/v1/payments not found');
  });

  it('a missing or wrong X-API-AUTH or X-API-KEY → 401 on every endpoint that needs it', async () => {
    const posted = directPayment(sandbox.project);
    const variants: Record<string, string>[] = [
      { 'X-API-AUTH': '' },
      { 'X-API-AUTH': 'Basic c2FuZGJveDp4' },
      { 'X-API-AUTH': `CPAY ${sandbox.project.apiKey}:wrong-secret` },
      { 'X-API-AUTH': `CPAY unknown-key:${sandbox.project.apiSecret}` },
      { 'X-API-KEY': '' },
      { 'X-API-KEY': 'wrong-endpoints-key' },
    ];
    for (const headers of variants) {
      await expectError(await sandbox.call('POST', routes.createPayment.path, { body: posted, headers }), 401);
    }
    expect(await orderCount()).toBe(0);
  });

  it('a 401 says which part of the credentials failed, never the secret, and logs each cause once', async () => {
    const lines: string[] = [];
    sandbox = testSandbox({ log: (line) => lines.push(line) });
    const { apiKey, apiSecret, endpointsKey, posId } = sandbox.project;
    const body = JSON.stringify(directPayment(sandbox.project));
    const post = async (headers: Record<string, string>) => {
      const answer = await sandbox.app.request(routes.createPayment.path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
      return (await expectError(answer, 401)).message;
    };
    const shape = 'X-API-AUTH: CPAY <API key>:<API secret>';
    expect(await post({ 'X-API-KEY': endpointsKey })).toBe(`Invalid credentials: no X-API-AUTH header: send ${shape}`);
    expect(await post({ Authorization: `CPAY ${apiKey}:${apiSecret}`, 'X-API-KEY': endpointsKey })).toBe(
      `Invalid credentials: no X-API-AUTH header, and an Authorization header instead: the gateway reads ${shape}`,
    );
    expect(await post({ 'X-API-AUTH': `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}` })).toBe(`Invalid credentials: X-API-AUTH must start with "CPAY ", not "Basic", as ${shape}`);
    expect(await post({ 'X-API-AUTH': `cpay ${apiKey}:${apiSecret}` })).toBe(`Invalid credentials: X-API-AUTH must start with "CPAY ", not "cpay" (in capitals), as ${shape}`);
    expect(await post({ 'X-API-AUTH': `${apiKey}:${apiSecret}` })).toBe(`Invalid credentials: X-API-AUTH has no scheme: it must start with "CPAY ", as ${shape}`);
    // The scheme alone: "no scheme" said that of a header that named one.
    expect(await post({ 'X-API-AUTH': 'CPAY ' })).toBe(`Invalid credentials: X-API-AUTH has no credentials after "CPAY": send ${shape}`);
    expect(await post({ 'X-API-AUTH': `CPAY ${apiKey} ${apiSecret}` })).toBe('Invalid credentials: X-API-AUTH must be "CPAY <API key>:<API secret>": the key, a colon and the secret, with no other spaces');
    expect(await post({ 'X-API-AUTH': `CPAY unknown-key:${apiSecret}` })).toBe('Invalid credentials: the API key "unknown-key" is no project\'s (GET /_sandbox lists the projects)');
    // A long key is cut after its card number is masked, so no part of one is left to read.
    expect(await post({ 'X-API-AUTH': `CPAY ${'k'.repeat(50)}4111111111111111:${apiSecret}` })).not.toMatch(/4111|1111111/);
    expect(await post({ 'X-API-AUTH': `CPAY ${apiSecret}:${apiKey}` })).toBe(`Invalid credentials: the API key sent is project "payform test shop"'s API secret: send the key first, as ${shape}`);
    expect(await post({ 'X-API-AUTH': `CPAY ${apiKey}:not-the-secret` })).toBe(`Invalid credentials: wrong API secret for project "payform test shop" (API key "${apiKey}")`);
    expect(await post({ 'X-API-AUTH': `CPAY ${apiKey}:${apiSecret}` })).toBe('Missing X-API-KEY: this endpoint needs project "payform test shop"\'s endpoints key in it');
    expect(await post({ 'X-API-AUTH': `CPAY ${apiKey}:${apiSecret}`, 'X-API-KEY': 'wrong' })).toBe('Invalid X-API-KEY: it is not project "payform test shop"\'s endpoints key');
    expect(await post({ 'X-API-AUTH': `CPAY ${apiKey}:not-the-secret` })).toContain('wrong API secret'); // again: not logged again
    const other = '00000000-0000-4000-8000-000000000000';
    const foreign = await sandbox.post(routes.createPayment.path, directPayment(sandbox.project, { pos_id: other }));
    expect((await expectError(foreign, 401)).message).toBe(`Invalid pos_id for these credentials: they are project "payform test shop"'s, whose pos_id is ${posId}`);

    expect(lines).toHaveLength(14);
    expect(lines[13]).toBe(`401 on POST /api/v1/payment: Invalid pos_id for these credentials: they are project "payform test shop"'s, whose pos_id is ${posId} (said once)`);
    expect(lines[0]).toBe(`401 on POST /api/v1/payment: Invalid credentials: no X-API-AUTH header: send ${shape} (said once)`);
    for (const line of lines) expect(line).not.toContain(apiSecret);
    for (const line of lines) expect(line).not.toMatch(/4111/);
  });

  it('a path whose percent-escapes spell no UTF-8 → 400 naming the path, not 404 for an order named so', async () => {
    const paid = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project));
    const orders = `/api/v1/pos/${sandbox.project.posId}/orders`;
    for (const broken of ['%E0%A4%A', '%FF', `${String(paid.order_id)}%`]) {
      const body = await expectError(await sandbox.get(`${orders}/${broken}`), 400);
      expect(fieldsOf(body), broken).toEqual(['path']);
    }
    // Escapes of UTF-8 are read as ever.
    expect((await sandbox.get(`${orders}/${encodeURIComponent(String(paid.order_id))}`)).status).toBe(200);
    await expectError(await sandbox.get(`${orders}/${encodeURIComponent('замовлення-1')}`), 404);
  });

  it('X-API-KEY is required on the webhook re-send and not on order-state reads, as the interface\'s table says', async () => {
    const paid = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project));
    const order = `/api/v1/pos/${sandbox.project.posId}/orders/${paid.order_id}`;
    const noKey = { 'X-API-KEY': '' };
    expect((await sandbox.get(order, noKey)).status).toBe(200);
    expect((await sandbox.get(`${order}/purchase`, noKey)).status).toBe(200);
    await expectError(await sandbox.get(`${order}/purchase?callback=true`, noKey), 401);
    await expectError(await sandbox.get(`${order}/purchase?callback=true`, { 'X-API-KEY': 'wrong-endpoints-key' }), 401);
    await expectError(await sandbox.get(`${order}/report/receipt`, noKey), 401);
    expect((await sandbox.get(order)).status).toBe(200);
  });

  it('header names are case-insensitive', async () => {
    const response = await sandbox.app.request('/api/v1/payment', {
      method: 'POST',
      headers: {
        'x-api-auth': `CPAY ${sandbox.project.apiKey}:${sandbox.project.apiSecret}`,
        'X-Api-Key': sandbox.project.endpointsKey,
        'content-type': 'Application/JSON; charset=utf-8',
      },
      body: JSON.stringify(directPayment(sandbox.project)),
    });
    expect(response.status).toBe(200);
  });

  it('amounts too large to hold exactly → 400; above the project limit → a 4012 decline', async () => {
    const body = await expectError(await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { amount: 1e20 })), 400);
    expect(body.args).toEqual([{ field_name: 'amount', violation: 'must be at most 9999999999999.99' }]);
    const auth = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { method: 'auth' }));
    await expectError(await sandbox.post('/api/v1/capture', { pos_id: sandbox.project.posId, order_id: auth.order_id, order_currency: 'UAH', charge_amount: '99999999999999999999.99' }), 400);
    const limited = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { amount: 100_000_000.01 }));
    expect(limited).toMatchObject({ status: 'failure', status_code: '4012' });
    const longLived = hostedPayment(sandbox.project, { order_timeout: Number.MAX_SAFE_INTEGER });
    expect((await sandbox.post('/api/v1/payment', longLived)).status).toBe(303);
    expect(await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${longLived.order_id}`)).toHaveLength(1);
  });

  it('a pos_id in the body that is not the credentials’ project → 401', async () => {
    await expectError(await sandbox.post('/api/v1/payment', directPayment(sandbox.project, { pos_id: '00000000-0000-4000-8000-000000000000' })), 401);
  });

  it('leaves an existing order untouched by refused operations', async () => {
    const payment = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { method: 'auth', amount: 10 }));
    const orderId = String(payment.order_id);
    const before = await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${orderId}`);
    await expectError(await sandbox.post('/api/v1/capture', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', charge_amount: -5 }), 400);
    await expectError(await sandbox.post('/api/v1/capture', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'uah' }), 400);
    await expectError(await sandbox.post('/api/v1/capture', { pos_id: sandbox.project.posId, order_id: orderId, order_currency: 'UAH', amount: 5 }), 400);
    await expectError(await sandbox.post('/api/v1/refund', '{"pos_id":'), 400);
    await expectError(await sandbox.post('/api/v1/void', { pos_id: sandbox.project.posId, order_id: orderId }), 400);
    expect(await sandbox.getJson<Json[]>(`/api/v1/pos/${sandbox.project.posId}/orders/${orderId}`)).toEqual(before);
  });

  it('bad control-plane commands get the same treatment', async () => {
    const control = (path: string, method: string, body: string, type = 'application/json') =>
      sandbox.app.request(path, { method, headers: { 'Content-Type': type }, body });
    await expectError(await control('/_sandbox/faults', 'PUT', '{"error_rate": 2}'), 400);
    await expectError(await control('/_sandbox/faults', 'PUT', '{"error_rate": 1', 'application/json'), 400);
    await expectError(await control('/_sandbox/faults', 'PUT', 'error_rate=1', 'text/plain'), 406);
    await expectError(await control('/_sandbox/clock', 'POST', '{"advance_ms": -1}'), 400);
    await expectError(await control('/_sandbox/clock', 'POST', '{}'), 400);
    await expectError(await control('/_sandbox/3ds/00000000-0000-4000-8000-000000000000', 'POST', '{"result":"success"}'), 404);
    await expectError(await control('/_sandbox/3ds/00000000-0000-4000-8000-000000000000', 'POST', '{"result":"maybe"}'), 400);
    await expectError(await control('/_sandbox/credits', 'POST', '{"order_id":"c","amount_minor":1.5,"currency":"JPY"}'), 400);
    await expectError(await control('/_sandbox/credits', 'POST', '{"order_id":"c","amount":"1.5","currency":"JPY"}'), 400);
    await expectError(await control('/_sandbox/reset', 'GET', undefined as unknown as string), 405);
    // A reset that says something else forgets nothing.
    const kept = await sandbox.postJson<{ order_id: string }>('/api/v1/payment', directPayment(sandbox.project));
    for (const body of ['{', '[]', 'null', '{"x":1}']) await expectError(await control('/_sandbox/reset', 'POST', body), 400);
    expect(await sandbox.getJson(`/api/v1/pos/${sandbox.project.posId}/orders/${kept.order_id}`)).toHaveLength(1);
    expect((await control('/_sandbox/reset', 'POST', '')).status).toBe(200);
    expect((await control('/_sandbox/reset', 'POST', '{}')).status).toBe(200);
  });
});

describe('no input makes the sandbox fail', () => {
  const oddValues: unknown[] = [null, true, -1, 0, 1e308, 1e-7, '', 'x'.repeat(3000), '1e3', [], {}, [{}], { amount: 'x' }, '../../etc', '😀'];

  /** Each field of a valid request replaced by each odd value (and removed). */
  function* mutations(valid: Record<string, unknown>): Generator<Record<string, unknown>> {
    for (const field of Object.keys(valid)) {
      const { [field]: _, ...without } = valid;
      yield without;
      for (const value of oddValues) yield { ...valid, [field]: value };
    }
  }

  it('answers every mutated create, capture and refund request with a 2xx, 3xx or 4xx — never a 5xx', async () => {
    const auth = await sandbox.postJson('/api/v1/payment', directPayment(sandbox.project, { method: 'auth', amount: 50 }));
    const target = { pos_id: sandbox.project.posId, order_id: String(auth.order_id), order_currency: 'UAH' };
    const cases: [string, Record<string, unknown>][] = [
      ['/api/v1/payment', directPayment(sandbox.project)],
      ['/api/v1/capture', { ...target, charge_amount: 10, comment: 'c' }],
      ['/api/v1/refund', { ...target, refund_amount: 5, f_receipt_delivery: 'email' }],
      ['/_sandbox/faults', { latency_ms: 0, error_rate: 0, scope: { path: '/api/v1/nothing' } }],
    ];
    const statuses = new Set<number>();
    for (const [path, valid] of cases) {
      for (const body of mutations(valid)) {
        const response = path.startsWith('/_sandbox') ? await sandbox.control('PUT', path, body) : await sandbox.post(path, body);
        statuses.add(response.status);
        expect(response.status, `${path} ${JSON.stringify(body).slice(0, 200)}`).toBeLessThan(500);
        await response.arrayBuffer();
      }
    }
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 400]));
    await sandbox.control('DELETE', '/_sandbox/faults');
  });

  it('answers odd paths and parameters on every read with a 4xx, never a 5xx', async () => {
    const odd = ['%00', '%2e%2e', 'a'.repeat(300), '%F0%9F%98%80', '00000000-0000-0000-0000-000000000000'];
    for (const value of odd) {
      for (const path of [
        `/api/v1/balances/pos/${value}/accounts`,
        `/api/v1/balances/pos/${sandbox.project.posId}/terminals/${value}`,
        `/api/v1/pos/${sandbox.project.posId}/orders/${value}`,
        `/api/v1/pos/${sandbox.project.posId}/orders/${value}/purchase?callback=true&transactionId=${value}`,
        `/api/v1/pos/${sandbox.project.posId}/orders/${value}/report/receipt?format=pdf&transactionId=${value}`,
        `/api/v1/pos/${sandbox.project.posId}/date/${value}/report/receipt?format=html`,
        `/api/v1/checkout/${value}/form`,
        `/3ds/${value}`,
        `/receipts/${value}`,
      ]) {
        const response = await sandbox.get(path);
        expect(response.status, path).toBeLessThan(500);
        // `..` is resolved by URL parsing before routing: /3ds/%2e%2e is the front page.
        if (value !== '%2e%2e') expect(response.status, path).toBeGreaterThanOrEqual(400);
      }
    }
  });
});
