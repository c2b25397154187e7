// Group commit: queued work shares one transaction with no savepoint per piece, a failing piece
// fails alone (its group undone and run again piece by piece), and the ledger's webhook ingest
// keeps exactly-once under concurrent, duplicated deliveries.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerContext } from './context.js';
import { GroupCommit, sharedTransactions } from './group-commit.js';
import { postgresDialect } from './postgres.js';
import type { LedgerTables } from './schema.js';
import type { Batch, PieceOptions } from './group-commit.js';
import { isLedgerUnavailable } from './availability.js';
import { sqliteDialect } from './sqlite.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import pg from 'pg';
import { TestClock, postgresTestLedger, withTestDatabase } from './testing/databases.js';

describe('GroupCommit', () => {
  const opened: Kysely<{ entries: { name: string } }>[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
  });

  function database() {
    const sqlite = new Database(':memory:');
    const begun: string[] = [];
    const savepoints: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      if (/^begin/i.test(text)) begun.push(text);
      if (/^(savepoint|release|rollback to)/i.test(text)) savepoints.push(text);
      return prepare(text);
    }) as typeof sqlite.prepare;
    const db = new Kysely<{ entries: { name: string } }>({ dialect: new SqliteDialect({ database: sqlite }) });
    opened.push(db);
    return { db, begun, savepoints };
  }

  it('runs the work queued while a transaction is open in one next transaction, and fails a failing piece alone', async () => {
    const { db, begun } = database();
    await sql`create table entries (name text primary key)`.execute(db);
    const group = new GroupCommit(db as never);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const insert = (name: string) => group.run(async (trx) => void (await sql`insert into entries values (${name})`.execute(trx)));
    let begin!: () => void;
    const begunFirst = new Promise<void>((resolve) => (begin = resolve));
    const first = group.run(async (trx) => {
      await sql`insert into entries values ('first')`.execute(trx);
      begin();
      await held;
    });
    await begunFirst;
    const queued = [
      insert('a'),
      insert('b'),
      group.run(async (trx) => {
        await sql`insert into entries values ('undone')`.execute(trx);
        throw new Error('this piece fails');
      }),
      insert('c'),
      insert('a'), // a duplicate key: fails on its own
    ];
    release();
    await first;
    const settled = await Promise.allSettled(queued);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect((await db.selectFrom('entries').select('name').orderBy('name').execute()).map((row) => row.name)).toEqual(['a', 'b', 'c', 'first']);
    // The first alone; the group of five, rolled back at the failing piece; then each of the five alone.
    expect(begun).toHaveLength(7);
  });

  it("runs a group's pieces in key order, a key's own in the order they came", async () => {
    const { db } = database();
    const group = new GroupCommit(db as never);
    const ran: string[] = [];
    const piece = (name: string, key: string) => group.run(async () => void ran.push(name), key);
    await Promise.all([piece('c1', 'c'), piece('a1', 'a'), piece('c2', 'c'), piece('b1', 'b'), piece('a2', 'a')]);
    expect(ran).toEqual(['a1', 'a2', 'b1', 'c1', 'c2']);
  });

  it('runs a group without a savepoint per piece', async () => {
    const { db, begun, savepoints } = database();
    await sql`create table entries (name text primary key)`.execute(db);
    const group = new GroupCommit(db as never);
    const insert = (name: string) => group.run(async (trx) => void (await sql`insert into entries values (${name})`.execute(trx)));
    await Promise.all([insert('a'), insert('b'), insert('c')]);
    expect(begun).toHaveLength(1);
    expect(savepoints).toEqual([]);
  });

  it('runs relaxed work alone as a light write, and commits a group lightly only when every piece may go unsynced', async () => {
    const { db, begun } = database();
    await sql`create table entries (name text primary key)`.execute(db);
    let lightWrites = 0;
    let lightCommits = 0;
    const group = new GroupCommit(
      db as never,
      (work) => {
        lightWrites += 1;
        return work(db as never);
      },
      () => void (lightCommits += 1),
    );
    const insert = (name: string, relaxed: PieceOptions<string>['relaxed']) =>
      group.run(async (trx) => (await sql`insert into entries values (${name})`.execute(trx), name), '', { relaxed });
    // Alone: one statement, no transaction, not waiting for the disk.
    await insert('a', true);
    expect([lightWrites, lightCommits, begun.length]).toEqual([1, 0, 0]);
    // Several relaxed pieces: one transaction, its commit light.
    await Promise.all([insert('b', true), insert('c', true)]);
    expect([lightWrites, lightCommits, begun.length]).toEqual([1, 1, 1]);
    // Beside a durable piece: its synced transaction.
    await Promise.all([insert('d', true), insert('e', false)]);
    expect([lightWrites, lightCommits, begun.length]).toEqual([1, 1, 2]);
    await insert('f', false);
    expect([lightWrites, lightCommits, begun.length]).toEqual([1, 1, 3]);
    // Relaxed by what they did, decided once they ran: light when every piece says so.
    const unchanged = (name: string) => name !== 'changed';
    await Promise.all([insert('g', unchanged), insert('h', unchanged)]);
    expect([lightWrites, lightCommits, begun.length]).toEqual([1, 2, 4]);
    await Promise.all([insert('i', unchanged), insert('changed', unchanged)]);
    expect([lightWrites, lightCommits, begun.length]).toEqual([1, 2, 5]);
    await insert('j', unchanged);
    expect([lightWrites, lightCommits, begun.length]).toEqual([1, 3, 6]);
    expect((await db.selectFrom('entries').select('name').orderBy('name').execute()).map((row) => row.name)).toEqual(['a', 'b', 'c', 'changed', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
  });

  it('does not run a committed group again when its commit could not be synced, and fails it as an outage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-group-'));
    const db = new Kysely<{ entries: { name: string } }>({ dialect: await sqliteDialect(join(dir, 'ledger.db')) });
    try {
      await sql`create table entries (name text primary key)`.execute(db);
      const group = new GroupCommit(db as never);
      let ran = 0;
      const insert = (name: string) => group.run(async (trx) => void (ran += 1, await sql`insert into entries values (${name})`.execute(trx)));
      // The WAL gone from under the open file: the group's commit lands, its sync fails.
      rmSync(join(dir, 'ledger.db-wal'));
      const settled = await Promise.allSettled([insert('a'), insert('b'), insert('c')]);
      expect(settled.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).name : outcome.status))).toEqual(['LedgerNotDurable', 'LedgerNotDurable', 'LedgerNotDurable']);
      expect(settled.every((outcome) => outcome.status === 'rejected' && isLedgerUnavailable(outcome.reason))).toBe(true);
      // Each piece ran once: a group rolled back would have run each again alone.
      expect(ran).toBe(3);
    } finally {
      await db.destroy().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets the work handed over in one turn of the event loop share a transaction, and starts it in the next', async () => {
    const { db, begun } = database();
    await sql`create table entries (name text primary key)`.execute(db);
    const group = new GroupCommit(db as never);
    const insert = (name: string) => group.run(async (trx) => void (await sql`insert into entries values (${name})`.execute(trx)));
    // As HTTP deliveries read in one turn: the first finds the queue idle, the rest join it.
    const first = insert('a');
    const more = [insert('b'), insert('c')];
    await Promise.all([first, ...more]);
    expect(begun).toHaveLength(1);
    // A turn later the queue is idle again: the next piece gets a transaction of its own.
    await insert('d');
    expect(begun).toHaveLength(2);
    expect((await db.selectFrom('entries').select('name').orderBy('name').execute()).map((row) => row.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs a suspect key that now succeeds once: alone, not again in its group', async () => {
    const { db, begun } = database();
    await sql`create table entries (name text primary key)`.execute(db);
    const group = new GroupCommit(db as never);
    const insert = (name: string) => group.run(async (trx) => void (await sql`insert into entries values (${name})`.execute(trx)), name);
    let runs = 0;
    let fails = true;
    const flaky = () =>
      group.run(async () => {
        runs += 1;
        if (fails) throw new Error('fails the first time only');
      }, 'flaky');
    await Promise.allSettled([insert('a'), flaky(), insert('b')]);
    fails = false;
    runs = 0;
    const again = await Promise.allSettled([insert('c'), flaky(), insert('d')]);
    expect(again.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(runs).toBe(1);
    // The group, rolled back, and its three alone; then the suspect alone and the two others together.
    expect(begun).toHaveLength(6);
  });
});

