/**
 * Retries, timeouts and outcome rules, over real HTTP against the gateway double. Attempts are
 * counted from the requests the double recorded.
 */
import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError, DuplicateOrderError, GatewayUnavailableError, InvalidRequestError, NetworkError, NetworkTimeoutError,
  NotFoundError, NotTheGatewayError, OutcomeUnknownError, RateLimitError, UnexpectedResponseError,
} from './errors.js';
import type { GatewayCallRecord } from './transport.js';
import { CREDENTIALS, useGatewayDouble } from './test/client-setup.js';
import { routePath, routes } from './wire/routes.js';
import * as samples from './test/samples.js';

const double = useGatewayDouble();
const capture = { order_id: 'order-1001', order_currency: 'UAH', charge_amount: 750 } as const;
const unavailable = { status: 503, body: { message: 'Service unavailable' } };
const customer = { customer_email: 'a@example.com', customer_phone: '+380501234567' } as const;
const { pos_id: _pos, ...directPayment } = { ...samples.directPurchase, amount: 1010 } as const;
/**
 * A client's timeout for a call the double leaves hanging, where the test counts the requests
 * that reached the double: long enough that, on a loaded machine, the request arrives before the
 * client gives up (at 50 ms, under a full test run, one did not).
 */
const HUNG_CALL_TIMEOUT_MS = 300;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('error answers over HTTP', () => {
  it.each([
    [400, { message: 'Invalid data', args: [{ field_name: 'order_id', violation: 'unknown order' }] }, InvalidRequestError],
    [401, { message: 'Invalid credentials', args: { code: 'AUTH' } }, AuthenticationError],
    [404, { message: 'Payment not found', args: null }, NotFoundError],
    [405, { message: 'Method not allowed' }, InvalidRequestError],
    [406, { message: 'Body must be application/json' }, InvalidRequestError],
    [409, { message: 'Duplicate', args: { code: 'P-409' } }, DuplicateOrderError],
    [429, { message: 'Too many requests' }, RateLimitError],
  ])('HTTP %i on a capture is a definite %s, not an unknown outcome', async (status, body, type) => {
    double.gateway.answer({ status, body });
    const error = await failure(double.client().operations.capture(capture));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, message: body.message });
    expect(double.gateway.requests).toHaveLength(1);
  });

  it("records what a refusal of the credentials said, each credential it quotes named instead, and keeps them out of its error", async () => {
    const apiSecret = 'live-secret-4f9a8b7c6d5e4f3a';
    const records: GatewayCallRecord[] = [];
    const client = double.client({ apiSecret, retry: { maxRetries: 0 } });
    client.onCall((record) => records.push(record));
    // A gateway that quotes the header it refused, and a secret sent where the key goes, cut short.
    const message = `Invalid credentials: X-API-AUTH "CPAY test-key:${apiSecret}" refused; API key ${apiSecret.slice(0, 18)}… is unknown`;
    double.gateway.answer({ status: 401, body: { message, args: { code: 'AUTH-401' } } });
    const refused = await failure(client.balances.listAccounts());
    double.gateway.answer({ status: 403, body: { message: `X-API-KEY\n${CREDENTIALS.endpointsKey} is not allowed` } });
    await failure(client.receipts.forOrder('order-1001', { format: 'pdf' }));
    double.gateway.answer({ body: { accounts: [] } });
    await client.balances.listAccounts();
    expect(records.map((record) => [record.outcome, record.said])).toEqual([
      [401, 'Invalid credentials: X-API-AUTH "CPAY [API key]:[API secret]" refused; API key [API secret] is unknown (AUTH-401)'],
      [403, 'X-API-KEY [endpoints key] is not allowed'],
      [200, undefined],
    ]);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).message).toBe('Invalid credentials: X-API-AUTH "CPAY [API key]:[API secret]" refused; API key [API secret] is unknown');
    expect(inspect(refused)).not.toMatch(/live-secret|test-key/);
  });

  it('records at most 200 characters of a refusal, card data masked, and nothing of one without a message', async () => {
    const records: GatewayCallRecord[] = [];
    const client = double.client({ retry: { maxRetries: 0 } });
    client.onCall((record) => records.push(record));
    double.gateway.answer({ status: 401, body: { message: `Card 4242 4242 4242 4242 refused: ${'no such project. '.repeat(30)}`, args: { code: 'P-401' } } });
    await failure(client.balances.listAccounts());
    double.gateway.answer({ status: 401, body: '<html>Unauthorized</html>', headers: { 'content-type': 'text/html' } });
    await failure(client.balances.listAccounts());
    const [long, page] = records;
    expect(long?.said).toMatch(/^Card \[card number\] refused: no such project\. no such/);
    expect(long?.said).toHaveLength(200);
    expect(long?.said?.endsWith('…')).toBe(true);
    expect(page?.said).toBeUndefined();
  });

  it('names the fields of a 400 with violations', async () => {
    double.gateway.answer({ status: 400, body: { message: 'Invalid data', args: [{ field_name: 'order_currency', violation: 'does not match the order' }] } });
    const error = await failure(double.client().operations.capture(capture));
    expect((error as InvalidRequestError).fields).toEqual([{ field: 'order_currency', reason: 'does not match the order' }]);
  });

  it('reads a 500 with an HTML body on a read as GatewayUnavailableError', async () => {
    double.gateway.answerAlways({ status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>Oops</h1>' });
    const error = await failure(double.client({ retry: { maxRetries: 0 } }).balances.listAccounts());
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ status: 500, message: `The gateway answered HTTP 500 to GET ${double.gateway.url}/api/v1/balances/pos/${samples.POS_ID}/accounts` });
  });

  it('names the method and address asked when what answers is not the gateway, never the query', async () => {
    // A web server of the shop's at the base URL: its own 404 page, no error body of the gateway's.
    double.gateway.answerAlways({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not Found</h1>' });
    const client = double.client({ baseUrl: `${double.gateway.url}/shop/`, retry: { maxRetries: 0 } });
    const read = await failure(client.orders.resendWebhook('order-1001', 'purchase', { transactionId: 'tx-77' }));
    expect(read).toBeInstanceOf(NotFoundError);
    expect((read as NotFoundError).message).toBe(
      `The gateway answered HTTP 404 to GET ${double.gateway.url}/shop/api/v1/pos/${samples.POS_ID}/orders/order-1001/purchase, a page and not the gateway's JSON (check the base URL)`,
    );
    const sent = await failure(double.client({ baseUrl: `${double.gateway.url}/shop` }).operations.capture(capture));
    expect((sent as NotFoundError).message).toBe(`The gateway answered HTTP 404 to POST ${double.gateway.url}/shop/api/v1/capture, a page and not the gateway's JSON (check the base URL)`);
    // The gateway's own 404, an order it does not know, is JSON and says so itself.
    double.gateway.answer({ status: 404, body: { message: 'Payment not found' } });
    expect(await failure(double.client().operations.capture(capture))).toMatchObject({ message: 'Payment not found' });
  });

  it('names the address that answered a page where JSON was due (a site answering every path)', async () => {
    double.gateway.answerAlways({ headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Shop</title>' });
    const error = await failure(double.client({ retry: { maxRetries: 0 } }).orders.resendWebhook('order-1001', 'purchase'));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).message).toBe(`The answer from ${double.gateway.url}/api/v1/pos/${samples.POS_ID}/orders/order-1001/purchase is not JSON`);
  });
});

