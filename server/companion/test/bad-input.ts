/**
 * Bad input of every kind against every route of the catalog: wrong types, missing and extra
 * fields, huge and odd strings, NUL characters, broken JSON, path tricks. The property: never a
 * 5xx, always the envelope, every POST refused, and nothing stored changed. Run on SQLite and on
 * PostgreSQL (which refuses NUL characters outright, so they must never reach it).
 */
import { expect } from 'vitest';
import { API } from '../openapi/api-catalog.js';
import type { Stack } from './stack.js';

export async function sendBadInputEverywhere(stack: Stack): Promise<number> {
  const session = await stack.openSession({ method: 'auth' });
  await stack.pay(session.id);
  await stack.settleWebhooks();
  const before = JSON.stringify(await stack.ledger.getOrder(session.order_id));
  const ids: Record<string, string[]> = {
    id: [session.id, '..%2F..', '%00', 'A'.repeat(5000)],
    order_id: [session.order_id, '%2e%2e', '1%002', '1'.repeat(300)],
    customer_id: ['c', '%ff', '%00', 'x'.repeat(300)],
    card_id: ['x', '00000000-0000-0000-0000-000000000000'],
    date: ['2030-02-30', 'today', '0000-00-00'],
    name: ['x.js', '..', '.hidden.js'],
  };
  const bodies: unknown[] = [
    null, 'string', [1, 2], { unknown: 1 }, { amount: -1 }, { amount: 1.234 }, { amount: '１２' }, { amount: '1e400' },
    { amount: Number.MAX_SAFE_INTEGER }, { split: [{}] }, { card: { number: 'x'.repeat(5000) }, customer: { email: '😀@😀' }, fingerprint: [] },
    { comment: 'x'.repeat(10_000), operation: 'capture', transaction_id: 5 },
    JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}'),
    { amount: 1, currency: 'UAH', description: 'tea\u0000', customer: { fname: '\u0000' } },
    { comment: 'nul\u0000', customer: { email: 'a@b.co', phone: '+380501234567', fname: 'x\u0000' } },
    '{"unterminated": ', '\u0000\u0001', '{"a":'.repeat(200),
  ];
  const queries = ['', '?limit=-1&status=%00&format=exe&from=yesterday&after=x', `?${'a'.repeat(3000)}=1`, '?cursor=%00'];
  let sent = 0;
  for (const operation of API) {
    const names = [...operation.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    const paths = names.length === 0
      ? [operation.path]
      : (ids[names[0]!] ?? ['x']).map((value) => operation.path.replace(/:(\w+)/g, (_, name: string) => (name === names[0] ? value : (ids[name]?.[0] ?? 'x'))));
    for (const path of paths) {
      for (const body of operation.method === 'get' || operation.method === 'delete' ? [undefined] : bodies) {
        for (const query of operation.method === 'get' ? queries : ['']) {
          const response = await stack.request(operation.method.toUpperCase(), path + query, {
            admin: operation.access === 'admin',
            ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
          });
          sent += 1;
          const what = `${operation.method} ${path.slice(0, 80)}${query.slice(0, 40)} ${String(JSON.stringify(body)).slice(0, 80)}`;
          expect(response.status, what).toBeLessThan(500);
          // Every body here is wrong: a POST must be refused.
          if (operation.method === 'post') expect(response.status, what).toBeGreaterThanOrEqual(400);
          if (response.status >= 400 && response.headers.get('content-type')?.startsWith('application/json')) {
            const envelope = await response.json();
            expect(envelope.error, what).toEqual({ code: expect.any(String), message: expect.any(String), ...(envelope.error.fields ? { fields: expect.any(Object) } : {}) });
          } else if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
            await response.body?.cancel(); // the live feed never ends by itself
          } else {
            await response.arrayBuffer();
          }
        }
      }
    }
  }
  await stack.settleWebhooks();
  expect(JSON.stringify(await stack.ledger.getOrder(session.order_id))).toBe(before);
  expect((await stack.ledger.listOrders()).orders).toHaveLength(1);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return sent;
}
