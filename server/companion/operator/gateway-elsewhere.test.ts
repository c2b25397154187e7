// PAYFORM_GATEWAY_BASE_URL where something else answers — a web server's default page (200,
// text/html), an http→https redirect (301) — with the companion started against a real server
// on 127.0.0.1: said once as it starts, naming the setting and what answers there; a payment's
// calls counted as not_gateway, which the documented PayformGatewayErrors alert catches; the
// customer answered as far as it is known whether the gateway got the payment.
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readCompanionConfig } from '../settings.js';
import { startCompanion } from '../start.js';
import type { RunningCompanion } from '../start.js';
import { createLogger, memorySink } from '../log/logger.js';
import { eventually, payBody } from '../test/stack.js';
import { TEST_CVV, cardNumber } from '../test/cards.js';

const ADMIN_TOKEN = 'a-long-enough-admin-token';
const METRICS_TOKEN = 'metrics-token-0123456789';
const PAGE = '<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>\n';

interface Elsewhere {
  readonly url: string;
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that gives every request, whatever its path, the same answer. */
async function serveElsewhere(answer: (response: ServerResponse, path: string) => void): Promise<Elsewhere> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => answer(response, request.url ?? '/'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const one of opened.splice(0).reverse()) await one.close();
});

async function startAgainst(elsewhere: Elsewhere) {
  const memory = memorySink();
  const settings = readCompanionConfig({
    PORT: '0',
    PAYFORM_HOST: '127.0.0.1',
    PAYFORM_DATABASE_URL: ':memory:',
    PAYFORM_ADMIN_TOKEN: ADMIN_TOKEN,
    PAYFORM_METRICS_TOKEN: METRICS_TOKEN,
    PAYFORM_GATEWAY_BASE_URL: elsewhere.url,
  });
  const companion: RunningCompanion = await startCompanion(settings, { logger: createLogger({ sink: memory.sink }) });
  opened.push(companion);
  const lines = () => memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const notTheGateway = () => lines().filter((line) => String(line.msg).startsWith(`what answers at ${elsewhere.url} is not the gateway`));
  const openSession = async (): Promise<{ id: string; order_id: string }> => {
    const headers = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${companion.url}/api/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify({ amount: 150, currency: 'XTS', description: 'Test' }) });
    expect(created.status).toBe(201);
    return (await created.json()) as { id: string; order_id: string };
  };
  const pay = (sessionId: string) =>
    fetch(`${companion.url}/api/checkout/sessions/${sessionId}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payBody()) });
  const metrics = async () => (await fetch(`${companion.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return { memory, lines, notTheGateway, openSession, pay, metrics };
}

/** The count of gateway calls on `route` with `status` in the Prometheus text. */
function callCount(metrics: string, route: string, status: string): number {
  const line = metrics.split('\n').find((one) => one.startsWith(`payform_gateway_call_duration_seconds_count{route="${route}",status="${status}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

/** What the PayformGatewayErrors rule in docs/companion.md matches. */
const ALERTED_STATUS = /^(5..|network|timeout|not_gateway)$/;

describe('a gateway URL where something else answers', () => {
  it('a web server’s page (200 text/html): said at start naming the setting; a payment pending, said once, counted as not_gateway', async () => {
    const elsewhere = await serveElsewhere((response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE));
    opened.push(elsewhere);
    const { memory, lines, notTheGateway, openSession, pay, metrics } = await startAgainst(elsewhere);

    // At start, before any payment: one error, what answers there and the setting to fix.
    await eventually(() => expect(notTheGateway()).toHaveLength(1));
    expect(notTheGateway()[0]).toMatchObject({
      level: 'error',
      msg: `what answers at ${elsewhere.url} is not the gateway (it answers an HTML page): set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to the gateway's address`,
      route: 'GET /api/v1/balances/pos/:pos_id/accounts',
      outcome: 200,
    });

    // A 200 page may still come from a proxy that forwarded the payment (an error_page =200
    // after an upstream timeout): not proof it was never sent, so the outcome stays unknown.
    const session = await openSession();
    const paid = await pay(session.id);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ status: 'pending' });
    // Said once for the episode: the payment's calls add no second error.
    expect(notTheGateway()).toHaveLength(1);
    expect(lines().filter((line) => line.level === 'error')).toEqual(notTheGateway());

    const text = await metrics();
    expect(callCount(text, 'POST /api/v1/payment', 'not_gateway')).toBe(1);
    expect(callCount(text, 'POST /api/v1/payment', '200')).toBe(0);
    expect(callCount(text, 'GET /api/v1/balances/pos/:pos_id/accounts', 'not_gateway')).toBeGreaterThanOrEqual(1);
    expect('not_gateway').toMatch(ALERTED_STATUS);
    expect(memory.lines.join('\n')).not.toContain(cardNumber('success'));
    expect(memory.lines.join('\n')).not.toContain(`"${TEST_CVV}"`);
  });

  it('another service’s 404: a payment ended as never sent and answered 502 not_the_gateway, not 404', async () => {
    const elsewhere = await serveElsewhere((response) => response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found'));
    opened.push(elsewhere);
    const { lines, notTheGateway, openSession, pay } = await startAgainst(elsewhere);
    await eventually(() => expect(notTheGateway()).toHaveLength(1));
    const session = await openSession();
    const paid = await pay(session.id);
    expect(paid.status).toBe(502);
    expect(await paid.json()).toMatchObject({ error: { code: 'not_the_gateway' } });
    // The trouble is said once, at error; the payment's own line, beside it, at info.
    expect(lines().filter((line) => line.msg === 'a payment could not be sent to the gateway')).toMatchObject([{ level: 'info', order_id: session.order_id }]);
    expect((await pay(session.id)).status).toBe(502);
  });

  it('a 404 in the gateway’s own error body is the gateway’s: not answered as a gateway away', async () => {
    const elsewhere = await serveElsewhere((response) => response.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Not found', args: { code: 'P-404' } })));
    opened.push(elsewhere);
    const { openSession, pay } = await startAgainst(elsewhere);
    const session = await openSession();
    const paid = await pay(session.id);
    expect(paid.status).toBe(404);
    expect(await paid.json()).toMatchObject({ error: { code: 'not_found_at_gateway' } });
  });

  it('an http→https redirect (301): said at start with where it leads; a payment ended as never sent, 502, and the customer may pay again', async () => {
    const elsewhere = await serveElsewhere((response, path) => response.writeHead(301, { Location: `https://pay.example${path}` }).end());
    opened.push(elsewhere);
    const { memory, lines, notTheGateway, openSession, pay, metrics } = await startAgainst(elsewhere);

    await eventually(() => expect(notTheGateway()).toHaveLength(1));
    expect(notTheGateway()[0]).toMatchObject({
      level: 'error',
      msg: expect.stringMatching(
        /^what answers at http:\/\/127\.0\.0\.1:\d+ is not the gateway \(it answers HTTP 301, a redirect to https:\/\/pay\.example\/api\/v1\/balances\/pos\/[^/]+\/accounts\): set PAYFORM_GATEWAY_BASE_URL /,
      ),
      outcome: 301,
    });

    // The gateway never redirects a payment and redirects are not followed: it reached no
    // gateway. The attempt ended, not pending; answered as the setup to fix, with no Retry-After:
    // trying again meets the same server.
    const session = await openSession();
    const paid = await pay(session.id);
    expect(paid.status).toBe(502);
    expect(paid.headers.get('retry-after')).toBeNull();
    expect(await paid.json()).toMatchObject({ error: { code: 'not_the_gateway', message: expect.stringContaining('PAYFORM_GATEWAY_BASE_URL') } });
    const unsent = lines().filter((line) => line.msg === 'a payment could not be sent to the gateway');
    expect(unsent).toMatchObject([{ level: 'info', order_id: session.order_id }]);
    // The session is free: the customer's next try is sent (and refused so again), not held as in flight.
    const again = await pay(session.id);
    expect(again.status).toBe(502);
    expect(notTheGateway()).toHaveLength(1);
    expect(lines().filter((line) => line.level === 'error')).toEqual(notTheGateway());

    const text = await metrics();
    expect(callCount(text, 'POST /api/v1/payment', 'not_gateway')).toBe(2);
    expect(callCount(text, 'POST /api/v1/payment', '301')).toBe(0);
    expect(text).toMatch(/^payform_payments_total\{method="purchase",outcome="not_sent"\} 2$/m);
    expect(memory.lines.join('\n')).not.toContain(cardNumber('success'));
  });
});