describe('retrying reads', () => {
  it('retries 5xx with backoff and succeeds', async () => {
    double.gateway.answer(unavailable, { status: 500, body: {} }, { body: { accounts: [] } });
    expect(await double.client().balances.listAccounts()).toEqual([]);
    expect(double.gateway.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with the last error', async () => {
    double.gateway.answerAlways(unavailable);
    const error = await failure(double.client({ retry: { maxRetries: 3, initialDelayMs: 1 } }).orders.get('order-1001'));
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(double.gateway.requests).toHaveLength(4);
  });

  it('honours Retry-After on 429', async () => {
    double.gateway.answer({ status: 429, headers: { 'retry-after': '0' }, body: { message: 'slow down' } }, { body: { accounts: [] } });
    await double.client().balances.listAccounts();
    expect(double.gateway.requests).toHaveLength(2);
  });

  it('stops when Retry-After asks for longer than the policy allows', async () => {
    double.gateway.answer({ status: 429, headers: { 'retry-after': '120' }, body: { message: 'slow down' } });
    const error = await failure(double.client().balances.listAccounts());
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 120_000 });
    expect(double.gateway.requests).toHaveLength(1);
  });

  it('retries a dropped connection', async () => {
    double.gateway.answer({ drop: true }, { body: { accounts: [] } });
    await double.client().balances.listAccounts();
    expect(double.gateway.requests).toHaveLength(2);
  });

  it('does not retry definite answers', async () => {
    double.gateway.answerAlways({ status: 404, body: { message: 'No such order' } });
    await expect(double.client().orders.get('nope')).rejects.toBeInstanceOf(NotFoundError);
    expect(double.gateway.requests).toHaveLength(1);
  });

  it('retries a read that timed out, then reports the timeout', async () => {
    double.gateway.answerAlways({ hang: true });
    // Long enough for each attempt's request to be written on a busy machine, which may deliver
    // the second one only after the client has given up on it.
    const error = await failure(double.client({ timeoutMs: 300, retry: { maxRetries: 1, initialDelayMs: 1 } }).orders.get('order-1001'));
    expect(error).toBeInstanceOf(NetworkTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 300 });
    await vi.waitFor(() => expect(double.gateway.requests).toHaveLength(2));
  });
});

