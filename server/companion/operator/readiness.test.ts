// Liveness and readiness are two answers: /healthz says the process is alive, /readyz whether it
// should get customers now — not while it drains for a stop. (The database being away is
// e2e/resilience/database-outage.test.ts's, on a PostgreSQL it can cut.)
import { describe, expect, it } from 'vitest';
import { stacksPerTest } from '../test/stack.js';

const open = stacksPerTest();

describe('/healthz and /readyz', () => {
  it('are ready on a running companion', async () => {
    const stack = await open();
    expect(await stack.json('GET', '/healthz', 200)).toEqual({ status: 'ok' });
    expect(await stack.json('GET', '/readyz', 200)).toEqual({ status: 'ready' });
  });

  it('readyz fails while the instance drains; healthz stays alive', async () => {
    const stack = await open();
    stack.companion.companion.drain();
    const ready = await stack.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await ready.json()).toEqual({ status: 'draining' });
    expect(await stack.json('GET', '/healthz', 200)).toEqual({ status: 'ok' });
  });
});
