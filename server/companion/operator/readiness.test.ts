// Liveness and readiness are two answers: /healthz says the process is alive, /readyz whether it
// should get customers now — not while it drains for a stop. (The database being away is
// e2e/resilience/database-outage.test.ts's, on a PostgreSQL it can cut.)
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../ledger/index.js';
import type { LedgerBackend } from '../../ledger/testing/databases.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { stacksPerTest } from '../test/stack.js';
import { READ_REUSED_MS } from './ledger-readiness.js';

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

  it('readyz reads the ledger once for the requests of a second, at once or in a row: a flood costs no statement each', async () => {
    const sent: string[] = [];
    const counted: LedgerBackend = {
      name: 'SQLite in memory, its statements counted',
      persistent: false,
      async open(clock) {
        const ledger = await openLedger(':memory:', { clock: clock.read, onStatement: (sql) => void sent.push(sql) });
        return { ledger, dispose: () => ledger.close() };
      },
    };
    const clock = new TestClock();
    const stack = await open({ backend: counted, clock });
    sent.length = 0;
    const together = await Promise.all(Array.from({ length: 20 }, () => stack.json('GET', '/readyz', 200)));
    expect(together).toEqual(Array.from({ length: 20 }, () => ({ status: 'ready' })));
    for (let i = 0; i < 5; i += 1) expect(await stack.json('GET', '/readyz', 200)).toEqual({ status: 'ready' });
    expect(sent).toHaveLength(1);
    // Once the read is older than that, the next request reads again.
    clock.advance(READ_REUSED_MS);
    expect(await stack.json('GET', '/readyz', 200)).toEqual({ status: 'ready' });
    expect(sent).toHaveLength(2);
  });
});
