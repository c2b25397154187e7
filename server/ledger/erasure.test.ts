// A customer's personal data erased on request, on every backend: their orders' details, their
// sessions' and the customer fields of their orders' webhooks go, their saved cards too; the
// orders stay with their money; nobody else's details are touched; an order still to be decided
// holds the erasure back, whole.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from './ledger.js';
import type { Ledger } from './ledger.js';
import type { GatewayEvent, OrderListQuery } from './types.js';
import { claimedPayment, gatewayEvent, paidOrder } from './testing/contract.js';
import { fileBackend, memoryBackend, postgresBackend, TestClock, withTestDatabase } from './testing/databases.js';
import type { LedgerBackend, TestLedger } from './testing/databases.js';
import { withoutCustomer } from './erasure.js';
import { ERASED_BODY } from './migrations.js';
import { queryPlan } from './testing/query-plan.js';

// Kept as the companion keeps an address (emailAsWritten): its domain's non-ASCII letters lowered.
const olena = { email: 'Olena.Koval@приклад.укр', fname: 'Olena', lname: 'Koval', phone: '+380501234567' };
const taras = { email: 'taras@example.com', fname: 'Taras', lname: 'Bondar', phone: '+380671112233' };

function describeErasure(backend: LedgerBackend): void {
  describe(`a customer's erasure on ${backend.name}`, () => {
    let clock: TestClock;
    let store: TestLedger;
    let ledger: Ledger;

    beforeEach(async () => {
      clock = new TestClock();
      store = await backend.open(clock);
      ledger = store.ledger;
    });
    afterEach(() => store.dispose());

    /** A paid order of `customer`'s, its webhook stored with the gateway's customer fields. */
    async function paidWithWebhook(customer: typeof olena, extra: { customerId?: string } = {}) {
      const payment = await paidOrder(ledger, { customer, amount: 2500, currency: 'UAH', ...extra }, { ccMask: '424242******4242', paymentId: `pay-${clock.now}` });
      await ledger.ingestEvent(
        gatewayEvent(
          { orderId: payment.orderId, method: 'purchase', status: 'success', statusCode: '1000', amount: 2500, currency: 'UAH' },
          { customer_email: customer.email, customer_fname: customer.fname, customer_phone: customer.phone, customer_ip: '203.0.113.7', customer_id: extra.customerId ?? null, amount: 25 },
        ),
      );
      clock.advance(1000);
      return payment;
    }

    it('empties the details of every order, session and webhook of the e-mail, however it is written, and keeps the orders and their money', async () => {
      const first = await paidWithWebhook(olena);
      // As a ledger kept an address before its domain was written in Unicode.
      const second = await paidWithWebhook({ ...olena, email: 'OLENA.KOVAL@xn--80aikifvh.xn--j1amh' });
      const other = await paidWithWebhook(taras);

      const erased = await ledger.eraseCustomer({ email: 'olena.koval@Приклад.укр' });
      expect([...erased.orderIds].sort()).toEqual([first.orderId, second.orderId].sort());
      expect(erased).toMatchObject({ sessions: 2, events: 2, cards: 0, otherCustomerIds: [], walKept: false });

      for (const { orderId, sessionId } of [first, second]) {
        const order = (await ledger.getOrder(orderId))!;
        expect(order.payment.customer).toEqual({});
        expect(order.payment).toMatchObject({ amount: 2500, currency: 'UAH', status: 'success', ccMask: '424242******4242' });
        expect((await ledger.getSession(sessionId))!.customer).toEqual({});
        const [event] = order.events;
        expect(JSON.parse(event!.body)).toEqual({ order_id: orderId, method: 'purchase', status: 'success', status_code: '1000', customer_id: null, amount: 25 });
      }
      expect(await ledger.moneyTotals({ from: 0, to: clock.now + 1 })).toEqual([{ currency: 'UAH', paid: 7500, refunded: 0, net: 7500 }]);
      expect((await ledger.listOrders({ email: olena.email })).orders).toEqual([]);

      // Nobody else's.
      const kept = (await ledger.getOrder(other.orderId))!;
      expect(kept.payment.customer).toEqual(taras);
      expect(JSON.parse(kept.events[0]!.body)).toMatchObject({ customer_email: taras.email, customer_phone: taras.phone });

      // Nothing left to erase.
      expect(await ledger.eraseCustomer({ email: olena.email })).toEqual({ orderIds: [], sessions: 0, events: 0, cards: 0, otherCustomerIds: [], walKept: false });
    });

    it('by customer id, erases their orders and the sessions they never paid, and deletes their saved cards', async () => {
      const paid = await paidWithWebhook(olena, { customerId: 'cust-olena' });
      const unpaid = await ledger.createSession({ amount: 900, currency: 'UAH', description: 'Tea', method: 'purchase', customer: olena, customerId: 'cust-olena' });
      await ledger.saveCard({ customerId: 'cust-olena', ccToken: 'tok-1', ccMask: '424242******4242' });
      await ledger.saveCard({ customerId: 'cust-taras', ccToken: 'tok-2', ccMask: '555555******4444' });

      const erased = await ledger.eraseCustomer({ customerId: 'cust-olena' });
      expect(erased).toEqual({ orderIds: [paid.orderId], sessions: 2, events: 1, cards: 1, otherCustomerIds: [], walKept: false });
      // Closed: an instance that showed it remembers what it was opened with, and would pay with that.
      expect(await ledger.getSession(unpaid.id)).toMatchObject({ customer: {}, status: 'closed' });
      expect(await ledger.claimPayAttempt(unpaid.id, { mode: 'direct', customer: {} })).toMatchObject({ claimed: false, reason: 'closed' });
      // A paid one is left as it was, but for the details.
      expect(await ledger.getSession(paid.sessionId)).toMatchObject({ status: 'paid', closedAt: null, customer: {} });
      // Its card's token goes with the cards: a credential of the person's card.
      expect((await ledger.getOrder(paid.orderId))!.payment).toMatchObject({ customer: {}, customerId: 'cust-olena', ccToken: null });
      expect(await ledger.listCards('cust-olena')).toEqual([]);
      expect(await ledger.listCards('cust-taras')).toHaveLength(1);
    });

    it('holds back, erasing nothing, while an order of theirs is to be decided, and names it', async () => {
      const paid = await paidWithWebhook(olena);
      const waiting = await claimedPayment(ledger, { customer: olena, amount: 700, currency: 'UAH' });
      await expect(ledger.eraseCustomer({ email: olena.email })).rejects.toMatchObject({ reason: 'payment_in_flight', orderIds: [waiting.orderId], message: expect.stringContaining(waiting.orderId) });
      expect((await ledger.getOrder(paid.orderId))!.payment.customer).toEqual(olena);

      await ledger.advancePayment(waiting.orderId, { status: 'failure', statusCode: '1002' });
      // A refund under way holds it back too: its answer is still to come.
      const refund = await ledger.reserveOperation(paid.orderId, { kind: 'refund', amount: 100 });
      await expect(ledger.eraseCustomer({ email: olena.email })).rejects.toMatchObject({ reason: 'payment_in_flight', message: expect.stringContaining(paid.orderId) });
      await ledger.settleOperation(refund.id, { status: 'success', operationId: 'op-refund' });

      expect([...(await ledger.eraseCustomer({ email: olena.email })).orderIds].sort()).toEqual([paid.orderId, waiting.orderId].sort());
    });

    it('by customer id, also erases the webhooks of an order that held no details of its own, and keeps them out of those that come after', async () => {
      // A charge of a saved card, made by the merchant's server with no details: the gateway's webhook names the payer.
      const charge = await paidOrder(ledger, { customerId: 'cust-olena', amount: 900, currency: 'UAH' });
      const event = (extra: Record<string, unknown>) =>
        ledger.ingestEvent(gatewayEvent({ orderId: charge.orderId, method: 'purchase', status: 'success', statusCode: '1000', amount: 900, currency: 'UAH', paymentId: charge.paymentId ?? undefined }, extra));
      await event({ customer_phone: olena.phone, customer_ip: '203.0.113.7', n: 1 });
      expect(await ledger.eraseCustomer({ customerId: 'cust-olena' })).toMatchObject({ orderIds: [charge.orderId], events: 1 });

      // A subscription's later charge under the same order id names the payer again: stored without.
      clock.advance(1000);
      await event({ customer_email: olena.email, customer_phone: olena.phone, n: 2 });
      const bodies = (await ledger.getOrder(charge.orderId))!.events.map(({ body }) => body).join('\n');
      expect(bodies).not.toMatch(/customer_(phone|ip|email)/);
      expect(await ledger.eraseCustomer({ customerId: 'cust-olena' })).toMatchObject({ orderIds: [charge.orderId], events: 0 });
    });

    it('keeps the details out of what comes about an erased order later, the card token too, whichever way it is stored', async () => {
      const charge = await paidOrder(ledger, { customer: olena, customerId: 'cust-olena', amount: 900, currency: 'UAH' }, { paymentId: 'pay-later', ccMask: '424242******4242', ccToken: 'tok-olena' });
      const other = await paidWithWebhook(taras);
      expect(await ledger.eraseCustomer({ customerId: 'cust-olena' })).toMatchObject({ orderIds: [charge.orderId] });

      clock.advance(1000);
      const payer = { customer_email: olena.email, customer_fname: olena.fname, customer_phone: olena.phone, customer_id: 'cust-olena' };
      const paid = { orderId: charge.orderId, method: 'purchase', status: 'success', statusCode: '1000', amount: 900, currency: 'UAH', paymentId: 'pay-later' };
      // The gateway's re-send, with the card token (PostgreSQL: a group's one statement); a refund
      // made in its portal (the ordinary way); posts whose bodies are no JSON object.
      const ingest = async (...events: GatewayEvent[]) => {
        for (const event of events) {
          await ledger.ingestEvent(event);
          clock.advance(1);
        }
        return (await ledger.getOrder(charge.orderId))!;
      };
      let order = await ingest(
        gatewayEvent({ ...paid, ccToken: 'tok-olena', ccTokenExpiration: '12/30' }, { ...payer, card_token: 'tok-olena', n: 1 }),
        gatewayEvent({ orderId: charge.orderId, method: 'refund', status: 'success', statusCode: '1000', amount: 300, currency: 'UAH', operationId: 'op-portal' }, { ...payer, n: 2 }),
      );
      expect(order.payment).toMatchObject({ customer: {}, customerId: 'cust-olena', ccToken: null, ccTokenExpiration: null, ccMask: '424242******4242' });
      expect(order.operations).toMatchObject([{ kind: 'refund', amount: 300, status: 'success' }]);
      expect(order.events.map(({ body }) => JSON.parse(body) as unknown)).toEqual([
        { order_id: charge.orderId, method: 'purchase', status: 'success', status_code: '1000', customer_id: 'cust-olena', card_token: 'tok-olena', n: 1 },
        { order_id: charge.orderId, method: 'refund', status: 'success', operation_id: 'op-portal', status_code: '1000', customer_id: 'cust-olena', n: 2 },
      ]);
      // Nothing left for another erasure.
      expect(await ledger.eraseCustomer({ customerId: 'cust-olena' })).toMatchObject({ events: 0 });

      order = await ingest(...['[1, 2]', 'not JSON'].map((body) => ({ ...gatewayEvent({ ...paid, unreadable: true }), body, data: Buffer.from(body).toString('base64url') })));
      expect(order.events.slice(2).map(({ body }) => body)).toEqual(['[1, 2]', 'not JSON']);
      // Nobody else's touched.
      await ledger.ingestEvent(gatewayEvent({ orderId: other.orderId, method: 'purchase', status: 'success', statusCode: '1000', amount: 2500, currency: 'UAH' }, { customer_email: taras.email, n: 3 }));
      expect((await ledger.getOrder(other.orderId))!.events.map(({ body }) => JSON.parse(body) as Record<string, unknown>).at(-1)).toMatchObject({ customer_email: taras.email, n: 3 });
    });

    it('keeps the details out of a later webhook whatever its body holds: an escaped NUL, a lone surrogate, nesting too deep to read', async () => {
      const charge = await paidOrder(ledger, { customer: olena, customerId: 'cust-olena', amount: 900, currency: 'UAH' }, { paymentId: 'pay-odd' });
      await ledger.eraseCustomer({ customerId: 'cust-olena' });
      const deep = JSON.parse(`${'['.repeat(1200)}1${']'.repeat(1200)}`) as unknown;
      const odd = [{ note: 'a\u0000b' }, { note: '\ud800' }, { deep }];
      for (const [n, extra] of odd.entries()) {
        clock.advance(1);
        await ledger.ingestEvent(gatewayEvent({ orderId: charge.orderId, method: 'refund', status: 'success', statusCode: '1000', amount: 100 + n, currency: 'UAH', operationId: `op-odd-${n}` }, { customer_email: olena.email, customer_phone: olena.phone, ...extra }));
      }
      const order = (await ledger.getOrder(charge.orderId))!;
      expect(order.operations).toHaveLength(odd.length);
      expect(order.events).toHaveLength(odd.length);
      for (const { body } of order.events) expect(body).not.toMatch(/Olena\.Koval|\+380501234567/u);
    });

    it('holds back while an attempt ended as never sent may still be shown by the gateway, until reconciliation gives it up', async () => {
      const unsent = await claimedPayment(ledger, { customer: olena, amount: 700, currency: 'UAH' });
      // The gateway's order state read twice, a spacing apart, without it: ended as never sent.
      clock.advance(1000);
      await ledger.countAbsentPayment(unsent.orderId, { readAt: clock.now, reads: 2, spacingMs: 1000 });
      clock.advance(1000);
      expect(await ledger.countAbsentPayment(unsent.orderId, { readAt: clock.now, reads: 2, spacingMs: 1000 })).toMatchObject({ neverSent: true });
      await expect(ledger.eraseCustomer({ email: olena.email })).rejects.toMatchObject({ reason: 'payment_in_flight', message: expect.stringContaining(unsent.orderId) });
      clock.advance(60_000);
      await ledger.giveUpPayment(unsent.orderId, clock.now);
      expect((await ledger.eraseCustomer({ email: olena.email })).orderIds).toEqual([unsent.orderId]);
    });

    it('erases the sessions never paid that the sweep has not deleted yet, however long ago they expired', async () => {
      const unpaid = await ledger.createSession({ amount: 900, currency: 'UAH', description: 'Tea', method: 'purchase', customer: olena });
      // Past the sweep's 30 days, with no reconciler running to sweep it (a mounted companion).
      clock.advance(40 * 24 * 3_600_000);
      expect(await ledger.eraseCustomer({ email: olena.email })).toMatchObject({ orderIds: [], sessions: 1 });
      expect((await ledger.getSession(unpaid.id))!.customer).toEqual({});
    });

    it('by e-mail alone, names the customer ids on their orders, whose saved cards it leaves, and by which they are still listed', async () => {
      const paid = await paidWithWebhook(olena, { customerId: 'cust-olena' });
      await paidWithWebhook(taras, { customerId: 'cust-taras' });
      await ledger.saveCard({ customerId: 'cust-olena', ccToken: 'tok-1', ccMask: '424242******4242' });
      expect(await ledger.eraseCustomer({ email: olena.email })).toMatchObject({ cards: 0, otherCustomerIds: ['cust-olena'] });
      expect(await ledger.listCards('cust-olena')).toHaveLength(1);
      // The address is gone; the merchant's own id still finds what is kept of theirs.
      const listed = async (query: Omit<OrderListQuery, 'customerId'>) => (await ledger.listOrders({ customerId: 'cust-olena', ...query })).orders.map(({ orderId }) => orderId);
      expect(await listed({})).toEqual([paid.orderId]);
      expect(await listed({ status: 'success', amount: 2500 })).toEqual([paid.orderId]);
      expect(await listed({ status: 'failure' })).toEqual([]);
    });

    it('leaves no attempt begun during the erasure with the details: it is refused, or named, or erased', async () => {
      const session = await ledger.createSession({ amount: 900, currency: 'UAH', description: 'Tea', method: 'purchase', customer: olena, customerId: 'cust-olena' });
      const [erasure, claim] = await Promise.allSettled([ledger.eraseCustomer({ customerId: 'cust-olena' }), ledger.claimPayAttempt(session.id, { mode: 'direct', customer: olena })]);
      const claimed = claim.status === 'fulfilled' && claim.value.claimed ? claim.value.payment : undefined;
      if (erasure.status === 'rejected') expect(erasure.reason).toMatchObject({ reason: 'payment_in_flight', orderIds: [claimed!.orderId] });
      else if (claimed) expect((await ledger.getOrder(claimed.orderId))!.payment.customer).toEqual({});
      else expect(claim).toMatchObject({ status: 'fulfilled', value: { claimed: false, reason: 'closed' } });
    });

    it('refuses a request that names nobody', async () => {
      await expect(ledger.eraseCustomer({})).rejects.toMatchObject({ field: 'email' });
      await expect(ledger.eraseCustomer({ email: 'nobody' })).rejects.toMatchObject({ field: 'email' });
    });
  });
}