describe('GroupCommit with a batch', () => {
  const opened: Kysely<{ entries: { name: string } }>[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
  });

  function database() {
    const sqlite = new Database(':memory:');
    const begun: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      if (/^begin/i.test(text)) begun.push(text);
      return prepare(text);
    }) as typeof sqlite.prepare;
    const db = new Kysely<{ entries: { name: string } }>({ dialect: new SqliteDialect({ database: sqlite }) });
    opened.push(db);
    return { db, begun };
  }

  /** Settles the items named `batched:…`, one statement a round; the rest it leaves. */
  function namesBatch() {
    const rounds: string[][] = [];
    const batch: Batch<string> = {
      async run(_db, items) {
        rounds.push([...items]);
        return items.map((item) => (item.startsWith('batched') ? `${item} in a batch` : undefined));
      },
    };
    return { batch, rounds };
  }

  it("settles what its batch settles without a transaction, the rest in the group's", async () => {
    const { db, begun } = database();
    const group = new GroupCommit(db as never);
    const { batch, rounds } = namesBatch();
    const piece = (item: string, key: string) => group.run(async () => `${item} alone`, key, { batched: { batch, item } });
    const results = await Promise.all([piece('batched a', 'a'), piece('left b', 'b'), piece('batched c', 'c'), group.run(async () => 'plain d', 'd')]);
    expect(results).toEqual(['batched a in a batch', 'left b alone', 'batched c in a batch', 'plain d']);
    expect(rounds).toEqual([['batched a', 'left b', 'batched c']]);
    // What the batch left and the plain piece: one transaction.
    expect(begun).toHaveLength(1);
  });

  it("batches a key's pieces one a group, in their order: the later ones wait for the next group, not a transaction", async () => {
    const { db, begun } = database();
    const group = new GroupCommit(db as never);
    const { batch, rounds } = namesBatch();
    const piece = (item: string, key: string) => group.run(async () => `${item} alone`, key, { batched: { batch, item } });
    const results = await Promise.all([piece('batched a1', 'a'), piece('batched b1', 'b'), piece('batched a2', 'a'), piece('left b2', 'b'), piece('batched b3', 'b')]);
    expect(rounds).toEqual([['batched a1', 'batched b1'], ['batched a2', 'left b2'], ['batched b3']]);
    // b3 is batched only once b2, which its batch left, has run the ordinary way.
    expect(results).toEqual(['batched a1 in a batch', 'batched b1 in a batch', 'batched a2 in a batch', 'left b2 alone', 'batched b3 in a batch']);
    // The one transaction: b2's, alone.
    expect(begun).toHaveLength(1);
  });

  it('runs every piece the ordinary way when the batch throws, and says so once unless another instance raced it; fails them as an outage when the database is away', async () => {
    const { db } = database();
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      const failingWith = (code: string) => {
        const group = new GroupCommit(db as never);
        const batch: Batch<string> = { run: () => Promise.reject(Object.assign(new Error('value "4242…" refused'), { code })) };
        return (item: string, key: string) => group.run(async () => `${item} alone`, key, { batched: { batch, item } });
      };
      const raced = failingWith('23505');
      expect(await Promise.all([raced('a', 'a'), raced('b', 'b')])).toEqual(['a alone', 'b alone']);
      expect(warned).not.toHaveBeenCalled();
      // A database that cannot be reached is an outage, not a statement the server does not suit:
      // its pieces fail at once, as an outage, and none runs again to wait it out a second time.
      const down = failingWith('ECONNREFUSED');
      const outage = await Promise.allSettled([down('a', 'a'), down('b', 'b')]);
      expect(outage.map((piece) => piece.status === 'rejected' && isLedgerUnavailable(piece.reason))).toEqual([true, true]);
      expect(warned).not.toHaveBeenCalled();
      const broken = failingWith('42883');
      expect(await Promise.all([broken('a', 'a'), broken('b', 'b')])).toEqual(['a alone', 'b alone']);
      expect(await Promise.all([broken('c', 'c')])).toEqual(['c alone']);
      expect(warned).toHaveBeenCalledTimes(1);
      expect(String(warned.mock.calls[0]![0])).toContain('code 42883');
      expect(String(warned.mock.calls[0]![0])).not.toContain('4242');
    } finally {
      warned.mockRestore();
    }
  });

  it('fails a group whose transaction meets an outage at once, running no piece again alone', async () => {
    const { db } = database();
    const group = new GroupCommit(db as never);
    let ran = 0;
    const unreachable = Object.assign(new Error('Query read timeout'), { code: 'ETIMEDOUT' });
    const work = () => group.run(async () => {
      ran += 1;
      throw unreachable;
    });
    const settled = await Promise.allSettled([work(), work(), work()]);
    expect(settled.map((piece) => (piece.status === 'rejected' ? piece.reason : piece.status))).toEqual([unreachable, unreachable, unreachable]);
    // The first piece met it in the group's transaction; none ran again.
    expect(ran).toBe(1);
  });

  it('runs a key that failed alone next time, so it does not undo its group again', async () => {
    const { db, begun } = database();
    await sql`create table entries (name text primary key)`.execute(db);
    const group = new GroupCommit(db as never);
    const insert = (name: string) => group.run(async (trx) => void (await sql`insert into entries values (${name})`.execute(trx)), name);
    const failing = () =>
      group.run(async (trx) => {
        await sql`insert into entries values ('undone')`.execute(trx);
        throw new Error('this piece always fails');
      }, 'bad');
    const first = await Promise.allSettled([insert('a'), failing(), insert('b')]);
    expect(first.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The group, rolled back; then each of its three alone.
    expect(begun).toHaveLength(4);
    const again = await Promise.allSettled([insert('c'), failing(), insert('d')]);
    expect(again.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The failing one alone, the two others in one group.
    expect(begun).toHaveLength(6);
    expect((await db.selectFrom('entries').select('name').orderBy('name').execute()).map((row) => row.name)).toEqual(['a', 'b', 'c', 'd']);
  });
});