describe('money-moving calls are sent once', () => {
  it('a 503 on create is an unknown outcome, with one attempt', async () => {
    double.gateway.answerAlways(unavailable);
    const create = double.client().payments.create({
      mode: 'hosted', method: 'purchase', amount: 100, currency: 'UAH', description: 'd', order_id: 'order-77',
      customer_email: 'a@example.com', customer_phone: '+380501234567',
    });
    const error = await failure(create);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ orderId: 'order-77', operation: 'create payment', status: 503 });
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(GatewayUnavailableError);
    expect((error as Error).message).toMatch(/read the order's state/);
    expect(double.gateway.requests).toHaveLength(1);
  });

  it('a timeout on capture is an unknown outcome', async () => {
    double.gateway.answerAlways({ hang: true });
    const error = await failure(double.client({ timeoutMs: HUNG_CALL_TIMEOUT_MS }).operations.capture(capture));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(NetworkTimeoutError);
    expect(double.gateway.requests).toHaveLength(1);
  });

  it('a dropped connection on refund is an unknown outcome', async () => {
    double.gateway.answerAlways({ drop: true });
    const client = double.client();
    const records: GatewayCallRecord[] = [];
    client.onCall((record) => records.push(record));
    const error = await failure(client.operations.refund({ order_id: 'order-1001', order_currency: 'UAH' }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(NetworkError);
    expect(double.gateway.requests).toHaveLength(1);
    // Observers learn the request may have got there: connected, then cut before the answer.
    expect(records).toMatchObject([{ outcome: 'network', dropped: true }]);
  });

  it('an unreadable success answer on void is an unknown outcome', async () => {
    double.gateway.answer({ body: 'not json' });
    const error = await failure(double.client().operations.void({ order_id: 'order-1001', order_currency: 'UAH' }));
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(UnexpectedResponseError);
  });

  it('a timeout on cancel and split refund is an unknown outcome too', async () => {
    double.gateway.answerAlways({ hang: true });
    const client = double.client({ timeoutMs: HUNG_CALL_TIMEOUT_MS });
    await expect(client.payments.cancel('order-1002')).rejects.toBeInstanceOf(OutcomeUnknownError);
    const splitRefund = client.operations.splitRefund({
      order_id: 'order-1001', currency: 'UAH', refund_amount: 100, split: [{ amount: 100, sub_merchant_id: samples.SUB_MERCHANT_A }],
    });
    await expect(splitRefund).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(double.gateway.requests).toHaveLength(2);
  });

  it('a connection that never opened is a plain NetworkError: nothing happened', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = double.client({ baseUrl: `http://127.0.0.1:${port}` });
    const records: GatewayCallRecord[] = [];
    client.onCall((record) => records.push(record));
    const error = await failure(client.operations.capture(capture));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ connectFailed: true, target: `POST http://127.0.0.1:${port}/api/v1/capture` });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ outcome: 'network' });
    expect(records[0]).not.toHaveProperty('dropped');
    // The message names where it went, so a wrong base URL is visible in the first log line.
    expect((error as Error).message).toContain(`http://127.0.0.1:${port}/api/v1/capture`);
  });

  it('a request the runtime would not send says what the runtime said, not only "connection failed"', async () => {
    // Deno without --allow-net: an error with no system code, before any connection.
    const refused = new Error(`Requires net access to "127.0.0.1:9", run again with the --allow-net flag\n    at fetch (ext:deno_fetch)`);
    const client = double.client({ fetch: () => Promise.reject(new TypeError('fetch failed', { cause: refused })), retry: { maxRetries: 0 } });
    const error = await failure(client.balances.listAccounts());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/\(Requires net access to "127\.0\.0\.1:9", run again with the --allow-net flag\)$/);
  });

  it('says what the runtime refused without a credential it quoted, as Node\'s fetch names a header value it will not send', async () => {
    const apiSecret = 'quoted-secret-7Qx';
    const refusing = () => Promise.reject(new TypeError(`Headers.append: "CPAY key:${apiSecret}" is an invalid header value.`));
    const client = double.client({ fetch: refusing, apiSecret, retry: { maxRetries: 0 } });
    const error = await failure(client.balances.listAccounts());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/\(Headers\.append: "CPAY key:\*\*\*" is an invalid header value\.\)$/);
    expect((error as Error).message).not.toContain(apiSecret);
    // console.error prints the causes in full: the runtime's own error is scrubbed the same way.
    const printed = inspect(error, { depth: Infinity });
    expect(printed).not.toContain(apiSecret);
    expect(printed).toContain('Headers.append: "CPAY key:***" is an invalid header value.');
  });

  it("keeps card data a merchant's fetch quoted out of the causes, and what tells the failure apart in them", async () => {
    const quoting: typeof globalThis.fetch = (_input, init) =>
      Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(`socket hang up sending ${String(init?.body)}`), { code: 'ECONNRESET', syscall: 'write' }) }));
    const error = await failure(double.client({ fetch: quoting }).payments.create(directPayment));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const printed = inspect(error, { depth: Infinity });
    expect(printed).toContain('socket hang up sending');
    expect(printed).not.toContain(samples.card.cc_number);
    expect(printed).not.toMatch(/"card_cvv":"\d{3}"/);
    const runtime = ((error as Error).cause as Error).cause as Error;
    expect(runtime).toBeInstanceOf(TypeError);
    expect(runtime.cause).toMatchObject({ code: 'ECONNRESET', syscall: 'write' });
  });
});