describe('an event body without the customer', () => {
  it('drops the customer_* fields but the merchant’s customer id, and leaves a body that is not a JSON object unless it names a customer', () => {
    expect(JSON.parse(withoutCustomer('{"order_id":"o-1","customer_email":"a@b.c","customer_ip":"1.2.3.4","customer_id":"c-1"}'))).toEqual({ order_id: 'o-1', customer_id: 'c-1' });
    const none = '{"order_id":"o-1","amount":10}';
    expect(withoutCustomer(none)).toBe(none);
    expect(withoutCustomer('not json')).toBe('not json');
    expect(withoutCustomer('[1,2]')).toBe('[1,2]');
    // One that names a customer but cannot be taken apart goes whole, as the database's trigger does it.
    expect(withoutCustomer('customer_email=a@b.c&amount=1')).toBe(ERASED_BODY);
    expect(withoutCustomer('[{"customer_email":"a@b.c"}]')).toBe(ERASED_BODY);
    expect(withoutCustomer('{"Customer_Email":"kept: not the gateway’s field"}')).toBe('{"Customer_Email":"kept: not the gateway’s field"}');
  });
});

describe('an erasure on a SQLite file', () => {
  it('leaves none of the person’s details, nor their card’s token, readable in the file or its write-ahead log, a later webhook’s neither', async () => {
    const clock = new TestClock();
    const store = await fileBackend.open(clock);
    try {
      const { ledger, file } = store;
      const person = { email: 'zoryana.unique@example.com', fname: 'Zoryana', lname: 'Unikalna', phone: '+380931112299' };
      const paid = await paidOrder(ledger, { customer: person, customerId: 'cust-zoryana' }, { ccToken: 'tok-zoryana-unique-0001' });
      await ledger.ingestEvent(gatewayEvent({ orderId: paid.orderId, method: 'purchase', status: 'success', statusCode: '1000', ccToken: 'tok-zoryana-unique-0001' }, { customer_email: person.email, customer_phone: person.phone }));
      await ledger.saveCard({ customerId: 'cust-zoryana', ccToken: 'tok-zoryana-unique-0001', ccMask: '424242******4242' });
      // Others' payments after, as a running shop has.
      for (let i = 0; i < 20; i++) await paidOrder(ledger, { customer: { email: `shopper${i}@example.com` } });

      await ledger.eraseCustomer({ email: person.email, customerId: 'cust-zoryana' });
      // The gateway's re-send after it: its details never reach the disk.
      await ledger.ingestEvent(gatewayEvent({ orderId: paid.orderId, method: 'purchase', status: 'success', statusCode: '1000', ccToken: 'tok-zoryana-unique-0001' }, { customer_email: person.email, customer_phone: person.phone, resent: true }));
      const readable = (path: string) => (existsSync(path) ? readFileSync(path).toString('latin1') : '');
      const onDisk = readable(file!) + readable(`${file!}-wal`);
      for (const trace of [person.email, person.fname, person.lname, person.phone, 'tok-zoryana-unique']) expect(onDisk.includes(trace), trace).toBe(false);
      // The others' stay.
      expect(onDisk).toContain('shopper7@example.com');
    } finally {
      await store.dispose();
    }
  });
});