/** Many concurrent deliveries of each order's pending and success, repeats, a late pending and an unknown order. */
function describeIngest(name: string, open: () => Promise<{ ledger: Ledger; dispose(): Promise<void> }>): void {
  describe(`webhook ingest in group commits (${name})`, () => {
    let opened: { ledger: Ledger; dispose(): Promise<void> };
    afterEach(async () => {
      await opened.dispose();
    });

    it('applies each of many concurrent, duplicated events exactly once, in each order\'s order', async () => {
      opened = await open();
      const { ledger } = opened;
      const orders: string[] = [];
      for (let i = 0; i < 20; i += 1) {
        const session = await ledger.createSession({ amount: 1010, currency: 'UAH', description: 'tea', method: 'purchase' });
        const claim = await ledger.claimPayAttempt(session.id, { mode: 'direct' });
        if (!claim.claimed) throw new Error('not claimed');
        orders.push(claim.payment.orderId);
      }
      const event = (orderId: string, status: string, tag = '') => ({
        data: `${status}:${orderId}${tag}`,
        body: JSON.stringify({ order_id: orderId, status }),
        method: 'purchase',
        status,
        orderId,
        amount: 1010,
        currency: 'UAH',
      });
      const deliveries = [
        ...orders.map((orderId) => event(orderId, 'pending')),
        ...orders.map((orderId) => event(orderId, 'success')),
        ...orders.map((orderId) => event(orderId, 'success')),
        ...orders.map((orderId) => event(orderId, 'pending')),
      ].map((delivery) => ledger.ingestEvent(delivery));
      const results = await Promise.all(deliveries);
      expect(results.filter((result) => result.isNew)).toHaveLength(40);
      expect(results.filter((result) => result.advanced)).toHaveLength(40);
      expect(results.filter((result) => result.isNew).map((result) => result.event.outcome)).toEqual(Array(40).fill('applied'));
      // Later ones: a pending the gateway sent again after the success (another event), and an unknown order.
      const late = await Promise.all([...orders.slice(0, 5).map((orderId) => ledger.ingestEvent(event(orderId, 'pending', ':late'))), ledger.ingestEvent(event('no-such-order', 'success'))]);
      expect(late.map((result) => [result.isNew, result.advanced, result.event.outcome])).toEqual([...Array(5).fill([true, false, 'stale']), [true, false, 'unmatched']]);
      for (const orderId of orders) {
        const order = await ledger.getOrder(orderId);
        expect(order?.payment.status).toBe('success');
        expect(order?.events.map((stored) => stored.outcome).sort()).toEqual(orders.indexOf(orderId) < 5 ? ['applied', 'applied', 'stale'] : ['applied', 'applied']);
      }
    });
  });
}