describe('timeouts and aborts', () => {
  it('a per-call timeout overrides the client\'s', async () => {
    double.gateway.answerAlways({ hang: true });
    const error = await failure(double.client({ timeoutMs: 10_000 }).balances.listAccounts({ timeoutMs: 30 }));
    expect(error).toMatchObject({ name: 'NetworkTimeoutError', timeoutMs: 30 });
  });

  it('times out an answer whose body stalls', async () => {
    // Headers arrive, the body never ends: the attempt still times out.
    const stalling = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"accounts":');
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = stalling.address() as AddressInfo;
      const client = double.client({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 50, retry: { maxRetries: 0 } });
      await expect(client.balances.listAccounts()).rejects.toBeInstanceOf(NetworkTimeoutError);
    } finally {
      stalling.closeAllConnections();
      await new Promise<void>((resolve) => stalling.close(() => resolve()));
    }
  });

  it('the caller\'s signal aborts a read with its reason and stops retrying', async () => {
    double.gateway.answerAlways(unavailable);
    const controller = new AbortController();
    const read = double.client({ retry: { maxRetries: 5, initialDelayMs: 40, maxDelayMs: 40 } }).balances.listAccounts({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shopper left')), 20);
    await expect(read).rejects.toThrow('shopper left');
    expect(double.gateway.requests.length).toBeLessThan(6);
  });

  it('an aborted capture is an unknown outcome', async () => {
    double.gateway.answerAlways({ hang: true });
    const controller = new AbortController();
    const pending = double.client().operations.capture(capture, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shutting down')), 20);
    const error = await failure(pending);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    // The caller's reason said, not only its class.
    expect((error as Error).message).toContain('is unknown (Error: shutting down)');
  });

  it("the client's signal ends the calls waiting on the gateway, and those made after it, whatever their own", async () => {
    double.gateway.answerAlways({ hang: true });
    const stopping = new AbortController();
    const client = double.client({ signal: stopping.signal, timeoutMs: 10_000 });
    const own = new AbortController();
    const capturing = client.operations.capture(capture);
    const reading = failure(client.balances.listAccounts({ signal: own.signal }));
    const stopped = new Error('the server is stopping');
    // Both waiting on the gateway, then stopped: on a busy machine a fixed delay could stop them
    // before they arrive, and the gateway record one only after the count below.
    await vi.waitFor(() => expect(double.gateway.requests).toHaveLength(2));
    stopping.abort(stopped);
    const ended = await failure(capturing);
    expect(ended).toBeInstanceOf(OutcomeUnknownError);
    expect((ended as OutcomeUnknownError).cause).toBe(stopped);
    expect(await reading).toBe(stopped);
    const requests = double.gateway.requests.length;
    await expect(client.balances.listAccounts()).rejects.toThrow('the server is stopping');
    expect(double.gateway.requests).toHaveLength(requests);
    expect(own.signal.aborted).toBe(false);
  });

  it("records a call the client's signal ended as aborted, whatever its reason, and lets go of the signal after each call", async () => {
    const stopping = new AbortController();
    const client = double.client({ signal: stopping.signal, timeoutMs: 10_000 });
    const records: GatewayCallRecord[] = [];
    client.onCall((record) => records.push(record));
    double.gateway.answerAlways({ status: 200, body: { accounts: [] } });
    // More calls at once than Node's ten listeners a signal, each with a signal of its own.
    const owns = Array.from({ length: 12 }, () => new AbortController());
    await Promise.all(owns.map((own) => client.balances.listAccounts({ signal: own.signal })));
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
    expect(owns.map((own) => getEventListeners(own.signal, 'abort').length)).toEqual(owns.map(() => 0));
    double.gateway.answerAlways({ hang: true });
    const capturing = failure(client.operations.capture(capture));
    setTimeout(() => stopping.abort(new NetworkError('the server is stopping', { connectFailed: false })), 20);
    expect(await capturing).toBeInstanceOf(OutcomeUnknownError);
    expect(records.at(-1)).toMatchObject({ outcome: 'aborted' });
  });

  it('refuses a client signal that is not an AbortSignal, naming the option', () => {
    expect(() => double.client({ signal: 'stop' as unknown as AbortSignal })).toThrow(/signal: must be an AbortSignal/);
  });
});

describe('redirects', () => {
  it('are never followed, so credentials never reach another host', async () => {
    double.gateway.answer({ status: 302, headers: { location: `${double.gateway.url}/elsewhere` } });
    await expect(double.client().balances.listAccounts()).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(double.gateway.onlyRequest.url).toBe(`/api/v1/balances/pos/${samples.POS_ID}/accounts`);
  });

  it('a permanent one (an http→https redirect) is no gateway: a create it answers is known not to have happened', async () => {
    const records: GatewayCallRecord[] = [];
    const client = double.client();
    client.onCall((record) => records.push(record));
    double.gateway.answerAlways({ status: 301, headers: { location: 'https://gateway.example/api/v1/payment?debug=1' } });
    const create = await failure(client.payments.create({
      mode: 'direct', method: 'purchase', amount: 100, currency: 'UAH', description: 'd', order_id: 'order-301', ...samples.card, ...customer,
      customer_fname: 'Olena', customer_lname: 'Koval',
      customer_ip: '203.0.113.7', browser_fingerprint: samples.fingerprint,
    }));
    expect(create).toBeInstanceOf(NotTheGatewayError);
    expect(create).toMatchObject({ status: 301, location: 'https://gateway.example/api/v1/payment' });
    double.gateway.answerAlways({ status: 308, headers: { location: '/moved' } });
    // Not retried: the base URL needs fixing.
    expect(await failure(client.balances.listAccounts())).toBeInstanceOf(NotTheGatewayError);
    expect(double.gateway.requests).toHaveLength(2);
    expect(records.map(({ outcome, location }) => ({ outcome, location }))).toEqual([
      { outcome: 301, location: 'https://gateway.example/api/v1/payment' },
      { outcome: 308, location: `${double.gateway.url}/moved` },
    ]);
  });

  it('a hosted create answered by another redirect than its 303 is an unknown outcome, never a checkout page', async () => {
    double.gateway.answer({ status: 302, headers: { location: 'https://maintenance.example/' } });
    const error = await failure(double.client().payments.create({
      mode: 'hosted', method: 'purchase', amount: 100, currency: 'UAH', description: 'd', order_id: 'order-302', ...customer,
    }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(UnexpectedResponseError);
  });

  it('observers are told an HTML page where JSON was due; a JSON answer is not one', async () => {
    const records: GatewayCallRecord[] = [];
    const client = double.client({ retry: { maxRetries: 0 } });
    client.onCall((record) => records.push(record));
    double.gateway.answer({ body: '\n<!DOCTYPE html><html><title>Welcome to nginx!</title></html>', headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(await failure(client.balances.listAccounts())).toBeInstanceOf(UnexpectedResponseError);
    double.gateway.answer({ body: { accounts: [] } });
    await client.balances.listAccounts();
    expect(records.map((record) => record.html)).toEqual([true, undefined]);
  });
});

describe('answer size', () => {
  const huge = (bytes: number) => JSON.stringify({ accounts: [], padding: 'x'.repeat(bytes) });

  it('a JSON answer above 4 MiB is refused as unreadable, declared or not, and not retried', async () => {
    double.gateway.answer({ body: huge(5 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    const declared = await failure(double.client().balances.listAccounts());
    expect(declared).toBeInstanceOf(UnexpectedResponseError);
    expect((declared as Error).message).toBe('The gateway\'s answer is larger than 4194304 bytes');
    double.gateway.answer({ body: huge(5 * 1024 * 1024), headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
    expect(await failure(double.client().balances.listAccounts())).toBeInstanceOf(UnexpectedResponseError);
    expect(double.gateway.requests).toHaveLength(2);
  });

  it('a money-moving call with an oversized answer is an unknown outcome', async () => {
    const padded = JSON.stringify({ ...samples.captureResponse, padding: 'x'.repeat(5 * 1024 * 1024) });
    double.gateway.answer({ body: padded, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
    const error = await failure(double.client().operations.capture(capture));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).cause).toBeInstanceOf(UnexpectedResponseError);
  });

  it('receipts may be larger', async () => {
    const zip = new Uint8Array(6 * 1024 * 1024).fill(7);
    double.gateway.answer({ body: zip, headers: { 'content-type': 'application/zip' } });
    const document = await double.client().receipts.forDate('2026-01-31', { format: 'pdf' });
    expect(document.body.byteLength).toBe(zip.byteLength);
  });
});

describe('path values', () => {
  it('that are dot segments are refused before sending, so no call reaches another path', async () => {
    const client = double.client();
    for (const orderId of ['..', '.']) {
      for (const call of [() => client.orders.get(orderId), () => client.payments.cancel(orderId), () => client.receipts.forOrder(orderId, { format: 'html' })]) {
        const error = await failure(call());
        expect(error).toBeInstanceOf(InvalidRequestError);
        expect((error as InvalidRequestError).fields).toEqual([{ field: 'order_id', reason: 'must not be "." or ".."' }]);
      }
    }
    expect(double.gateway.requests).toEqual([]);
    expect(() => routePath(routes.order, { pos_id: samples.POS_ID, order_id: '..' })).toThrow(RangeError);
  });

  it('that only look like dots are sent encoded, as themselves', async () => {
    double.gateway.answer({ body: [] }, { body: [] });
    await double.client().orders.get('...');
    await double.client().orders.get('a/../b');
    expect(double.gateway.requests.map((request) => request.url)).toEqual([
      `/api/v1/pos/${samples.POS_ID}/orders/...`,
      `/api/v1/pos/${samples.POS_ID}/orders/a%2F..%2Fb`,
    ]);
  });
});

describe('client config', () => {
  it('is checked up front, without echoing secrets', () => {
    expect(() => double.client({ baseUrl: 'gateway.example', posId: 'pos', apiSecret: '' })).toThrow(
      'Invalid gateway client config: baseUrl: must be an http(s) URL; posId: must be a UUID; apiSecret: must not be empty',
    );
  });

  it('refuses credentials no header can carry, naming each and quoting none', () => {
    const config = { apiKey: 'key:with-colon', apiSecret: 'pasted\nsecret', endpointsKey: 'endpoints-€' };
    expect(() => double.client(config)).toThrow(
      'Invalid gateway client config: apiKey: must not hold a colon: X-API-AUTH sends <key>:<secret>; apiSecret: must hold printable ASCII characters only: a header cannot carry it; endpointsKey: must hold printable ASCII characters only: a header cannot carry it',
    );
    expect(() => double.client({ apiSecret: ' padded' })).toThrow('Invalid gateway client config: apiSecret: must not begin or end with whitespace');
    // A secret read from a file keeps its last line break: said as what it is, once.
    expect(() => double.client({ apiSecret: 'read-from-a-file\n' })).toThrow(/^Invalid gateway client config: apiSecret: must not begin or end with whitespace$/);
  });

  it('tells whether a secret is the one it calls with, never showing its own', () => {
    const client = double.client({ apiSecret: 'the-project-secret' });
    expect(client.usesApiSecret('the-project-secret')).toBe(true);
    expect(client.usesApiSecret('the-project-secret ')).toBe(false);
    expect(client.usesApiSecret('')).toBe(false);
    expect(JSON.stringify(client)).not.toContain('the-project-secret');
  });

  it('refuses a timeout no timer keeps (beyond 2^31 − 1 ms it would fire at once), naming it', () => {
    expect(() => double.client({ timeoutMs: 3_000_000_000 })).toThrow(/^Invalid gateway client config: timeoutMs: /);
    expect(() => double.client({ retry: { maxDelayMs: 3_000_000_000 } })).toThrow(/^Invalid gateway client config: retry\.maxDelayMs: /);
  });

  it.each([0, -1, Number.NaN, 3_000_000_000])('refuses a call with a timeout of %s ms before sending it, not as an unknown outcome', async (timeoutMs) => {
    const error = await failure(double.client().operations.capture(capture, { timeoutMs }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ fields: [{ field: 'timeoutMs', reason: 'must be a whole number of milliseconds from 1 to 2147483647' }] });
    expect(double.gateway.requests).toEqual([]);
  });

  it('keeps a path prefix of the base URL', async () => {
    double.gateway.answer({ body: { accounts: [] } });
    await double.client({ baseUrl: `${double.gateway.url}/gw/` }).balances.listAccounts();
    expect(double.gateway.onlyRequest.url).toBe(`/gw/api/v1/balances/pos/${samples.POS_ID}/accounts`);
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    };
    double.gateway.answer({ body: 'OK' });
    expect(await double.client({ fetch }).health()).toBe(true);
    expect(seen).toEqual([`${double.gateway.url}/health`]);
  });
});