describe('an erased order on a SQLite file another process writes', () => {
  it('takes no card token from it (a companion of the build before, the sqlite3 shell), while others’ orders do', async () => {
    const store = await fileBackend.open(new TestClock());
    const other = new Database(store.file!);
    try {
      const { ledger } = store;
      const erased = await paidOrder(ledger, { customer: olena, customerId: 'cust-olena' }, { paymentId: 'pay-erased' });
      const kept = await paidOrder(ledger, { customer: taras }, { paymentId: 'pay-kept' });
      await ledger.eraseCustomer({ customerId: 'cust-olena' });
      const giveToken = other.prepare("update payform_payments set cc_token = 'tok-back', cc_token_expiration = '12/30' where order_id = ?");
      giveToken.run(erased.orderId);
      giveToken.run(kept.orderId);
      expect((await ledger.getOrder(erased.orderId))!.payment).toMatchObject({ ccToken: null, ccTokenExpiration: null });
      expect((await ledger.getOrder(kept.orderId))!.payment).toMatchObject({ ccToken: 'tok-back', ccTokenExpiration: '12/30' });
    } finally {
      other.close();
      await store.dispose();
    }
  });
});

describe('an erasure while another connection reads the SQLite file', () => {
  it('says its write-ahead log was kept, and empties it at the next erasure once the reader is gone', async () => {
    const clock = new TestClock();
    const store = await fileBackend.open(clock);
    const reader = new Database(store.file!, { readonly: true });
    try {
      await paidOrder(store.ledger, { customer: olena });
      // A backup or a database browser in the middle of its read.
      reader.prepare('begin').run();
      reader.prepare('select count(*) from payform_payments').get();
      expect(await store.ledger.eraseCustomer({ email: olena.email })).toMatchObject({ walKept: true });
      reader.prepare('commit').run();
      expect(await store.ledger.eraseCustomer({ email: olena.email })).toMatchObject({ walKept: false });
    } finally {
      reader.close();
      await store.dispose();
    }
  });
});