describeIngest('SQLite', async () => {
  const ledger = await openLedger(':memory:');
  return { ledger, dispose: () => ledger.close() };
});

withTestDatabase((url) => {
  describeIngest('PostgreSQL', () => postgresTestLedger(url, new TestClock()));

  it("leaves the pay path a connection while the webhook path's transaction is open (pool of 2)", async () => {
    const db = new Kysely<LedgerTables>({ dialect: await postgresDialect(url, { poolSize: 2 }) });
    try {
      const ctx: LedgerContext = { db, dialect: 'postgres', now: Date.now, lightly: (work) => work(db), commitLightly: () => undefined };
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started = 0;
      let firstStarted!: () => void;
      const begun = new Promise<void>((resolve) => (firstStarted = resolve));
      // Many orders (four lanes used to spread them over four connections).
      const pieces = Array.from({ length: 16 }, (_, i) =>
        sharedTransactions(ctx)(async (trx) => {
          started += 1;
          firstStarted();
          await sql`select 1`.execute(trx);
          await held;
        }, `order-${i}`),
      );
      await begun;
      // A payment's statement, while the webhooks' transactions are open.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(rows).toEqual([{ one: 1 }]);
      expect(started).toBe(1);
      release();
      await Promise.all(pieces);
      expect(started).toBe(16);
    } finally {
      await db.destroy();
    }
  });

  it('runs a piece PostgreSQL gave up to break a deadlock again, in a transaction of its own', async () => {
    const db = new Kysely<{ deadlocked: { name: string; n: number } }>({ dialect: await postgresDialect(url, { poolSize: 2 }) });
    // Another instance of the ledger, as two companions applying copies of one webhook are.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await sql`create table if not exists deadlocked (name text primary key, n integer not null)`.execute(db);
      await sql`delete from deadlocked`.execute(db);
      await sql`insert into deadlocked values ('a', 0), ('b', 0)`.execute(db);
      const ctx = { db, dialect: 'postgres', now: Date.now, lightly: (work: (db: never) => unknown) => work(db as never), commitLightly: () => undefined } as unknown as LedgerContext;
      // The piece's backend waiting on this table's row, not another test's on the same server
      // (read outside the other's transaction, whose view of the activity would hold still).
      const waiting = async () =>
        (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'update deadlocked %'`.execute(db)).rows[0]!.n > 0;
      const deadlock = async (tries: { n: number }) => {
        // The other takes b, the piece a then b (it waits), the other a: a deadlock, whose
        // detector (in the backend that waited first, the piece's) gives the piece up.
        await other.query('begin');
        await other.query("update deadlocked set n = n + 1 where name = 'b'");
        const piece = sharedTransactions(ctx)(async (trx) => {
          tries.n += 1;
          await sql`update deadlocked set n = n + 1 where name = 'a'`.execute(trx);
          await sql`update deadlocked set n = n + 1 where name = 'b'`.execute(trx);
        }, 'order-deadlocked');
        while (!(await waiting())) await new Promise((resolve) => setTimeout(resolve, 10));
        // Each waiter checks for a deadlock once it has waited deadlock_timeout (1 s): crossing a
        // third of that after the piece began waiting keeps its check first, mostly.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const crossing = other.query("update deadlocked set n = n + 1 where name = 'a'");
        return { piece: piece.then(() => undefined, (error: unknown) => error), crossing, end: () => other.query('commit') };
      };
      // A loaded machine may still fire the other's check first, and PostgreSQL then gives up the
      // other, not the piece: the case under test did not happen, and is set up again.
      let once = { n: 0 };
      for (let setups = 1; ; setups += 1) {
        once = { n: 0 };
        const first = await deadlock(once);
        const crossed = await first.crossing.then(
          () => true,
          (error: { code?: string }) => (error.code === '40P01' && setups < 3 ? false : Promise.reject(error)),
        );
        if (crossed) {
          await first.end();
          expect(await first.piece).toBeUndefined();
          break;
        }
        await other.query('rollback');
        expect(await first.piece).toBeUndefined();
        await sql`update deadlocked set n = 0`.execute(db);
      }
      expect(once.n).toBe(2);
      expect((await sql<{ name: string; n: number }>`select name, n from deadlocked order by name`.execute(db)).rows).toEqual([
        { name: 'a', n: 2 },
        { name: 'b', n: 2 },
      ]);
    } finally {
      await other.end();
      await sql`drop table if exists deadlocked`.execute(db);
      await db.destroy();
    }
  });
});
