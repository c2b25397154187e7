// A merchant's order id is refused while a payment carries it, also one that no session names any
// more (rows from before the rules that keep the two apart): the check is inside the session's
// INSERT (sessions.ts), on both databases, and refuses without storing anything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { redact } from '@payform/gateway';
import { LedgerConflict } from './errors.js';
import type { Ledger } from './ledger.js';
import { openLedger } from './ledger.js';
import { newOrderId } from './sessions.js';
import { claimedPayment } from './testing/contract.js';
import { dropSchema, freshSchemaName, withTestDatabase } from './testing/databases.js';
import { withClient } from './testing/schema-pool.js';

const tea = { amount: 1000, currency: 'XTS', description: 'Green tea, 250 g', method: 'purchase' as const };

/** `renameSession(from, to)` changes a session's order id behind the ledger's back. */
async function expectRefusedWhileAPaymentCarriesIt(ledger: Ledger, renameSession: (from: string, to: string) => Promise<void>): Promise<void> {
  const payment = await claimedPayment(ledger, { ...tea, orderId: 'legacy-1' });
  await renameSession('legacy-1', 'renamed-1');
  await expect(ledger.createSession({ ...tea, orderId: 'legacy-1' })).rejects.toBeInstanceOf(LedgerConflict);
  expect(await ledger.findSessionOfOrder('legacy-1')).toBeUndefined();
  expect(await ledger.getPayment('legacy-1')).toMatchObject({ sessionId: payment.sessionId, status: 'init' });
  expect(await ledger.createSession({ ...tea, orderId: 'fresh-1' })).toMatchObject({ orderId: 'fresh-1' });
}

describe('an order id a payment carries', () => {
  it('is refused for a new session, on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-order-ids-'));
    const path = join(dir, 'ledger.db');
    const ledger = await openLedger(path);
    try {
      await expectRefusedWhileAPaymentCarriesIt(ledger, async (from, to) => {
        const file = new Database(path);
        file.prepare('update payform_checkout_sessions set order_id = ? where order_id = ?').run(to, from);
        file.close();
      });
    } finally {
      await ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  withTestDatabase((url) => {
    it('is refused for a new session, on PostgreSQL', async () => {
      const schema = freshSchemaName();
      const ledger = await openLedger(url, { schema });
      try {
        await expectRefusedWhileAPaymentCarriesIt(ledger, (from, to) =>
          withClient(url, async (client) => {
            await client.query(`update ${client.escapeIdentifier(schema)}.payform_checkout_sessions set order_id = $1 where order_id = $2`, [to, from]);
          }),
        );
      } finally {
        await ledger.close();
        await dropSchema(url, schema);
      }
    });
  });
});

describe('an order id the ledger makes', () => {
  // Drawn once in 12,000: twenty hex digits that are all digits, and hold a Luhn-valid run.
  const allDigits = '55197637441345528554';

  it('is never all digits, so the card-number masks keep it whole', () => {
    expect(redact({ order_id: allDigits })).toEqual({ order_id: '[card number]' });
    const draws = [allDigits, '0123456789abcdef0123'];
    const id = newOrderId(() => draws.shift()!);
    expect(id).toBe('0123456789abcdef0123');
    expect(redact({ order_id: id, note: `order ${id}` })).toEqual({ order_id: id, note: `order ${id}` });
  });

  it('is never a card number with a few letters around it, which the masks would hide too', () => {
    const cardShaped = 'ed678388087942659907';
    expect(redact({ note: `order ${cardShaped}` })).toEqual({ note: 'order ed[card number]' });
    const draws = [cardShaped, '0123456789abcdef0123'];
    expect(newOrderId(() => draws.shift()!)).toBe('0123456789abcdef0123');
  });

  it('is 20 hex characters with a letter', () => {
    for (let i = 0; i < 200; i++) expect(newOrderId()).toMatch(/^(?=\d*[a-f])[\da-f]{20}$/);
  });
});