describe('the plan of an erasure on SQLite', () => {
  it('finds the customer’s orders, sessions, events and cards by indexes, never by a scan of a table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-erasure-plan-'));
    try {
      const file = join(dir, 'ledger.db');
      const sent: string[] = [];
      const ledger = await openLedger(file, { onStatement: (sql) => void sent.push(sql) });
      await paidOrder(ledger, { customer: olena, customerId: 'cust-olena' });
      sent.length = 0;
      expect((await ledger.eraseCustomer({ email: olena.email, customerId: 'cust-olena' })).orderIds).toHaveLength(1);
      await ledger.close();
      const db = new Database(file, { readonly: true });
      try {
        const statements = sent.filter((sql) => /^(select|update|delete)/.test(sql));
        expect(statements.flatMap((sql) => sql.match(/payform_\w+/g) ?? [])).toEqual(
          expect.arrayContaining(['payform_payments', 'payform_checkout_sessions', 'payform_webhook_events', 'payform_saved_cards']),
        );
        for (const statement of statements) {
          const plan = queryPlan(db, statement);
          // A SEARCH by a key or a range, never a SCAN: not of a table, nor of a whole index.
          expect(plan, statement).not.toMatch(/\bSCAN\b/);
          // An order's operations by the order's index: one by status would read every pending operation of the ledger for each order.
          if (statement.includes('"payform_operations"')) expect(plan, statement).toMatch(/SEARCH o USING (COVERING )?INDEX payform_operations_of_order/);
        }
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeErasure(memoryBackend);
describeErasure(fileBackend);
withTestDatabase((url) => describeErasure(postgresBackend(url)));
