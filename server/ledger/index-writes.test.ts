// What a webhook's commit writes to a SQLite ledger file: SQLite rewrites a payment's entry in
// every index naming a column its UPDATE sets, whatever the value, and each rewritten entry is a
// page more in the WAL (a random one, on a filled file). Counted in WAL frames, not timed.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import { claimedPayment, gatewayEvent } from './testing/contract.js';

/** One WAL frame: its 24-byte header and a page of SQLite's default 4,096 bytes. */
const FRAME = 24 + 4_096;

describe('a webhook on a SQLite file', () => {
  it('that refreshes the status its payment holds rewrites none of the payment’s status indexes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-index-writes-'));
    const file = join(dir, 'ledger.db');
    const ledger = await openLedger(file);
    try {
      const framesOf = async (work: () => Promise<unknown>) => {
        const before = statSync(`${file}-wal`).size;
        await work();
        const after = statSync(`${file}-wal`).size;
        expect(after).toBeGreaterThan(before); // no checkpoint restarted the WAL in between
        return (after - before) / FRAME;
      };
      const { orderId } = await claimedPayment(ledger);
      // The step to pending moves the payment's entries in the status list, the one-live-attempt
      // index and the notice index: three pages besides its row and the event's own three.
      const step = await framesOf(() => ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'pending', orderId, statusCode: '2119' })));
      // A later pending that adds a detail changes the row alone.
      const refresh = await framesOf(() => ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'pending', orderId, statusCode: '2122' })));
      expect((await ledger.getOrder(orderId))?.payment).toMatchObject({ status: 'pending', statusCode: '2122' });
      expect({ step, refresh }).toEqual({ step: 7, refresh: 4 });
    } finally {
      await ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
