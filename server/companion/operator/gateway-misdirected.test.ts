// A payform sandbox reached under a host name it was not given (a container's service name left
// out of SANDBOX_ALLOWED_HOSTS) answers its API with 421 Misdirected Request. The companion says
// so, naming that setting — not "credentials refused", which would send an operator checking four
// keys that are right — and the payment and the merchant's calls are answered 502 not_the_gateway,
// with no Retry-After (trying again meets the same refusal), not that the card was refused.
import { afterEach, expect, it } from 'vitest';
import { createStack, payBody } from '../test/stack.js';
import type { Stack } from '../test/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
});

it('says a sandbox that does not serve its host name as such, once, and refuses the payment as not sent', async () => {
  // In process the sandbox is addressed as http://sandbox.test: now a name it was not given.
  stack = await createStack({ sandbox: { allowedHosts: [] } });
  const session = await stack.openSession();
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await stack.pay(session.id, payBody());
    expect(answer.status).toBe(502);
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(await answer.json()).toMatchObject({ error: { code: 'not_the_gateway', message: expect.stringContaining('PAYFORM_GATEWAY_BASE_URL') } });
  }
  // A merchant API call meets it too, told the same way.
  const balances = await stack.request('GET', '/api/balances/accounts', { admin: true });
  expect(balances.status).toBe(502);
  expect(balances.headers.get('retry-after')).toBeNull();
  expect(await balances.json()).toMatchObject({ error: { code: 'not_the_gateway' } });
  const trouble = stack.logs.filter((line) => line.includes('"level":"error"'));
  expect(trouble).toHaveLength(1);
  expect(trouble[0]).toContain('does not serve that host name (421 Misdirected Request)');
  expect(trouble[0]).toContain('SANDBOX_ALLOWED_HOSTS');
  expect(stack.logs.join('\n')).not.toContain('credentials');
  // Nothing reached the gateway: the session may be paid once the address is right.
  expect(await stack.ledger.getPayment(session.order_id)).toMatchObject({ status: 'failure' });
});
