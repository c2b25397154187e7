// Group commit: queued work shares one transaction with no savepoint per piece, a failing piece
// fails alone (its group undone and run again piece by piece), and the ledger's webhook ingest
// keeps exactly-once under concurrent, duplicated deliveries.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';

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

  it('runs relaxed work alone as a light write, relaxed groups lightly, and relaxed beside durable work synced', async () => {
    const { db, begun } = database();
    await sql`create table entries (name text primary key)`.execute(db);
    let lightWrites = 0;
    const group = new GroupCommit(db as never, (work) => {
      lightWrites += 1;
      return work(db as never);
    });
    const insert = (name: string, relaxed: boolean) => group.run(async (trx) => void (await sql`insert into entries values (${name})`.execute(trx)), '', relaxed);
    // Alone: one statement, no transaction, not waiting for the disk.
    await insert('a', true);
    expect([lightWrites, begun.length]).toEqual([1, 0]);
    // Several relaxed pieces: one transaction, lightly.
    await Promise.all([insert('b', true), insert('c', true)]);
    expect([lightWrites, begun.length]).toEqual([2, 1]);
    // Beside a durable piece: its synced transaction.
    await Promise.all([insert('d', true), insert('e', false)]);
    expect([lightWrites, begun.length]).toEqual([2, 2]);
    await insert('f', false);
    expect([lightWrites, begun.length]).toEqual([2, 3]);
    expect((await db.selectFrom('entries').select('name').orderBy('name').execute()).map((row) => row.name)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
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
});

describe('webhook ingest in group commits (SQLite)', () => {
  let ledger: Ledger;
  afterEach(async () => {
    await ledger.close();
  });

  it('applies each of many concurrent, duplicated events exactly once', async () => {
    ledger = await openLedger(':memory:');
    const orders: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const session = await ledger.createSession({ amount: 1010, currency: 'UAH', description: 'tea', method: 'purchase' });
      const claim = await ledger.claimPayAttempt(session.id, { mode: 'direct' });
      if (!claim.claimed) throw new Error('not claimed');
      orders.push(claim.payment.orderId);
    }
    const event = (orderId: string) => ({
      data: `success:${orderId}`,
      body: JSON.stringify({ order_id: orderId, status: 'success' }),
      method: 'purchase',
      status: 'success',
      orderId,
      amount: 1010,
      currency: 'UAH',
    });
    const deliveries = [...orders, ...orders, ...orders].map((orderId) => ledger.ingestEvent(event(orderId)));
    const results = await Promise.all(deliveries);
    expect(results.filter((result) => result.isNew)).toHaveLength(20);
    expect(results.filter((result) => result.advanced)).toHaveLength(20);
    for (const orderId of orders) {
      const order = await ledger.getOrder(orderId);
      expect(order?.payment.status).toBe('success');
      expect(order?.events).toHaveLength(1);
    }
  });
});
