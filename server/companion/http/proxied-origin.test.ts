/**
 * A shop's page reaching the companion through a proxy on the page's own origin (a Vite dev
 * server proxying `/payments`): the browser calls the request same-origin and reads the answer,
 * so the companion does not log that the browser refused it. A page truly on another origin
 * still gets that warning, once.
 */
import { afterEach, expect, it } from 'vitest';
import { createStack } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const refusals = (logs: readonly string[]) => logs.filter((line) => line.includes('not allowed called the checkout API'));

it('a page proxied from its own origin is not said to be refused; one on another origin is', async () => {
  stack = await createStack({ companion: { allowedOrigins: ['https://shop.example'] } });
  const session = await stack.openSession();

  const proxied = await stack.request('GET', `/api/checkout/sessions/${session.id}`, { headers: { Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-origin' } });
  expect(proxied.status).toBe(200);
  expect(refusals(stack.logs)).toEqual([]);

  const elsewhere = await stack.request('GET', `/api/checkout/sessions/${session.id}`, { headers: { Origin: 'http://localhost:4000', 'Sec-Fetch-Site': 'cross-site' } });
  expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  expect(refusals(stack.logs)).toHaveLength(1);
  expect(refusals(stack.logs)[0]).toContain('http://localhost:4000');
});
