// Idempotency keys in the ledger, on a SQLite file and on PostgreSQL, each with two ledgers on
// one database (two instances): one claimer wins, the answer is given again, and a claim or a key
// past its time is free.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdempotencyRequest } from './index.js';
import type { Ledger } from './ledger.js';
import { TestClock, fileBackend, postgresBackend, withTestDatabase } from './testing/databases.js';
import type { LedgerBackend, TestLedger } from './testing/databases.js';

const LEASE = 5 * 60_000;
const LIFETIME = 24 * 3_600_000;
const request = (overrides: Partial<IdempotencyRequest> = {}): IdempotencyRequest => ({
  scope: 'merchant-a', key: 'key-1', method: 'POST', path: '/api/orders/o-1/refund', fingerprint: 'f'.repeat(64), leaseMs: LEASE, lifetimeMs: LIFETIME, ...overrides,
});
const answer = { status: 200, contentType: 'application/json', body: '{"operation":{"amount":1}}' };

function describeKeys(backend: () => LedgerBackend): void {
  describe(`idempotency keys (${backend().name}, two instances)`, () => {
    let clock: TestClock;
    let store: TestLedger;
    let a: Ledger;
    let b: Ledger;

    beforeEach(async () => {
      clock = new TestClock();
      store = await backend().open(clock);
      a = store.ledger;
      b = await store.reopen!();
    });
    afterEach(async () => {
      await store.dispose();
    });

    const claimed = async (ledger: Ledger, overrides: Partial<IdempotencyRequest> = {}) => {
      const claim = await ledger.claimIdempotencyKey(request(overrides));
      if (claim.outcome !== 'claimed') throw new Error(`not claimed: ${claim.outcome}`);
      return claim.claimId;
    };

    it('lets one of 20 claims racing through both instances win', async () => {
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claimIdempotencyKey(request())));
      expect(claims.filter((claim) => claim.outcome === 'claimed')).toHaveLength(1);
      expect(claims.filter((claim) => claim.outcome === 'in_progress')).toHaveLength(19);
    });

    it('gives the stored answer to the same request and refuses another', async () => {
      const claimId = await claimed(a);
      expect(await a.storeIdempotentAnswer('key-1', claimId, answer, LIFETIME)).toBe(true);
      expect(await b.claimIdempotencyKey(request())).toEqual({ outcome: 'replay', answer });
      expect(await b.claimIdempotencyKey(request({ fingerprint: 'e'.repeat(64) }))).toEqual({ outcome: 'reused' });
    });

    it('finds a key an earlier version kept in its former form and moves it, for a retry or another request', async () => {
      // Kept as sent by a version that did not yet digest such keys.
      const former = 'order-4242 4242 4242 4242';
      const claimId = await claimed(a, { key: former });
      expect(await a.storeIdempotentAnswer(former, claimId, answer, LIFETIME)).toBe(true);
      // Another request under the same key, after the upgrade: refused as reused, as before it,
      // and the key is moved all the same — no card number waits out its lifetime at rest.
      expect(await b.claimIdempotencyKey(request({ key: 'h-digest', formerKey: former, fingerprint: 'e'.repeat(64) }))).toEqual({ outcome: 'reused' });
      expect(await a.claimIdempotencyKey(request({ key: former }))).toMatchObject({ outcome: 'claimed' });
      // The retry: the stored answer, under the digest only.
      expect(await b.claimIdempotencyKey(request({ key: 'h-digest', formerKey: former }))).toEqual({ outcome: 'replay', answer });
      expect(await a.claimIdempotencyKey(request({ key: 'h-digest' }))).toEqual({ outcome: 'replay', answer });
    });

    it('deletes a key kept in its former form when its new form has a row already: no card number left at rest', async () => {
      const former = 'order-5555 5555 5555 4444';
      expect(await a.storeIdempotentAnswer(former, await claimed(a, { key: former }), answer, LIFETIME)).toBe(true);
      // The new form claimed meanwhile (a retry before the move), then a retry that moves it.
      const claimId = await claimed(b, { key: 'h-new' });
      expect(await b.storeIdempotentAnswer('h-new', claimId, answer, LIFETIME)).toBe(true);
      expect(await b.claimIdempotencyKey(request({ key: 'h-new', formerKey: former }))).toEqual({ outcome: 'replay', answer });
      // The former row is gone: its key is a new one again.
      expect(await a.claimIdempotencyKey(request({ key: former }))).toMatchObject({ outcome: 'claimed' });
    });

    it('frees a released key for any request', async () => {
      const claimId = await claimed(a);
      await a.releaseIdempotencyKey('key-1', claimId);
      await claimed(b, { fingerprint: 'e'.repeat(64) });
    });

    it('lets the same request take over a claim only once its lease has run out, as interrupted, and the old holder store nothing', async () => {
      const stale = await claimed(a);
      clock.advance(LEASE - 1);
      expect((await b.claimIdempotencyKey(request())).outcome).toBe('in_progress');
      clock.advance(1);
      expect((await b.claimIdempotencyKey(request({ fingerprint: 'e'.repeat(64) }))).outcome).toBe('reused');
      const taken = await Promise.all([a, b].map((ledger) => ledger.claimIdempotencyKey(request())));
      // Not 'claimed': the dead holder's request may have reached the gateway, so it never runs twice.
      expect(taken.map((claim) => claim.outcome).sort()).toEqual(['in_progress', 'interrupted']);
      expect(await a.storeIdempotentAnswer('key-1', stale, answer, LIFETIME)).toBe(false);
      await a.releaseIdempotencyKey('key-1', stale);
      expect((await b.claimIdempotencyKey(request())).outcome).toBe('in_progress');
    });

    it('hands a claim whose lease was ended to the same request at once, as interrupted, on any instance', async () => {
      const unanswered = await claimed(a);
      expect((await b.claimIdempotencyKey(request())).outcome).toBe('in_progress');
      await a.endIdempotencyLease('key-1', unanswered);
      expect((await b.claimIdempotencyKey(request({ fingerprint: 'e'.repeat(64) }))).outcome).toBe('reused');
      expect((await b.claimIdempotencyKey(request())).outcome).toBe('interrupted');
      // An answer stored is never made a claim to take over again.
      const done = await claimed(a, { key: 'key-2' });
      expect(await a.storeIdempotentAnswer('key-2', done, answer, LIFETIME)).toBe(true);
      await a.endIdempotencyLease('key-2', done);
      expect(await b.claimIdempotencyKey(request({ key: 'key-2' }))).toEqual({ outcome: 'replay', answer });
    });

    it('ends a lease for an instance whose clock runs behind the one that ended it too', async () => {
      const unanswered = await claimed(a);
      await a.endIdempotencyLease('key-1', unanswered);
      // b reads the time a few seconds earlier than a did (the two hosts' clocks apart).
      clock.advance(-5_000);
      expect((await b.claimIdempotencyKey(request())).outcome).toBe('interrupted');
    });

    it('keeps a key for its lifetime from the answer, then frees and sweeps it', async () => {
      const claimId = await claimed(a);
      clock.advance(1_000);
      await a.storeIdempotentAnswer('key-1', claimId, answer, LIFETIME);
      clock.advance(LIFETIME - 1);
      expect((await b.claimIdempotencyKey(request({ fingerprint: 'e'.repeat(64) }))).outcome).toBe('reused');
      expect(await b.sweepIdempotencyKeys()).toBe(0);
      clock.advance(1);
      await claimed(b, { key: 'key-2' });
      expect(await b.sweepIdempotencyKeys()).toBe(1);
      await claimed(a, { fingerprint: 'e'.repeat(64) });
    });

    it('keeps each scope’s keys apart: the same key of another merchant is another claim', async () => {
      const mine = await claimed(a);
      await a.storeIdempotentAnswer('key-1', mine, answer, LIFETIME);
      const theirs = await claimed(b, { scope: 'merchant-b', fingerprint: 'e'.repeat(64) });
      expect(theirs).not.toBe(mine);
      expect(await a.claimIdempotencyKey(request())).toEqual({ outcome: 'replay', answer });
      expect((await a.claimIdempotencyKey(request({ scope: 'merchant-b', fingerprint: 'e'.repeat(64) }))).outcome).toBe('in_progress');
    });

    it('refuses a key that is empty or longer than 255 characters', async () => {
      await expect(a.claimIdempotencyKey(request({ key: '' }))).rejects.toMatchObject({ field: 'key' });
      await expect(a.claimIdempotencyKey(request({ key: 'k'.repeat(256) }))).rejects.toMatchObject({ field: 'key' });
    });
  });
}

describeKeys(() => fileBackend);
withTestDatabase((url) => describeKeys(() => postgresBackend(url)));
