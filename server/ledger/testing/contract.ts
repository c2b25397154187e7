// The ledger's behaviour, written once and run against every backend (SQLite in memory, SQLite
// in a file, PostgreSQL): whatever the database, the same calls give the same answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LATER_REPORTS_KEPT } from '../discrepancies.js';
import { InvalidLedgerInput, LedgerConflict, LedgerNotFound, OperationRefused } from '../errors.js';
import type { Ledger } from '../ledger.js';
import { NOTICE_GRACE_MS, operationNotice, paymentNotice } from '../notices.js';
import type { DueNotice, GatewayEvent, NewCheckoutSession, Operation, Payment, PaymentDetails, PaymentUpdate } from '../types.js';
import { TestClock } from './databases.js';
import type { LedgerBackend, TestLedger } from './databases.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const teaSession: NewCheckoutSession = { amount: 1000, currency: 'XTS', description: 'Green tea, 250 g', method: 'purchase' };

export async function claimedPayment(ledger: Ledger, session: Partial<NewCheckoutSession> = {}): Promise<Payment> {
  const created = await ledger.createSession({ ...teaSession, ...session });
  const claim = await ledger.claimPayAttempt(created.id, { mode: 'direct' });
  if (!claim.claimed) throw new Error(`claim refused: ${claim.reason}`);
  return claim.payment;
}

export async function paidOrder(ledger: Ledger, session: Partial<NewCheckoutSession> = {}, details: PaymentDetails = {}): Promise<Payment> {
  const payment = await claimedPayment(ledger, session);
  return (await ledger.advancePayment(payment.orderId, { status: 'success', statusCode: '1000', ...details })).payment;
}

/** A webhook as the companion hands it over: raw data, decoded body, parsed facts. */
export function gatewayEvent(facts: Omit<GatewayEvent, 'data' | 'body'>, extra: Record<string, unknown> = {}): GatewayEvent {
  const body = JSON.stringify({
    order_id: facts.orderId,
    method: facts.method,
    status: facts.status,
    operation_id: facts.operationId,
    status_code: facts.statusCode,
    ...extra,
  });
  return { ...facts, body, data: Buffer.from(body).toString('base64url') };
}

export function refundsOf(operations: readonly Operation[]): Operation[] {
  return operations.filter((op) => op.kind === 'refund');
}

export function describeLedgerContract(backend: LedgerBackend): void {
  describe(`ledger on ${backend.name}`, () => {
    let clock: TestClock;
    let store: TestLedger;
    let ledger: Ledger;

    beforeEach(async () => {
      clock = new TestClock();
      store = await backend.open(clock);
      ledger = store.ledger;
    });
    afterEach(async () => {
      await store.dispose();
    });

    // An in-memory database lives and dies with its one connection: nothing to reopen or inspect.
    if (backend.persistent) describeSchema();
    function describeSchema() {
    describe('schema', () => {
      // What the migrator made, not a copy of a ledger migrated earlier.
      beforeEach(async () => {
        await store.dispose();
        store = await backend.open(clock, { fromScratch: true });
        ledger = store.ledger;
      });

      it('opens an existing database again without migrating twice and keeps its data', async () => {
        const payment = await paidOrder(ledger);
        const again = await store.reopen!();
        const third = await store.reopen!();
        expect(await again.getPayment(payment.orderId)).toEqual(payment);
        expect(await third.getPayment(payment.orderId)).toEqual(payment);
        expect(await store.migrations!()).toEqual(['0001_initial', '0002_operation_checks', '0003_event_retries', '0004_payment_discrepancies', '0005_waiting_event_list', '0006_merchant_notices', '0007_idempotency_keys', '0008_never_sent', '0009_lookup_method', '0010_payform_prefix', '0011_charge_cards', '0012_idempotency_scopes', '0013_operation_request_keys', '0014_held_payments', '0015_reviewed_events', '0016_ledger_settings', '0017_operation_transactions', '0018_order_search', '0019_card_consent', '0020_orders_by_currency', '0021_session_expiry', '0022_session_extension', '0023_movement_dates', '0024_operation_currency', '0025_saved_card_payments', '0026_erased_orders', '0027_erased_order_tokens', '0028_retention_waits']);
      });

      it('holds one point of sale\'s payments: the first to claim it names it, for every instance after', async () => {
        expect(await ledger.claimPointOfSale('5D1C2A8E-3F47-4B6A-9E0D-7C4B2F8A6E15')).toBe('5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15');
        const again = await store.reopen!();
        expect(await again.claimPointOfSale('9b2e4f10-6c3d-4a8b-b1e7-2f5d8c9a0e34')).toBe('5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15');
      });

      it('sends its payments to one gateway: the first to claim it names it, for every instance after, until replaced', async () => {
        expect(await ledger.claimGateway('https://gateway.example')).toBe('https://gateway.example');
        const again = await store.reopen!();
        expect(await again.claimGateway('https://staging.gateway.example')).toBe('https://gateway.example');
        expect(await again.claimGateway('https://new.gateway.example', true)).toBe('https://new.gateway.example');
        expect(await ledger.claimGateway('https://gateway.example')).toBe('https://new.gateway.example');
      });

      it('records each instance’s admin token check, answering the one recorded before, across instances', async () => {
        expect(await ledger.recordAdminTokenCheck('check-first')).toBeUndefined();
        expect(await ledger.recordAdminTokenCheck('check-first')).toBe('check-first');
        expect(await (await store.reopen!()).recordAdminTokenCheck('check-second')).toBe('check-first');
        expect(await ledger.recordAdminTokenCheck('check-first')).toBe('check-second');
      });

      it('remembers for 30 days each admin token check an instance started with, for every instance', async () => {
        expect(await ledger.adminTokenStartedAt('check-first')).toBeUndefined();
        await ledger.recordAdminTokenCheck('check-first');
        const firstAt = clock.now;
        clock.advance(1000);
        const again = await store.reopen!();
        await again.recordAdminTokenCheck('check-second');
        expect(await ledger.adminTokenStartedAt('check-first')).toBe(firstAt);
        expect(await ledger.adminTokenStartedAt('check-second')).toBe(clock.now);
        expect(await ledger.adminTokenStartedAt('check-never')).toBeUndefined();
        // Past its 30 days, a token no instance started with since is forgotten; one started again is kept.
        clock.advance(30 * 24 * 60 * 60_000 - 500);
        expect(await again.adminTokenStartedAt('check-first')).toBeUndefined();
        await again.recordAdminTokenCheck('check-second');
        expect(await ledger.adminTokenStartedAt('check-second')).toBe(clock.now);
      });

      it('keeps the clients that sent the right admin token for a day, for every instance and start after', async () => {
        expect(await ledger.tokenHolders()).toEqual(new Map());
        const at = clock.now;
        await ledger.recordTokenHolder('127.0.0.1', at);
        await ledger.recordTokenHolder('2001:db8:1::/64', at);
        const again = await store.reopen!();
        expect(await again.tokenHolders()).toEqual(new Map([['127.0.0.1', at], ['2001:db8:1::/64', at]]));
        clock.advance(24 * 60 * 60_000);
        expect(await ledger.tokenHolders()).toEqual(new Map());
        // A day on, one recorded again is held again, and those past their day are let go.
        await again.recordTokenHolder('127.0.0.1', clock.now);
        clock.advance(-1);
        expect(await ledger.tokenHolders()).toEqual(new Map([['127.0.0.1', clock.now + 1]]));
      });

      it('tells one of two instances first starting together with different admin tokens', async () => {
        // Each read before either wrote: both were told nothing.
        const other = await store.reopen!();
        const [a, b] = await Promise.all([ledger.recordAdminTokenCheck('check-a'), other.recordAdminTokenCheck('check-b')]);
        expect([a, b].filter((before) => before !== undefined)).toHaveLength(1);
        expect(a ?? b).toBe(a === undefined ? 'check-a' : 'check-b');
      });

      it('takes a write probe as often as asked, leaving the point of sale it holds as it was', async () => {
        // What an outage of the disk is probed with (ledger-outage.ts): a commit, nothing a caller reads.
        await ledger.probeWrite();
        expect(await ledger.claimPointOfSale('5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15')).toBe('5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15');
        clock.advance(1_000);
        await ledger.probeWrite();
        await (await store.reopen!()).probeWrite();
        expect(await ledger.claimPointOfSale('9b2e4f10-6c3d-4a8b-b1e7-2f5d8c9a0e34')).toBe('5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15');
        expect((await ledger.listOrders()).orders).toEqual([]);
      });

      it('has no column that could hold a card number or CVV', async () => {
        const columns = await store.columns!();
        expect(columns.length).toBeGreaterThan(50);
        const suspicious = columns.filter(({ column }) => /pan|card_number|cc_number|number|cvv|cvc|security_code/i.test(column));
        expect(suspicious).toEqual([]);
      });
    });
    }

    describe('checkout sessions', () => {
      it('creates a session with an unguessable id and a generated order id, and reads it back', async () => {
        const session = await ledger.createSession({
          ...teaSession,
          customer: { email: 'ada@example.com', phone: '+380441234567' },
          customerId: 'cus-7',
          returnUrl: 'https://shop.example/thanks',
          allowedModes: ['hosted'],
          split: [
            { subMerchantId: 'a', amount: 700 },
            { subMerchantId: 'b', amount: 300 },
          ],
        });
        expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(session.orderId.length).toBeLessThanOrEqual(32);
        expect(session).toMatchObject({
          amount: 1000,
          currency: 'XTS',
          status: 'open',
          allowedModes: ['hosted'],
          customerId: 'cus-7',
          customer: { email: 'ada@example.com' },
          payment: null,
          expiresAt: clock.now + 30 * MINUTE,
        });
        expect(await ledger.getSession(session.id)).toEqual(session);
        expect(await ledger.getSession('no-such-session')).toBeUndefined();
        const ids = await Promise.all(Array.from({ length: 20 }, () => ledger.createSession(teaSession).then((s) => s.id)));
        expect(new Set(ids).size).toBe(20);
      });

      it('refuses a second session for an order id already used, leaving the first as it was', async () => {
        const first = await ledger.createSession({ ...teaSession, orderId: 'order-1' });
        await expect(ledger.createSession({ ...teaSession, amount: 5, orderId: 'order-1' })).rejects.toBeInstanceOf(LedgerConflict);
        expect(await ledger.getSession(first.id)).toEqual(first);
      });

      it('gives up on an attempt the gateway never showed, never on one sent again since', async () => {
        clock.advance(DAY);
        const lost = await claimedPayment(ledger, { orderId: 'lost-1' });
        const resent = await claimedPayment(ledger, { orderId: 'resent-1', ttlSeconds: 7_200 });
        const paid = await paidOrder(ledger, { orderId: 'paid-1' });
        for (let read = 0; read < 2; read += 1) {
          await ledger.countAbsentPayment(resent.orderId, { readAt: clock.now, reads: 2, spacingMs: 1_000 });
          clock.advance(1_000);
        }
        clock.advance(30 * MINUTE);
        // Read as last sent over 30 minutes ago; then its session sends it again.
        const sentBefore = clock.now - 30 * MINUTE;
        expect(await ledger.claimPayAttempt(resent.sessionId, { mode: 'direct' })).toMatchObject({ claimed: true, resent: true });
        expect(await ledger.giveUpPayment(resent.orderId, sentBefore)).toBeUndefined();
        expect(await ledger.getPayment(resent.orderId)).toMatchObject({ status: 'init', statusDescription: null });
        expect(await ledger.giveUpPayment(paid.orderId, sentBefore)).toBeUndefined();
        expect(await ledger.giveUpPayment('no-such-order', sentBefore)).toBeUndefined();
        expect(await ledger.giveUpPayment(lost.orderId, sentBefore)).toMatchObject({ progress: 'advanced', payment: { status: 'failure', statusDescription: 'Never reached the gateway' } });
        await expect(ledger.giveUpPayment(lost.orderId, -1)).rejects.toMatchObject({ field: 'lastSentBefore' });
      });

      it('reopens a saved-card charge for a retry only while the gateway holds no payment of it', async () => {
        const charge = (orderId: string): NewCheckoutSession => ({ ...teaSession, orderId, customerId: 'cus-1', cardId: 'card-1', allowedModes: ['direct'], ttlSeconds: 600 });
        const attempt = async (sessionId: string) => (await ledger.claimPayAttempt(sessionId, { mode: 'direct' })).payment!;
        const end = async (sessionId: string, update: PaymentUpdate) => ledger.advancePayment((await attempt(sessionId)).orderId, update);
        const checkout = await ledger.createSession({ ...teaSession, orderId: 'checkout-1', customerId: 'cus-1' });
        expect(await ledger.reopenCharge(checkout.id, 600)).toBe('taken');

        const session = await ledger.createSession(charge('renewal-1'));
        const first = await attempt(session.id);
        // In flight: the gateway may hold it.
        expect(await ledger.reopenCharge(session.id, 600)).toBe('taken');
        await ledger.advancePayment(first.orderId, { status: 'failure', statusDescription: 'Refused by the gateway: Invalid request: currency: is not enabled for this project' });
        clock.advance(DAY);
        expect((await ledger.getSession(session.id))?.status).toBe('expired');
        expect(await ledger.reopenCharge(session.id, 600)).toBe('reopened');
        expect(await ledger.getSession(session.id)).toMatchObject({ status: 'open', expiresAt: clock.now + 600_000 });
        await end(session.id, { status: 'failure', statusDescription: 'Not sent: the gateway could not be reached' });
        expect(await ledger.reopenCharge(session.id, 600)).toBe('reopened');
        await end(session.id, { status: 'failure', statusDescription: 'Never reached the gateway' });
        expect(await ledger.reopenCharge(session.id, 600)).toBe('reopened');
        // Another's payment under the order id, or a decline: the gateway's, and the order id stays its.
        await end(session.id, { status: 'failure', statusDescription: 'The order id is already used at the gateway by another payment' });
        expect(await ledger.reopenCharge(session.id, 600)).toBe('taken');

        const declined = await ledger.createSession(charge('renewal-2'));
        await end(declined.id, { status: 'failure', statusCode: '4009', statusDescription: 'Insufficient funds', paymentId: 'pay-2' });
        expect(await ledger.reopenCharge(declined.id, 600)).toBe('taken');
        // Its next try (its 3-D Secure link's) never sent: the decline before it still stands.
        await end(declined.id, { status: 'failure', statusDescription: 'Not sent: the gateway could not be reached' });
        expect(await ledger.reopenCharge(declined.id, 600)).toBe('taken');

        // One the gateway never showed over the window: sent again under its own order id.
        const unsent = await ledger.createSession(charge('renewal-3'));
        const lost = await attempt(unsent.id);
        await ledger.countAbsentPayment(lost.orderId, { readAt: clock.now, reads: 2, spacingMs: 1_000 });
        clock.advance(1_000);
        await ledger.countAbsentPayment(lost.orderId, { readAt: clock.now, reads: 2, spacingMs: 1_000 });
        expect(await ledger.getPayment(lost.orderId)).toMatchObject({ status: 'init', unsentAt: clock.now });
        expect(await ledger.reopenCharge(unsent.id, 600)).toBe('reopened');
        expect(await ledger.claimPayAttempt(unsent.id, { mode: 'direct' })).toMatchObject({ claimed: true, resent: true, payment: { orderId: 'renewal-3' } });

        // One the gateway answered (a payment id), then lost: it did see it.
        const acknowledged = await ledger.createSession(charge('renewal-5'));
        const seen = await attempt(acknowledged.id);
        await ledger.advancePayment(seen.orderId, { status: 'pending', paymentId: 'pay-5' });
        for (let read = 0; read < 2; read += 1) {
          await ledger.countAbsentPayment(seen.orderId, { readAt: clock.now, reads: 2, spacingMs: 1_000 });
          clock.advance(1_000);
        }
        expect(await ledger.getPayment(seen.orderId)).toMatchObject({ status: 'pending', unsentAt: expect.any(Number) });
        expect(await ledger.reopenCharge(acknowledged.id, 600)).toBe('taken');

        // The merchant's close stands; nor is a lifetime out of bounds taken.
        const closed = await ledger.createSession(charge('renewal-4'));
        await end(closed.id, { status: 'failure', statusDescription: 'Not sent: the gateway could not be reached' });
        await ledger.closeSession(closed.id);
        expect(await ledger.reopenCharge(closed.id, 600)).toBe('closed');
        await expect(ledger.reopenCharge(unsent.id, 5)).rejects.toMatchObject({ code: 'invalid_input' });
      });

      it('refuses bad sessions with the field named and stores nothing', async () => {
        const cases: [Partial<NewCheckoutSession> & Record<string, unknown>, string][] = [
          [{ amount: -100 }, 'amount'],
          [{ amount: 10.5 }, 'amount'],
          [{ amount: 0 }, 'amount'],
          [{ currency: 'usd' }, 'currency'],
          [{ description: '' }, 'description'],
          [{ orderId: 'x'.repeat(33) }, 'orderId'],
          [{ orderId: '../etc' }, 'orderId'],
          [{ split: [{ subMerchantId: 'a', amount: 999 }] }, 'split'],
          [{ returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
          [{ allowedModes: [] }, 'allowedModes'],
          [{ cardNumber: '4242424242424242' }, 'input'],
        ];
        for (const [change, field] of cases) {
          const attempt = ledger.createSession({ ...teaSession, ...change });
          await expect(attempt, field).rejects.toBeInstanceOf(InvalidLedgerInput);
          await expect(attempt).rejects.toMatchObject({ code: 'invalid_input', field });
        }
        expect((await ledger.listOrders()).orders).toEqual([]);
      });

      it('expires: an expired session is refused a new attempt', async () => {
        const session = await ledger.createSession({ ...teaSession, ttlSeconds: 120 });
        clock.advance(2 * MINUTE);
        expect((await ledger.getSession(session.id))?.status).toBe('expired');
        expect(await ledger.claimPayAttempt(session.id, { mode: 'direct' })).toEqual({ claimed: false, reason: 'expired', payment: null });
      });

      it('gives the customer ten more minutes as its end nears, up to 20 hours after it opened, and never shortens it', async () => {
        const session = await ledger.createSession({ ...teaSession, ttlSeconds: 240 });
        expect(await ledger.isSessionEndFixed(session.id)).toBe(false);
        // More than 3 minutes left: asked early, refused on a read; the end stays.
        expect(await ledger.extendSession(session.id)).toEqual({ extended: false, reason: 'early' });
        expect((await ledger.getSession(session.id))?.expiresAt).toBe(session.expiresAt);
        clock.advance(MINUTE);
        expect(await ledger.extendSession(session.id)).toMatchObject({ extended: true, session: { id: session.id, status: 'open', expiresAt: clock.now + 10 * MINUTE } });
        expect((await ledger.getSession(session.id))?.expiresAt).toBe(clock.now + 10 * MINUTE);
        // Asked for again at once, as a page asking again and again would: nothing moves.
        expect(await ledger.extendSession(session.id)).toEqual({ extended: false, reason: 'early' });
        expect((await ledger.getSession(session.id))?.expiresAt).toBe(clock.now + 10 * MINUTE);
        // Twenty hours after it opened is as far as it goes: nearly there, an extension stops at it.
        const opened = clock.now;
        const nearly = await ledger.createSession({ ...teaSession, ttlSeconds: 20 * 3_600 - 4 * 60 });
        clock.now = nearly.expiresAt - 2 * MINUTE;
        expect(await ledger.extendSession(nearly.id)).toMatchObject({ extended: true, session: { expiresAt: opened + 20 * HOUR } });
        clock.now = opened + 20 * HOUR - 2 * MINUTE;
        expect(await ledger.extendSession(nearly.id)).toEqual({ extended: false, reason: 'limit' });
        expect((await ledger.getSession(nearly.id))?.expiresAt).toBe(opened + 20 * HOUR);
        // One opened for longer than 20 hours has nothing more to give.
        const long = await ledger.createSession({ ...teaSession, ttlSeconds: 2 * 86_400 });
        clock.now = long.expiresAt - MINUTE;
        expect(await ledger.extendSession(long.id)).toEqual({ extended: false, reason: 'limit' });
      });

      it('extends no session whose end is fixed, paid, closed, expired or held by an attempt', async () => {
        const fixed = await ledger.createSession({ ...teaSession, ttlSeconds: 120, extendable: false });
        expect(await ledger.isSessionEndFixed(fixed.id)).toBe(true);
        expect(await ledger.extendSession(fixed.id)).toEqual({ extended: false, reason: 'fixed' });
        const paying = await claimedPayment(ledger, { orderId: 'paying-1' });
        expect(await ledger.extendSession(paying.sessionId)).toEqual({ extended: false, reason: 'in_flight' });
        const paid = await paidOrder(ledger, { orderId: 'paid-1' });
        expect(await ledger.extendSession(paid.sessionId)).toEqual({ extended: false, reason: 'paid' });
        const declined = await claimedPayment(ledger, { orderId: 'declined-1', ttlSeconds: 120 });
        await ledger.advancePayment(declined.orderId, { status: 'failure', statusCode: '2122' });
        expect(await ledger.extendSession(declined.sessionId)).toMatchObject({ extended: true, session: { status: 'open' } });
        const closed = await ledger.createSession(teaSession);
        await ledger.closeSession(closed.id);
        expect(await ledger.extendSession(closed.id)).toEqual({ extended: false, reason: 'closed' });
        const late = await ledger.createSession({ ...teaSession, ttlSeconds: 120 });
        clock.advance(2 * MINUTE);
        expect(await ledger.extendSession(late.id)).toEqual({ extended: false, reason: 'expired' });
        expect((await ledger.getSession(late.id))?.status).toBe('expired');
        await expect(ledger.extendSession('no-such-session')).rejects.toBeInstanceOf(LedgerNotFound);
        await expect(ledger.createSession({ ...teaSession, extendable: 'no' as never })).rejects.toMatchObject({ field: 'extendable' });
      });

      it('closes: no new attempt after the merchant closed it', async () => {
        const session = await ledger.createSession(teaSession);
        expect((await ledger.closeSession(session.id)).status).toBe('closed');
        expect(await ledger.claimPayAttempt(session.id, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'closed' });
        await expect(ledger.closeSession('nope')).rejects.toBeInstanceOf(LedgerNotFound);
      });
    });

    describe('pay attempts', () => {
      it('claims one attempt; a repeated click gets the attempt in flight instead of a new one', async () => {
        const session = await ledger.createSession({ ...teaSession, orderId: 'tea-42', customerId: 'cus-1' });
        const first = await ledger.claimPayAttempt(session.id, { mode: 'direct', customer: { email: 'ada@example.com' } });
        expect(first).toMatchObject({
          claimed: true,
          payment: { orderId: 'tea-42', attempt: 1, status: 'init', mode: 'direct', amount: 1000, customerId: 'cus-1', customer: { email: 'ada@example.com' } },
        });
        const again = await ledger.claimPayAttempt(session.id, { mode: 'hosted' });
        expect(again).toMatchObject({ claimed: false, reason: 'in_flight', payment: { orderId: 'tea-42', mode: 'direct' } });
        expect((await ledger.getSession(session.id))?.status).toBe('processing');
      });

      it('lets exactly one of many concurrent claims win', async () => {
        const session = await ledger.createSession(teaSession);
        const claims = await Promise.all(Array.from({ length: 25 }, () => ledger.claimPayAttempt(session.id, { mode: 'direct' })));
        const winners = claims.filter((claim) => claim.claimed);
        expect(winners).toHaveLength(1);
        for (const claim of claims) expect(claim.payment?.orderId).toBe(session.orderId);
        expect((await ledger.listOrders()).orders).toHaveLength(1);
      });

      it('after a failed attempt starts the next one under its own order id; after success refuses', async () => {
        const session = await ledger.createSession({ ...teaSession, orderId: 'tea-43' });
        const first = await ledger.claimPayAttempt(session.id, { mode: 'direct' });
        await ledger.advancePayment(first.payment!.orderId, { status: 'failure', statusCode: '4153' });
        expect((await ledger.getSession(session.id))?.status).toBe('open');
        const second = await ledger.claimPayAttempt(session.id, { mode: 'direct' });
        expect(second).toMatchObject({ claimed: true, payment: { orderId: 'tea-43:2', attempt: 2 } });
        await ledger.advancePayment('tea-43:2', { status: 'success' });
        expect(await ledger.getSession(session.id)).toMatchObject({ status: 'paid', payment: { orderId: 'tea-43:2' } });
        expect(await ledger.claimPayAttempt(session.id, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'paid' });
      });

      it('takes ten attempts a session at most, then refuses another (start a new checkout)', async () => {
        const session = await ledger.createSession({ ...teaSession, orderId: 'tea-50' });
        for (let attempt = 1; attempt <= 10; attempt += 1) {
          expect(await ledger.takesAnotherAttempt((await ledger.getSession(session.id))!), `before attempt ${attempt}`).toBe(true);
          const claim = await ledger.claimPayAttempt(session.id, { mode: attempt % 2 ? 'direct' : 'hosted' });
          expect(claim, `attempt ${attempt}`).toMatchObject({ claimed: true, payment: { attempt } });
          await ledger.advancePayment(claim.payment!.orderId, { status: 'failure', statusCode: '4153' });
        }
        expect(await ledger.takesAnotherAttempt((await ledger.getSession(session.id))!)).toBe(false);
        expect(await ledger.claimPayAttempt(session.id, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'retry_unavailable', payment: { orderId: 'tea-50:10' } });
      });

      it('does not count attempts the gateway never received toward the ten, up to thirty in all', async () => {
        const session = await ledger.createSession({ ...teaSession, orderId: 'tea-51' });
        const claimAndEnd = async (attempt: number, ended: { status: 'failure'; statusCode?: string; statusDescription: string }) => {
          const claim = await ledger.claimPayAttempt(session.id, { mode: 'direct' });
          expect(claim, `attempt ${attempt}`).toMatchObject({ claimed: true, payment: { attempt } });
          await ledger.advancePayment(claim.payment!.orderId, ended);
        };
        // The gateway away while the customer clicked twelve times: ended with no status of its.
        for (let attempt = 1; attempt <= 12; attempt += 1) await claimAndEnd(attempt, { status: 'failure', statusDescription: 'Not sent: the gateway could not be reached' });
        expect(await ledger.takesAnotherAttempt((await ledger.getSession(session.id))!)).toBe(true);
        // Back: ten declines still to go.
        for (let attempt = 13; attempt <= 22; attempt += 1) await claimAndEnd(attempt, { status: 'failure', statusCode: '4153', statusDescription: 'Declined' });
        expect(await ledger.takesAnotherAttempt((await ledger.getSession(session.id))!)).toBe(false);
        expect(await ledger.claimPayAttempt(session.id, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'retry_unavailable', payment: { orderId: 'tea-51:22' } });

        // Never received at all: thirty order ids in all, then a new checkout.
        const away = await ledger.createSession({ ...teaSession, orderId: 'tea-52' });
        for (let attempt = 1; attempt <= 30; attempt += 1) {
          const claim = await ledger.claimPayAttempt(away.id, { mode: 'direct' });
          expect(claim, `attempt ${attempt}`).toMatchObject({ claimed: true, payment: { attempt } });
          await ledger.advancePayment(claim.payment!.orderId, { status: 'failure', statusDescription: 'Not sent: the gateway could not be reached' });
        }
        expect(await ledger.takesAnotherAttempt((await ledger.getSession(away.id))!)).toBe(false);
        expect(await ledger.claimPayAttempt(away.id, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'retry_unavailable', payment: { orderId: 'tea-52:30' } });

        // The gateway refusing the card's fields received them: those count, code or none.
        const refused = await ledger.createSession({ ...teaSession, orderId: 'tea-53' });
        for (let attempt = 1; attempt <= 10; attempt += 1) {
          const claim = await ledger.claimPayAttempt(refused.id, { mode: 'direct' });
          await ledger.advancePayment(claim.payment!.orderId, { status: 'failure', statusDescription: 'Refused by the gateway: Invalid data' });
        }
        expect(await ledger.claimPayAttempt(refused.id, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'retry_unavailable' });
      });

      it('counts a read without the order once per spacing, frees the session on the window’s last, and sends the same order id again', async () => {
        const session = await ledger.createSession({ ...teaSession, orderId: 'tea-44' });
        await ledger.claimPayAttempt(session.id, { mode: 'direct' });
        const window = { reads: 3, spacingMs: 30_000 };
        const read = () => ({ readAt: clock.now, ...window });
        // Two instances reading at once count once; a read sooner than the spacing not at all.
        const both = await Promise.all([ledger.countAbsentPayment('tea-44', read()), ledger.countAbsentPayment('tea-44', read())]);
        expect(both.filter(Boolean)).toEqual([{ reads: 1, neverSent: false }]);
        clock.advance(29_999);
        expect(await ledger.countAbsentPayment('tea-44', read())).toBeUndefined();
        clock.advance(1);
        expect(await ledger.countAbsentPayment('tea-44', read())).toEqual({ reads: 2, neverSent: false });
        // The gateway showed it once: the window starts over.
        await ledger.clearAbsentPayment('tea-44');
        for (const reads of [1, 2]) {
          clock.advance(30_000);
          expect(await ledger.countAbsentPayment('tea-44', read())).toEqual({ reads, neverSent: false });
        }
        expect((await ledger.getSession(session.id))?.status).toBe('processing');
        expect(await ledger.backlog()).toMatchObject({ unfinishedPayments: 1, oldestUnfinishedPaymentAt: (await ledger.getPayment('tea-44'))!.createdAt });
        clock.advance(30_000);
        expect(await ledger.countAbsentPayment('tea-44', read())).toEqual({ reads: 3, neverSent: true });
        expect(await ledger.getSession(session.id)).toMatchObject({ status: 'open', payment: { orderId: 'tea-44', status: 'init', unsentAt: clock.now } });
        // It waits for the customer now, not for the gateway: no longer an unfinished payment.
        expect(await ledger.backlog()).toMatchObject({ unfinishedPayments: 0, oldestUnfinishedPaymentAt: undefined });
        // Ended: more reads change nothing until it is sent again.
        clock.advance(30_000);
        expect(await ledger.countAbsentPayment('tea-44', read())).toBeUndefined();

        const again = await ledger.claimPayAttempt(session.id, { mode: 'hosted', customer: { email: 'ada@example.com' } });
        expect(again).toMatchObject({ claimed: true, resent: true, payment: { orderId: 'tea-44', attempt: 1, mode: 'hosted', status: 'init', unsentAt: null, customer: { email: 'ada@example.com' } } });
        expect(await ledger.claimPayAttempt(session.id, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'in_flight' });
        expect(await ledger.backlog()).toMatchObject({ unfinishedPayments: 1 });
        // A read sent before the new send does not count against it.
        expect(await ledger.countAbsentPayment('tea-44', { ...window, readAt: clock.now - 1 })).toBeUndefined();
        expect((await ledger.listOrders()).orders).toHaveLength(1);
      });

      it('counts reads against a pending payment the gateway lost as against one never sent, never against a final one, and frees no session on one read', async () => {
        const payment = await claimedPayment(ledger);
        await ledger.advancePayment(payment.orderId, { status: 'pending', statusCode: '2122', paymentId: 'pay-lost', userActionUrl: 'https://acs.example/challenge' });
        expect(await ledger.countAbsentPayment(payment.orderId, { readAt: clock.now, reads: 2, spacingMs: 0 })).toEqual({ reads: 1, neverSent: false });
        expect((await ledger.getSession(payment.sessionId))?.status).toBe('processing');
        expect(await ledger.countAbsentPayment(payment.orderId, { readAt: clock.now, reads: 2, spacingMs: 0 })).toEqual({ reads: 2, neverSent: true });
        expect((await ledger.getSession(payment.sessionId))?.status).toBe('open');
        // Sent again under its order id, as a new send: nothing of the lost one is kept.
        const again = await ledger.claimPayAttempt(payment.sessionId, { mode: 'direct' });
        expect(again).toMatchObject({ claimed: true, resent: true, payment: { orderId: payment.orderId, status: 'init', paymentId: null, userActionUrl: null, unsentAt: null } });
        const paid = await paidOrder(ledger);
        expect(await ledger.countAbsentPayment(paid.orderId, { readAt: clock.now, reads: 2, spacingMs: 0 })).toBeUndefined();
        await expect(ledger.countAbsentPayment(payment.orderId, { readAt: clock.now, reads: 1, spacingMs: 0 })).rejects.toMatchObject({ field: 'reads' });
      });

      it('counts reads that do not show a reservation once per spacing, from its making on', async () => {
        const order = await paidOrder(ledger);
        const refund = await ledger.reserveOperation(order.orderId, { kind: 'refund', amount: 300 });
        const window = { reads: 2, spacingMs: 10_000 };
        expect(await ledger.countAbsentOperation(refund.id, { ...window, readAt: clock.now - 1 })).toBeUndefined();
        expect(await ledger.countAbsentOperation(refund.id, { ...window, readAt: clock.now })).toEqual({ reads: 1, neverSent: false });
        clock.advance(10_000);
        await ledger.clearAbsentOperation(refund.id);
        expect(await ledger.countAbsentOperation(refund.id, { ...window, readAt: clock.now })).toEqual({ reads: 1, neverSent: false });
        clock.advance(10_000);
        expect(await ledger.countAbsentOperation(refund.id, { ...window, readAt: clock.now })).toEqual({ reads: 2, neverSent: true });
      });

      it('keeps room for retries: a merchant order id has no colon and at most 28 characters', async () => {
        await expect(ledger.createSession({ ...teaSession, orderId: 'x'.repeat(29) })).rejects.toMatchObject({ field: 'orderId' });
        await expect(ledger.createSession({ ...teaSession, orderId: 'tea:2' })).rejects.toMatchObject({ field: 'orderId' });
        const session = await ledger.createSession({ ...teaSession, orderId: 'x'.repeat(28) });
        const first = await ledger.claimPayAttempt(session.id, { mode: 'direct' });
        await ledger.advancePayment(first.payment!.orderId, { status: 'failure' });
        expect(await ledger.claimPayAttempt(session.id, { mode: 'direct' })).toMatchObject({ claimed: true, payment: { orderId: `${'x'.repeat(28)}:2` } });
      });

      it('refuses a mode the session does not allow and an unknown session', async () => {
        const session = await ledger.createSession({ ...teaSession, allowedModes: ['hosted'] });
        await expect(ledger.claimPayAttempt(session.id, { mode: 'direct' })).rejects.toMatchObject({ code: 'invalid_input', field: 'mode' });
        await expect(ledger.claimPayAttempt('unknown', { mode: 'hosted' })).rejects.toBeInstanceOf(LedgerNotFound);
        expect((await ledger.getSession(session.id))?.payment).toBeNull();
      });

      it('keeps the hosted checkout URL to answer a repeated create with it', async () => {
        const session = await ledger.createSession(teaSession);
        const claim = await ledger.claimPayAttempt(session.id, { mode: 'hosted' });
        const url = 'https://gateway.example/api/v1/checkout/abc/form';
        await ledger.advancePayment(claim.payment!.orderId, { status: 'init', checkoutUrl: url });
        const again = await ledger.claimPayAttempt(session.id, { mode: 'hosted' });
        expect(again).toMatchObject({ claimed: false, reason: 'in_flight', payment: { checkoutUrl: url } });
      });
    });

    describe('payments move forward only', () => {
      it('gives a success its own status code and description, also when it has none', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2122', statusDescription: 'Awaiting 3-D Secure' });
        // A refresh of the same status that names no code keeps the one it has.
        expect((await ledger.advancePayment(orderId, { status: 'pending', paymentId: 'pay-1' })).payment).toMatchObject({ statusCode: '2122', statusDescription: 'Awaiting 3-D Secure' });
        const success = await ledger.advancePayment(orderId, { status: 'success' });
        expect(success).toMatchObject({ progress: 'advanced', payment: { status: 'success', statusCode: null, statusDescription: null, paymentId: 'pay-1' } });
        // A failure without a code keeps the last one: a null code marks a failure never decided.
        const declined = await claimedPayment(ledger);
        await ledger.advancePayment(declined.orderId, { status: 'pending', statusCode: '2122' });
        expect((await ledger.advancePayment(declined.orderId, { status: 'failure' })).payment).toMatchObject({ status: 'failure', statusCode: '2122' });
        expect((await ledger.advancePayment(declined.orderId, { status: 'failure', statusCode: '4153' })).payment).toMatchObject({ statusCode: '4153' });
      });

      it('goes init → pending → success and ignores anything older afterwards', async () => {
        const { orderId } = await claimedPayment(ledger);
        expect((await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2122', userActionUrl: 'https://acs.example/3ds' })).progress).toBe('advanced');
        clock.advance(1000);
        const success = await ledger.advancePayment(orderId, { status: 'success', statusCode: '1000', ccMask: '424242******4242', cardBrand: 'visa' });
        expect(success).toMatchObject({ progress: 'advanced', payment: { status: 'success', finalizedAt: clock.now, userActionUrl: 'https://acs.example/3ds' } });
        clock.advance(1000);
        for (const status of ['pending', 'init', 'failure'] as const) {
          const late = await ledger.advancePayment(orderId, { status, statusCode: '4153' });
          expect(late.progress).toBe('stale');
          expect(late.payment).toEqual(success.payment);
        }
      });

      it('a reordered delivery (success before pending) keeps success; a same-status repeat fills details', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'success', statusCode: '1000' });
        expect((await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2122' })).progress).toBe('stale');
        const refresh = await ledger.advancePayment(orderId, { status: 'success', ccToken: 'tok_123', receiptUrl: 'https://gateway.example/r/1' });
        expect(refresh).toMatchObject({ progress: 'updated', payment: { status: 'success', statusCode: '1000', ccToken: 'tok_123' } });
      });

      it('a webhook saying what the pay answer recorded refreshes it; one saying more steps it forward, one saying less is stale', async () => {
        const { orderId } = await claimedPayment(ledger);
        const event = (status: string, extra: Partial<GatewayEvent> = {}) => gatewayEvent({ method: 'purchase', status, orderId, amount: 1000, currency: 'XTS', ...extra });
        await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2122' }, { relaxed: true });
        expect(await ledger.ingestEvent(event('pending', { ccToken: 'tok_123' }))).toMatchObject({ isNew: true, advanced: false, event: { outcome: 'applied' }, payment: { status: 'pending', ccToken: 'tok_123' } });
        expect(await ledger.ingestEvent(event('success', { statusCode: '1000' }))).toMatchObject({ isNew: true, advanced: true, payment: { status: 'success', ccToken: 'tok_123' } });
        await ledger.advancePayment(orderId, { status: 'success', statusCode: '1000' }, { relaxed: true });
        expect(await ledger.ingestEvent(event('failure', { statusCode: '4009' }))).toMatchObject({ isNew: true, advanced: false, event: { outcome: 'stale' } });
        expect((await ledger.getPayment(orderId))?.status).toBe('success');
      });

      it('a failure never turns into a success', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'failure', statusCode: '4009' });
        expect((await ledger.advancePayment(orderId, { status: 'success', statusCode: '1000' })).payment).toMatchObject({ status: 'failure', statusCode: '4009' });
      });

      it('settles concurrent updates on the first final state to land', async () => {
        const { orderId } = await claimedPayment(ledger);
        const updates = ['pending', 'success', 'pending', 'failure', 'init', 'pending', 'success', 'failure'] as const;
        const results = await Promise.all(updates.map((status) => ledger.advancePayment(orderId, { status })));
        const finals = results.filter((result) => result.progress === 'advanced' && ['success', 'failure'].includes(result.payment.status));
        expect(finals).toHaveLength(1);
        expect((await ledger.getPayment(orderId))?.status).toBe(finals[0]!.payment.status);
      });

      it('applies an update only to the payment it describes: its amount, currency and payment id', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'pending', paymentId: 'pay-1', amount: 1000, currency: 'XTS' });
        for (const other of [{ amount: 100 }, { currency: 'UAH' }, { paidAmount: 999 }, { paymentId: 'pay-2' }]) {
          const result = await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2001', ...other });
          expect(result).toMatchObject({ progress: 'mismatch', payment: { status: 'pending', paymentId: 'pay-1', statusCode: null, discrepancy: null } });
        }
        // Another payment id's success is another payment: nothing to note here.
        expect(await ledger.advancePayment(orderId, { status: 'success', paymentId: 'pay-2' })).toMatchObject({ progress: 'mismatch', payment: { discrepancy: null } });
        const foreign = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, paymentId: 'pay-2', amount: 1000, currency: 'XTS' }));
        expect(foreign).toMatchObject({ advanced: false, event: { outcome: 'unmatched' } });
        const own = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, paymentId: 'pay-1', amount: 1000, currency: 'XTS' }));
        expect(own).toMatchObject({ advanced: true, event: { outcome: 'applied' }, payment: { status: 'success' } });
      });

      it('keeps a payment held as paid otherwise from a success that does not say what was paid', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'success', amount: 1000, currency: 'XTS', paidAmount: 400, paidCurrency: 'XTS' });
        // An order state's entry, or a webhook without processed_amount: the order's figures, and
        // nothing of what the payer paid. It cannot settle what the hold is about.
        const silent = { status: 'success' as const, statusCode: '1000', amount: 1000, currency: 'XTS' };
        expect(await ledger.advancePayment(orderId, silent)).toMatchObject({ progress: 'held', payment: { status: 'init', statusCode: null, discrepancy: { paidAmount: 400 } } });
        // Its webhook is kept for the person who settles the payment, as one that contradicts it.
        const event = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS' }));
        expect(event).toMatchObject({ advanced: false, event: { outcome: 'unmatched' } });
        expect(await ledger.getPayment(orderId)).toMatchObject({ status: 'init', finalizedAt: null, discrepancy: { paidAmount: 400 } });
        // A success that says it was paid in full still moves it: it says what happened.
        expect(await ledger.advancePayment(orderId, { ...silent, paidAmount: 1000, paidCurrency: 'XTS' })).toMatchObject({ progress: 'advanced', payment: { status: 'success' } });
      });

      it('merges the details of a payment held as paid short after its success', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'success', amount: 1000, currency: 'XTS' });
        expect(await ledger.advancePayment(orderId, { status: 'success', amount: 1000, currency: 'XTS', paidAmount: 400, paidCurrency: 'XTS' })).toMatchObject({ progress: 'flagged' });
        const event = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS', receiptUrl: 'https://gateway.test/receipt/1' }));
        expect(event).toMatchObject({ event: { outcome: 'applied' }, payment: { status: 'success', receiptUrl: 'https://gateway.test/receipt/1', discrepancy: { paidAmount: 400 } } });
      });

      it('lets a success settle a payment held for something else than what was paid', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, unreadable: true }));
        expect(await ledger.getPayment(orderId)).toMatchObject({ status: 'init', discrepancy: { unreadable: true } });
        const event = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS' }));
        expect(event).toMatchObject({ advanced: true, event: { outcome: 'applied' }, payment: { status: 'success', discrepancy: { unreadable: true } } });
      });

      it('holds an attempt it ended failed without the gateway’s word that the gateway then reports paid', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'failure', statusDescription: 'The order id is already used at the gateway by another payment' });
        const paid = { status: 'success' as const, statusCode: '1000', amount: 1000, currency: 'XTS', paymentId: 'pay-late' };
        const flagged = await ledger.advancePayment(orderId, paid);
        expect(flagged).toMatchObject({ progress: 'flagged', payment: { status: 'failure', discrepancy: { status: 'success', amount: 1000, paymentId: 'pay-late' } } });
        // Its session takes no other attempt until a person settles it: the customer would pay twice.
        const { sessionId } = flagged.payment;
        expect(await ledger.claimPayAttempt(sessionId, { mode: 'direct' })).toMatchObject({ claimed: false, reason: 'in_flight', payment: { orderId } });
        expect((await ledger.getSession(sessionId))?.status).toBe('processing');
        await ledger.settleDiscrepancy(orderId, { note: 'Refunded at the gateway', version: 1 });
        expect(await ledger.claimPayAttempt(sessionId, { mode: 'direct' })).toMatchObject({ claimed: true, payment: { orderId: `${orderId}:2` } });
        // So is its webhook, kept for the person who settles it.
        const unsent = await claimedPayment(ledger);
        await ledger.advancePayment(unsent.orderId, { status: 'failure', statusDescription: 'Not sent: the gateway could not be reached' });
        const event = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: unsent.orderId, amount: 1000, currency: 'XTS', paymentId: 'pay-late-2' }));
        expect(event).toMatchObject({ flagged: true, advanced: false, event: { outcome: 'unmatched' }, payment: { status: 'failure', discrepancy: { paymentId: 'pay-late-2' } } });
        // A decline the gateway gave (its payment id kept) is the gateway's own word: a later success of another payment id is another payment.
        const declined = await claimedPayment(ledger);
        await ledger.advancePayment(declined.orderId, { status: 'failure', statusCode: '4009', paymentId: 'pay-declined' });
        expect((await ledger.advancePayment(declined.orderId, { ...paid, paymentId: 'pay-other' })).progress).toBe('mismatch');
      });

      it('holds a payment reported paid with other figures, and notes each distinct report once', async () => {
        const { orderId } = await claimedPayment(ledger);
        const short = { status: 'success' as const, statusCode: '1000', amount: 1000, currency: 'XTS', paidAmount: 400, paidCurrency: 'XTS' };
        const firstNoted = clock.now;
        expect(await ledger.advancePayment(orderId, short)).toMatchObject({
          progress: 'flagged',
          payment: { status: 'init', statusCode: null, discrepancy: { status: 'success', amount: 1000, paidAmount: 400, paidCurrency: 'XTS', paymentId: null, notedAt: clock.now } },
        });
        clock.advance(1000);
        // The same report again (a read of the order state, a redelivery) is a repeat.
        expect(await ledger.advancePayment(orderId, short)).toMatchObject({ progress: 'mismatch', payment: { discrepancy: { amount: 1000, notedAt: firstNoted } } });
        // Another one is kept after the first, which stays where merchants read it.
        const flagged = await ledger.advancePayment(orderId, { ...short, amount: 5 });
        expect(flagged).toMatchObject({ progress: 'flagged', payment: { discrepancy: { amount: 1000, paidAmount: 400, notedAt: firstNoted, later: [{ amount: 5, paidAmount: 400, notedAt: clock.now }] } } });
        const event = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, paidAmount: 0 }));
        expect(event).toMatchObject({ flagged: true, advanced: false, event: { outcome: 'unmatched' }, payment: { discrepancy: { later: [{ amount: 5 }, { amount: 1000, paidAmount: 0 }] } } });
        // Kept unmatched, a redelivery of it is tried again: it finds its report kept, and changes nothing.
        const redelivered = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, paidAmount: 0 }));
        expect(redelivered).toMatchObject({ isNew: false, flagged: false, event: { outcome: 'unmatched' } });
        expect((await ledger.getPayment(orderId))?.discrepancy?.later).toHaveLength(2);
        expect(await ledger.listStalePayments({ quietForMs: 0 })).toEqual([]);
        const other = await claimedPayment(ledger);
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: other.orderId, currency: 'UAH' }))).toMatchObject({
          flagged: true,
          payment: { status: 'init', discrepancy: { currency: 'UAH' } },
        });
      });

      it('refuses an unknown order and bad updates, changing nothing', async () => {
        const payment = await claimedPayment(ledger);
        await expect(ledger.advancePayment('missing', { status: 'success' })).rejects.toMatchObject({ code: 'not_found', entity: 'order' });
        await expect(ledger.advancePayment(payment.orderId, { status: 'paid' as never })).rejects.toMatchObject({ field: 'status' });
        await expect(ledger.advancePayment(payment.orderId, { status: 'success', ccMask: '4242424242424242' })).rejects.toMatchObject({ field: 'ccMask' });
        await expect(ledger.advancePayment(payment.orderId, { status: 'pending', userActionUrl: 'ftp://x' })).rejects.toMatchObject({ field: 'userActionUrl' });
        expect(await ledger.getPayment(payment.orderId)).toEqual(payment);
      });
    });

    describe('refunds', () => {
      it('finds a reservation by the request key it was made with, on its own order only', async () => {
        const { orderId } = await paidOrder(ledger);
        const other = await paidOrder(ledger);
        const keyed = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100, requestKey: 'k-request' });
        await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        expect(await ledger.findOperationByRequestKey(orderId, 'k-request')).toEqual(keyed);
        expect(await ledger.findOperationByRequestKey(other.orderId, 'k-request')).toBeUndefined();
        expect(await ledger.findOperationByRequestKey(orderId, 'k-other')).toBeUndefined();
      });

      it('lists an order’s operations oldest first, as its detail does, and none of an order without', async () => {
        const { orderId } = await paidOrder(ledger);
        const other = await paidOrder(ledger);
        const first = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        clock.advance(1_000);
        const second = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 200 });
        await ledger.settleOperation(first.id, { status: 'success', operationId: 'op-listed' });
        const listed = await ledger.listOperations(orderId);
        expect(listed.map((operation) => [operation.id, operation.status])).toEqual([
          [first.id, 'success'],
          [second.id, 'pending'],
        ]);
        expect(listed).toEqual((await ledger.getOrder(orderId))!.operations);
        expect(await ledger.listOperations(other.orderId)).toEqual([]);
        expect(await ledger.listOperations('unknown-order')).toEqual([]);
      });

      it('allows partial refunds up to the amount and refuses the one that would exceed it', async () => {
        const { orderId } = await paidOrder(ledger);
        const first = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 400, comment: 'one cup broken' });
        expect(first).toMatchObject({ kind: 'refund', amount: 400, status: 'pending', origin: 'merchant', comment: 'one cup broken' });
        // Pending reservations count against the limit.
        expect(await ledger.refundableAmount(orderId)).toBe(600);
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount: 601 })).rejects.toMatchObject({ reason: 'exceeds_refundable', available: 600 });
        const settled = await ledger.settleOperation(first.id, { status: 'success', operationId: 'op-r1', statusCode: '1004', receiptUrl: 'https://gateway.example/r/2' });
        expect(settled).toMatchObject({ progress: 'advanced', operation: { status: 'success', operationId: 'op-r1', settledAt: clock.now } });
        const rest = await ledger.reserveOperation(orderId, { kind: 'refund' });
        expect(rest.amount).toBe(600);
        await ledger.settleOperation(rest.id, { status: 'success' });
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount: 1 })).rejects.toMatchObject({ reason: 'nothing_left' });
        expect(await ledger.refundableAmount(orderId)).toBe(0);
      });

      it('releases a reservation the gateway declined', async () => {
        const { orderId } = await paidOrder(ledger);
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 1000 });
        expect(await ledger.refundableAmount(orderId)).toBe(0);
        await ledger.settleOperation(op.id, { status: 'failure', statusDescription: 'declined' });
        expect(await ledger.refundableAmount(orderId)).toBe(1000);
        // Settled is final: a late success for the declined reservation changes nothing.
        expect(await ledger.settleOperation(op.id, { status: 'success' })).toMatchObject({ progress: 'stale', operation: { status: 'failure' } });
        expect(await ledger.refundableAmount(orderId)).toBe(1000);
      });

      it('describes an operation by its latest status: a pending one\'s words give way to its outcome\'s', async () => {
        const { orderId } = await paidOrder(ledger);
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        await ledger.settleOperation(op.id, { status: 'pending', statusCode: '2119', statusDescription: 'Outcome not known yet' });
        expect(await ledger.getOperation(op.id)).toMatchObject({ status: 'pending', statusCode: '2119', statusDescription: 'Outcome not known yet' });
        // Its outcome, told without words of its own, keeps none of the pending step's.
        await ledger.settleOperation(op.id, { status: 'success', operationId: 'op-words' });
        expect(await ledger.getOperation(op.id)).toMatchObject({ status: 'success', statusCode: null, statusDescription: null });
        // A repeat of the same status changes only what it says.
        await ledger.settleOperation(op.id, { status: 'success', statusCode: '1004' });
        expect(await ledger.getOperation(op.id)).toMatchObject({ status: 'success', statusCode: '1004', statusDescription: null });
        // A failure told without a code keeps the one the gateway gave (a null code marks a failure
        // it never decided), not the pending step's words.
        const declined = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        await ledger.settleOperation(declined.id, { status: 'pending', statusCode: '2119', statusDescription: 'Outcome not known yet' });
        await ledger.settleOperation(declined.id, { status: 'failure' });
        expect(await ledger.getOperation(declined.id)).toMatchObject({ status: 'failure', statusCode: '2119', statusDescription: null });
      });

      it('50 concurrent partial refunds: exactly those that fit succeed, the total never exceeds', async () => {
        const { orderId } = await paidOrder(ledger, { amount: 1000 });
        const outcomes = await Promise.allSettled(
          Array.from({ length: 50 }, async () => {
            const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 30 });
            return ledger.settleOperation(op.id, { status: 'success' });
          }),
        );
        const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(succeeded).toHaveLength(33);
        for (const { reason } of refused) expect(reason).toMatchObject({ code: 'operation_refused', reason: 'exceeds_refundable', available: 10 });
        const detail = await ledger.getOrder(orderId);
        const refunded = refundsOf(detail!.operations).reduce((sum, op) => sum + op.amount, 0);
        expect(refunded).toBe(990);
        expect(detail!.totals).toMatchObject({ refunded: 990, refundPending: 0, refundable: 10 });
      });

      it('refuses refunds of unpaid or unknown orders and bad amounts, changing nothing', async () => {
        const pending = await claimedPayment(ledger);
        await expect(ledger.reserveOperation(pending.orderId, { kind: 'refund' })).rejects.toMatchObject({ reason: 'payment_not_successful' });
        const { orderId } = await paidOrder(ledger);
        await expect(ledger.reserveOperation('unknown-order', { kind: 'refund', amount: 10 })).rejects.toBeInstanceOf(LedgerNotFound);
        for (const amount of [-10, 0, 1.5, Number.NaN, 2 ** 60]) {
          await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount }), String(amount)).rejects.toMatchObject({ code: 'invalid_input', field: 'amount' });
        }
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', comment: 'x'.repeat(2049) })).rejects.toMatchObject({ field: 'comment' });
        await expect(ledger.reserveOperation(orderId, { kind: 'chargeback' as never })).rejects.toMatchObject({ field: 'kind' });
        expect((await ledger.getOrder(orderId))?.operations).toEqual([]);
        expect(await ledger.refundableAmount(orderId)).toBe(1000);
      });

      it('checks split refunds per sub-merchant', async () => {
        const split = [
          { subMerchantId: 'farm', amount: 700 },
          { subMerchantId: 'shop', amount: 300 },
        ];
        const { orderId } = await paidOrder(ledger, { split });
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', split: [{ subMerchantId: 'farm', amount: 500 }] });
        expect(op).toMatchObject({ amount: 500, split: [{ subMerchantId: 'farm', amount: 500 }] });
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', split: [{ subMerchantId: 'farm', amount: 300 }] })).rejects.toMatchObject({
          reason: 'exceeds_sub_merchant_share',
          available: 200,
        });
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', split: [{ subMerchantId: 'mill', amount: 1 }] })).rejects.toMatchObject({ reason: 'unknown_sub_merchant' });
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount: 100, split: [{ subMerchantId: 'shop', amount: 50 }] })).rejects.toMatchObject({ field: 'split' });
        expect(await ledger.reserveOperation(orderId, { kind: 'refund', split: [{ subMerchantId: 'shop', amount: 300 }] })).toMatchObject({ amount: 300 });
      });

      it('refunds part of a split payment only per sub-merchant; a plain refund takes the whole rest', async () => {
        const { orderId } = await paidOrder(ledger, { split: [{ subMerchantId: 'farm', amount: 700 }, { subMerchantId: 'shop', amount: 300 }] });
        await ledger.reserveOperation(orderId, { kind: 'refund', split: [{ subMerchantId: 'farm', amount: 100 }] });
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 })).rejects.toMatchObject({ reason: 'split_refund_required', available: 900 });
        expect((await ledger.getOrder(orderId))?.operations).toHaveLength(1);
        expect(await ledger.reserveOperation(orderId, { kind: 'refund' })).toMatchObject({ amount: 900, split: null });
      });
    });

    describe('captures and voids', () => {
      const auth = { method: 'auth' as const, amount: 1000 };

      it('captures an auth once: a partial capture releases the rest; above the reserve only within the allowance', async () => {
        const { orderId } = await paidOrder(ledger, auth);
        expect(await ledger.capturableAmount(orderId)).toBe(1000);
        expect(await ledger.capturableAmount(orderId, 10)).toBe(1100);
        await expect(ledger.reserveOperation(orderId, { kind: 'capture', amount: 1101, overCapturePercent: 10 })).rejects.toMatchObject({
          reason: 'exceeds_capturable',
          available: 1100,
        });
        const part = await ledger.reserveOperation(orderId, { kind: 'capture', amount: 600 });
        expect(await ledger.capturableAmount(orderId, 10)).toBe(0);
        await expect(ledger.reserveOperation(orderId, { kind: 'capture' })).rejects.toMatchObject({ reason: 'already_captured', available: 0 });
        // A declined capture leaves the auth capturable again.
        await ledger.settleOperation(part.id, { status: 'failure', operationId: 'cap-1', statusCode: '4150' });
        const above = await ledger.reserveOperation(orderId, { kind: 'capture', amount: 1100, overCapturePercent: 10 });
        await ledger.settleOperation(above.id, { status: 'success', operationId: 'cap-2' });
        expect(await ledger.capturableAmount(orderId, 10)).toBe(0);
        expect((await ledger.getOrder(orderId))?.totals).toMatchObject({ captured: 1100, capturable: 0 });
        await expect(ledger.reserveOperation(orderId, { kind: 'capture', amount: 1 })).rejects.toMatchObject({ reason: 'already_captured' });
      });

      it('refunds an auth only as far as it was captured', async () => {
        const { orderId } = await paidOrder(ledger, auth);
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount: 1 })).rejects.toMatchObject({ reason: 'nothing_captured' });
        const capture = await ledger.reserveOperation(orderId, { kind: 'capture', amount: 700 });
        expect(await ledger.refundableAmount(orderId)).toBe(0);
        await ledger.settleOperation(capture.id, { status: 'success', amount: 650 });
        expect(await ledger.refundableAmount(orderId)).toBe(650);
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', amount: 651 })).rejects.toMatchObject({ reason: 'exceeds_refundable', available: 650 });
      });

      it('voids once, never after a capture, and nothing is captured after a void', async () => {
        const voided = await paidOrder(ledger, auth);
        const op = await ledger.reserveOperation(voided.orderId, { kind: 'void' });
        expect(op).toMatchObject({ kind: 'void', amount: 1000, status: 'pending' });
        // Its answer not in yet: it may still fail, and says so.
        await expect(ledger.reserveOperation(voided.orderId, { kind: 'void' })).rejects.toMatchObject({ reason: 'void_pending' });
        await expect(ledger.reserveOperation(voided.orderId, { kind: 'capture' })).rejects.toMatchObject({ reason: 'void_pending' });
        await ledger.settleOperation(op.id, { status: 'failure' });
        // A declined void leaves the auth capturable again.
        expect(await ledger.capturableAmount(voided.orderId)).toBe(1000);

        const captured = await paidOrder(ledger, auth);
        await ledger.reserveOperation(captured.orderId, { kind: 'capture', amount: 1 });
        await expect(ledger.reserveOperation(captured.orderId, { kind: 'void' })).rejects.toMatchObject({ reason: 'already_captured' });
        await expect(ledger.reserveOperation(captured.orderId, { kind: 'void', amount: 5 })).rejects.toMatchObject({ field: 'amount' });
      });

      it('applies captures and voids to successful auths only', async () => {
        const purchase = await paidOrder(ledger);
        await expect(ledger.reserveOperation(purchase.orderId, { kind: 'capture' })).rejects.toMatchObject({ reason: 'not_an_auth' });
        await expect(ledger.reserveOperation(purchase.orderId, { kind: 'void' })).rejects.toMatchObject({ reason: 'not_an_auth' });
        const pendingAuth = await claimedPayment(ledger, auth);
        await expect(ledger.reserveOperation(pendingAuth.orderId, { kind: 'capture' })).rejects.toBeInstanceOf(OperationRefused);
        expect(await ledger.capturableAmount(pendingAuth.orderId)).toBe(0);
        await expect(ledger.capturableAmount(pendingAuth.orderId, -1)).rejects.toBeInstanceOf(InvalidLedgerInput);
      });

      it('20 concurrent partial captures: exactly one is reserved', async () => {
        const { orderId } = await paidOrder(ledger, auth);
        const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => ledger.reserveOperation(orderId, { kind: 'capture', amount: 150 })));
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason.reason)).toEqual(Array(19).fill('already_captured'));
        expect((await ledger.getOrder(orderId))?.totals).toMatchObject({ capturePending: 150, capturable: 0 });
      });

      it('a split capture distributes the captured amount; without an amount, the whole reserve', async () => {
        const { orderId } = await paidOrder(ledger, auth);
        const split = [
          { subMerchantId: 'farm', amount: 600 },
          { subMerchantId: 'shop', amount: 200 },
        ];
        // Without an amount a capture takes the whole reserve (1000): shares of less are refused, not taken for a partial one.
        await expect(ledger.reserveOperation(orderId, { kind: 'capture', split })).rejects.toMatchObject({ reason: 'split_not_whole_reserve', available: 1000 });
        await expect(ledger.reserveOperation(orderId, { kind: 'capture', split: [...split, { subMerchantId: 'mill', amount: 201 }] })).rejects.toMatchObject({
          reason: 'split_not_whole_reserve',
        });
        const whole = await paidOrder(ledger, auth);
        expect(await ledger.reserveOperation(whole.orderId, { kind: 'capture', split: [{ subMerchantId: 'farm', amount: 700 }, { subMerchantId: 'shop', amount: 300 }] })).toMatchObject({
          amount: 1000,
        });
        const op = await ledger.reserveOperation(orderId, { kind: 'capture', amount: 800, split });
        expect(op).toMatchObject({ amount: 800, split });
        await ledger.settleOperation(op.id, { status: 'success' });
        await expect(ledger.reserveOperation(orderId, { kind: 'refund', split: [{ subMerchantId: 'shop', amount: 201 }] })).rejects.toMatchObject({
          reason: 'exceeds_sub_merchant_share',
          available: 200,
        });
      });
    });

    describe('settlement', () => {
      it('refuses an unknown reservation and an operation id that belongs to another', async () => {
        const { orderId } = await paidOrder(ledger);
        await expect(ledger.settleOperation('00000000-0000-0000-0000-000000000000', { status: 'success' })).rejects.toMatchObject({ entity: 'operation' });
        const a = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 10 });
        const b = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 10 });
        await ledger.settleOperation(a.id, { status: 'success', operationId: 'op-a' });
        await expect(ledger.settleOperation(b.id, { status: 'success', operationId: 'op-a' })).rejects.toMatchObject({ code: 'conflict', reason: 'operation_id_taken' });
        expect(await ledger.getOperation(b.id)).toEqual(b);
        await expect(ledger.settleOperation(b.id, { status: 'done' as never })).rejects.toMatchObject({ field: 'status' });
      });

      it('lists reservations nobody settled, for the reconciler', async () => {
        const { orderId } = await paidOrder(ledger);
        const forgotten = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 10 });
        const settled = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 10 });
        await ledger.settleOperation(settled.id, { status: 'success' });
        expect(await ledger.listUnsettledOperations({ quietForMs: MINUTE })).toEqual([]);
        clock.advance(MINUTE);
        expect((await ledger.listUnsettledOperations({ quietForMs: MINUTE })).map((op) => op.id)).toEqual([forgotten.id]);
      });

      it('a check sends a pending reservation to the back of the queue', async () => {
        const { orderId } = await paidOrder(ledger);
        const first = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 10 });
        clock.advance(1);
        const second = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 10 });
        clock.advance(MINUTE);
        expect((await ledger.listUnsettledOperations({ quietForMs: MINUTE, limit: 1 })).map((op) => op.id)).toEqual([first.id]);
        await ledger.markOperationChecked(first.id);
        expect((await ledger.listUnsettledOperations({ quietForMs: MINUTE, limit: 1 })).map((op) => op.id)).toEqual([second.id]);
        clock.advance(MINUTE);
        expect((await ledger.listUnsettledOperations({ quietForMs: MINUTE })).map((op) => op.id)).toEqual([second.id, first.id]);
        await expect(ledger.markOperationChecked('nope')).rejects.toBeInstanceOf(LedgerNotFound);
      });
    });

    describe('operation transactions', () => {
      const TX = '6f1d3c2a-8b4e-4f70-9a15-2c7e9d0b4a11';

      it('keeps the transaction the answer names; a later word without one leaves it', async () => {
        const { orderId } = await paidOrder(ledger);
        const refund = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 400 });
        expect(refund.transactionId).toBeNull();
        const settled = await ledger.settleOperation(refund.id, { status: 'success', operationId: 'op-tx-1', transactionId: TX, statusCode: '1004' });
        expect(settled.operation).toMatchObject({ status: 'success', transactionId: TX });
        // Its webhook with the transaction null (as the live gateway may send it) takes nothing away.
        await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-tx-1', amount: 400, statusCode: '1004' }, { transaction_id: null }));
        expect(await ledger.getOperation(refund.id)).toMatchObject({ transactionId: TX });
        expect((await ledger.getOrder(orderId))?.operations).toMatchObject([{ id: refund.id, transactionId: TX }]);
        expect(await ledger.listOperations(orderId)).toMatchObject([{ transactionId: TX }]);
      });

      it('learns it from the webhook when the answer named none, settled or not', async () => {
        const { orderId } = await paidOrder(ledger);
        const pending = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        await ledger.settleOperation(pending.id, { status: 'pending', operationId: 'op-tx-2' });
        const success = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-tx-2', amount: 300, statusCode: '1004', transactionId: TX }));
        expect(success.operation).toMatchObject({ id: pending.id, status: 'success', transactionId: TX });
        // Settled by an answer without it: the repeat of its status that names it fills it in.
        const answered = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 200 });
        await ledger.settleOperation(answered.id, { status: 'success', operationId: 'op-tx-3', statusCode: '1004' });
        const other = '0b7f6e5d-4c3b-4a29-8817-0f6e5d4c3b2a';
        await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-tx-3', amount: 200, statusCode: '1004', transactionId: other }));
        expect(await ledger.getOperation(answered.id)).toMatchObject({ status: 'success', transactionId: other });
      });

      it('records one made at the gateway with its transaction, and one an event parked with it', async () => {
        const { orderId } = await paidOrder(ledger);
        const portal = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-tx-portal', amount: 100, statusCode: '1004', transactionId: TX }));
        expect(portal.operation).toMatchObject({ origin: 'gateway', transactionId: TX });
        const reservation = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        const parkedTx = '9c8b7a69-5847-4362-9150-4f3e2d1c0b9a';
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-tx-parked', amount: 300, transactionId: parkedTx }))).toMatchObject({ event: { outcome: 'parked' } });
        const settled = await ledger.settleOperation(reservation.id, { status: 'pending', operationId: 'op-tx-parked' });
        expect(settled.operation).toMatchObject({ status: 'success', transactionId: parkedTx });
      });

      it('refuses a transaction id it cannot keep, naming it, and changes nothing', async () => {
        const { orderId } = await paidOrder(ledger);
        const refund = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        await expect(ledger.settleOperation(refund.id, { status: 'success', transactionId: 'x'.repeat(65) })).rejects.toMatchObject({ field: 'transactionId' });
        await expect(ledger.settleOperation(refund.id, { status: 'success', transactionId: '' })).rejects.toBeInstanceOf(InvalidLedgerInput);
        expect(await ledger.getOperation(refund.id)).toEqual(refund);
      });
    });

    describe('webhook events', () => {
      it('stores an event once and applies it; the duplicate changes nothing', async () => {
        const { orderId } = await claimedPayment(ledger);
        const event = gatewayEvent({ method: 'purchase', status: 'success', orderId, paymentId: 'pay-1', statusCode: '1000', ccToken: 'tok-1' }, { brand_new_field: { kept: true } });
        const first = await ledger.ingestEvent(event);
        expect(first).toMatchObject({ isNew: true, advanced: true, event: { outcome: 'applied', appliedAt: clock.now, body: event.body }, payment: { status: 'success', paymentId: 'pay-1', ccToken: 'tok-1' } });
        expect(JSON.parse(first.event.body)).toMatchObject({ brand_new_field: { kept: true } });
        clock.advance(1000);
        const again = await ledger.ingestEvent(event);
        expect(again).toMatchObject({ isNew: false, advanced: false, event: first.event });
        const detail = await ledger.getOrder(orderId);
        expect(detail?.events).toEqual([first.event]);
        expect(detail?.payment.updatedAt).toBe(first.payment!.updatedAt);
      });

      it('recognises a duplicate delivered many times at once', async () => {
        const { orderId } = await claimedPayment(ledger);
        const event = gatewayEvent({ method: 'purchase', status: 'pending', orderId, statusCode: '2122' });
        const results = await Promise.all(Array.from({ length: 20 }, () => ledger.ingestEvent(event)));
        expect(results.filter((result) => result.isNew)).toHaveLength(1);
        expect(results.filter((result) => result.advanced)).toHaveLength(1);
        expect((await ledger.getOrder(orderId))?.events).toHaveLength(1);
      });

      it('records a reordered event as stale without moving the state back', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, statusCode: '1000' }));
        const late = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'pending', orderId, statusCode: '2122' }));
        expect(late).toMatchObject({ isNew: true, advanced: false, event: { outcome: 'stale' }, payment: { status: 'success', statusCode: '1000' } });
      });

      it('keeps an event for an unknown order unapplied until a re-send finds the order', async () => {
        const event = gatewayEvent({ method: 'purchase', status: 'success', orderId: 'late-1' });
        expect(await ledger.ingestEvent(event)).toMatchObject({ isNew: true, event: { outcome: 'unmatched', appliedAt: null }, payment: null });
        clock.advance(MINUTE);
        expect((await ledger.listWaitingEvents({ quietForMs: MINUTE })).map((e) => e.orderId)).toEqual(['late-1']);
        await claimedPayment(ledger, { orderId: 'late-1' });
        expect(await ledger.ingestEvent(event)).toMatchObject({ isNew: false, advanced: true, event: { outcome: 'applied' }, payment: { status: 'success' } });
        expect(await ledger.listWaitingEvents({ quietForMs: 0 })).toEqual([]);
      });

      it('retries a waiting event without a re-delivery; one still waiting goes to the back', async () => {
        const never = gatewayEvent({ method: 'purchase', status: 'success', orderId: 'never-known' });
        const late = gatewayEvent({ method: 'purchase', status: 'success', orderId: 'late-2' });
        const neverId = (await ledger.ingestEvent(never)).event.id;
        clock.advance(1);
        const lateId = (await ledger.ingestEvent(late)).event.id;
        clock.advance(MINUTE);
        expect((await ledger.listWaitingEvents({ quietForMs: MINUTE, limit: 1 })).map((e) => e.id)).toEqual([neverId]);
        expect(await ledger.retryEvent(neverId)).toMatchObject({ isNew: false, advanced: false, event: { outcome: 'unmatched' } });
        expect((await ledger.listWaitingEvents({ quietForMs: MINUTE, limit: 1 })).map((e) => e.id)).toEqual([lateId]);
        await claimedPayment(ledger, { orderId: 'late-2' });
        expect(await ledger.retryEvent(lateId)).toMatchObject({ advanced: true, event: { outcome: 'applied' }, payment: { orderId: 'late-2', status: 'success' } });
        expect(await ledger.retryEvent(lateId)).toMatchObject({ advanced: false, event: { outcome: 'applied' } });
        expect(await ledger.retryEvent('unknown')).toBeUndefined();
        clock.advance(MINUTE);
        expect((await ledger.listWaitingEvents({ quietForMs: MINUTE })).map((e) => e.id)).toEqual([neverId]);
      });

      it('applies a secondary event to the operation it names, forward only', async () => {
        const { orderId } = await paidOrder(ledger);
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 250 });
        await ledger.settleOperation(op.id, { status: 'pending', operationId: 'op-77' });
        const success = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-77', amount: 250, statusCode: '1004' }));
        expect(success).toMatchObject({ event: { outcome: 'applied', operationId: 'op-77' }, operation: { id: op.id, status: 'success', statusCode: '1004' } });
        const late = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'failure', orderId, operationId: 'op-77', amount: 250 }));
        expect(late).toMatchObject({ event: { outcome: 'stale' }, operation: { status: 'success' } });
        // The same success with another amount changes no settled books: kept, and the payment
        // flagged for a person, each amount so restated once.
        const other = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-77', amount: 123, statusCode: '1004' }, { amount: 1.23 }));
        expect(other).toMatchObject({ event: { outcome: 'unmatched' }, operation: null, flagged: true });
        expect(other.payment?.discrepancy).toEqual({
          status: 'success', amount: null, currency: null, paidAmount: null, paidCurrency: null, paymentId: null,
          restatedOperation: { operation: op.id, kind: 'refund', recorded: 250, reported: 123 }, notedAt: clock.now,
        });
        const twice = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-77', amount: 124, statusCode: '1004' }, { amount: 1.24 }));
        expect(twice).toMatchObject({ event: { outcome: 'unmatched' }, flagged: true, payment: { discrepancy: { restatedOperation: { reported: 123 }, later: [{ restatedOperation: { reported: 124 } }] } } });
        const thrice = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-77', amount: 124, statusCode: '1004' }, { amount: 1.24, note: 'again' }));
        expect(thrice).toMatchObject({ event: { outcome: 'unmatched' }, flagged: false });
        expect((await ledger.getOrder(orderId))?.operations).toMatchObject([{ id: op.id, status: 'success', amount: 250 }]);
        expect((await ledger.getOrder(orderId))?.totals).toMatchObject({ refunded: 250 });
        // Told again as it was, it is a repeat, not news.
        const again = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-77', amount: 250, statusCode: '1004' }, { note: 'again' }));
        expect(again).toMatchObject({ event: { outcome: 'applied' }, operation: { amount: 250 } });
      });

      it('parks a secondary event that beats the gateway answer and applies it at settlement', async () => {
        const { orderId } = await paidOrder(ledger);
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        const early = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-88', amount: 300, statusCode: '1004' }));
        expect(early).toMatchObject({ isNew: true, event: { outcome: 'parked', appliedAt: null } });
        // The answer came back "pending"; the webhook already knew better.
        const settled = await ledger.settleOperation(op.id, { status: 'pending', operationId: 'op-88' });
        expect(settled.operation).toMatchObject({ status: 'success', operationId: 'op-88', statusCode: '1004' });
        // A step forward, so whoever settled it tells the merchant and the live feed now.
        expect(settled.progress).toBe('advanced');
        expect((await ledger.getOrder(orderId))?.events).toMatchObject([{ outcome: 'applied' }]);
      });

      it('parks only an event of the waiting reservation\'s amount; another is recorded as it happened', async () => {
        const { orderId } = await paidOrder(ledger);
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        const other = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-portal', amount: 200, statusCode: '1004' }));
        expect(other).toMatchObject({ event: { outcome: 'applied' }, operation: { origin: 'gateway', amount: 200, operationId: 'op-portal' } });
        expect(await ledger.getOperation(op.id)).toMatchObject({ status: 'pending', operationId: null });
        expect(await ledger.refundableAmount(orderId)).toBe(500);
      });

      it('parks an event of another amount for a reservation of the whole payment, which the gateway makes of what it holds', async () => {
        // The ledger holds the whole payment to refund; one of 500 made at the gateway, its webhook lost, left the gateway less.
        const { orderId, amount } = await paidOrder(ledger);
        const whole = await ledger.reserveOperation(orderId, { kind: 'refund', amount });
        const early = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-rest', amount: amount - 500, statusCode: '1004' }));
        // Recorded as one made at the gateway, it took the id the answer then brings, and the answer was refused.
        expect(early).toMatchObject({ event: { outcome: 'parked' }, operation: null });
        const settled = await ledger.settleOperation(whole.id, { status: 'success', operationId: 'op-rest', amount: amount - 500 });
        expect(settled.operation).toMatchObject({ id: whole.id, status: 'success', amount: amount - 500, origin: 'merchant' });
        expect((await ledger.getOrder(orderId))?.events).toMatchObject([{ outcome: 'applied' }]);
        expect((await ledger.getOrder(orderId))?.operations).toHaveLength(1);
      });

      it('a reservation settled from the order state (no operation id there) takes its event\'s id, counted once', async () => {
        const { orderId } = await paidOrder(ledger);
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        await ledger.settleOperation(op.id, { status: 'success', amount: 300, statusCode: '1004' });
        const late = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-99', amount: 300, statusCode: '1004' }));
        expect(late).toMatchObject({ advanced: false, operation: { id: op.id, operationId: 'op-99' } });
        expect((await ledger.getOrder(orderId))?.operations).toHaveLength(1);
        expect(await ledger.refundableAmount(orderId)).toBe(700);
        // A reservation ended here (never sent) is not the gateway's: its event is another operation.
        const unsent = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        await ledger.settleOperation(unsent.id, { status: 'failure', statusDescription: 'Never reached the gateway' });
        const elsewhere = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-100', amount: 100 }));
        expect(elsewhere.operation).toMatchObject({ origin: 'gateway', operationId: 'op-100' });
        expect(await ledger.refundableAmount(orderId)).toBe(600);
      });

      it('applies no operation event naming another order\'s operation', async () => {
        const { orderId } = await paidOrder(ledger);
        const other = await paidOrder(ledger);
        const op = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 250 });
        await ledger.settleOperation(op.id, { status: 'pending', operationId: 'op-ours' });
        // Sent for the other order, naming this order's operation: this order's books stay as they are.
        const crossed = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId: other.orderId, operationId: 'op-ours', amount: 250, statusCode: '1004' }));
        expect(crossed).toMatchObject({ advanced: false, event: { outcome: 'unmatched' }, operation: null });
        expect(await ledger.getOperation(op.id)).toMatchObject({ status: 'pending', operationId: 'op-ours' });
        expect((await ledger.getOrder(other.orderId))?.operations).toEqual([]);
      });

      it('records no refund the gateway reports in another currency than the payment\'s', async () => {
        const { orderId } = await paidOrder(ledger);
        const foreign = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-eur', amount: 200, currency: 'EUR', statusCode: '1004' }));
        expect(foreign).toMatchObject({ advanced: false, event: { outcome: 'unmatched' }, operation: null });
        expect((await ledger.getOrder(orderId))?.operations).toEqual([]);
        expect(await ledger.refundableAmount(orderId)).toBe(1000);
      });

      it('records an operation the ledger never reserved, as the gateway reports it', async () => {
        const { orderId } = await paidOrder(ledger);
        const result = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-portal', amount: 200 }));
        expect(result.operation).toMatchObject({ origin: 'gateway', kind: 'refund', amount: 200, status: 'success', operationId: 'op-portal' });
        expect(await ledger.refundableAmount(orderId)).toBe(800);
      });

      it('does not apply an event of the other method; holds a success of no readable amount as a discrepancy', async () => {
        const { orderId } = await claimedPayment(ledger);
        const auth = await ledger.ingestEvent(gatewayEvent({ method: 'auth', status: 'success', orderId, amount: 1000, currency: 'XTS' }));
        expect(auth).toMatchObject({ advanced: false, flagged: false, event: { outcome: 'unmatched' } });
        expect(await ledger.getPayment(orderId)).toMatchObject({ status: 'init', discrepancy: null });
        // 0: the gateway named an amount the companion could not read.
        const unreadable = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 0, currency: 'XTS' }));
        expect(unreadable).toMatchObject({ advanced: false, flagged: true, event: { outcome: 'unmatched' }, payment: { status: 'init', discrepancy: { status: 'success', amount: 0 } } });
        expect(await ledger.advancePayment(orderId, { status: 'success', method: 'purchase', amount: 1000, currency: 'XTS' })).toMatchObject({ progress: 'advanced' });
      });

      it('never applies an event naming another point of sale, also when tried again', async () => {
        const { orderId } = await claimedPayment(ledger);
        const foreign = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, otherPosId: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f' }));
        expect(foreign).toMatchObject({ isNew: true, advanced: false, event: { outcome: 'unmatched', appliedAt: null } });
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, otherPosId: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f' }))).toMatchObject({ isNew: false, advanced: false });
        expect(await ledger.retryEvent(foreign.event.id)).toMatchObject({ advanced: false, event: { outcome: 'unmatched' } });
        expect((await ledger.listEvents({ outcome: 'unmatched' })).events.map((event) => event.id)).toEqual([foreign.event.id]);
        expect(await ledger.getPayment(orderId)).toMatchObject({ status: 'init' });
      });

      it('records refunds it never asked for past what was paid and flags the payment at each new total; no capture of a purchase, no amount unread', async () => {
        const { orderId } = await paidOrder(ledger);
        const operation = (operationId: string, amount: number, method = 'refund') => gatewayEvent({ method, status: 'success', orderId, operationId, amount, statusCode: '1004' });
        expect(await ledger.ingestEvent(operation('op-capture', 1000, 'capture'))).toMatchObject({ event: { outcome: 'unmatched' }, operation: null });
        expect(await ledger.ingestEvent(operation('op-unread', 0))).toMatchObject({ event: { outcome: 'unmatched' }, operation: null });
        expect(await ledger.ingestEvent(operation('op-1', 600))).toMatchObject({ flagged: false, payment: null, operation: { origin: 'gateway', amount: 600 } });
        clock.advance(1000);
        const past = await ledger.ingestEvent(operation('op-2', 500));
        expect(past).toMatchObject({
          advanced: true,
          flagged: true,
          event: { outcome: 'applied' },
          operation: { origin: 'gateway', amount: 500, status: 'success' },
          payment: { status: 'success', discrepancy: { status: 'success', amount: null, refunded: 1100, notedAt: clock.now } },
        });
        clock.advance(1000);
        // A further refund past what was paid is news: the new total, after the first.
        expect(await ledger.ingestEvent(operation('op-3', 100))).toMatchObject({ flagged: true, payment: { discrepancy: { refunded: 1100, later: [{ refunded: 1200, notedAt: clock.now }] } }, operation: { amount: 100 } });
        expect(await ledger.ingestEvent(operation('op-3', 100))).toMatchObject({ isNew: false, flagged: false });
        const detail = await ledger.getOrder(orderId);
        expect(detail?.operations.map((op) => op.amount)).toEqual([600, 500, 100]);
        expect(detail?.totals).toMatchObject({ refunded: 1200, refundable: 0 });
        expect(detail?.payment.discrepancy?.refunded).toBe(1100);
      });

      it('takes a declined operation’s event (amount 0): on the failure it names, parked for a reservation without an id, else unmatched; nothing moves', async () => {
        const { orderId } = await paidOrder(ledger);
        const declined = (operationId: string) =>
          gatewayEvent({ method: 'refund', status: 'failure', orderId, operationId, amount: 0, statusCode: '4139', statusDescription: 'Invalid amount' });
        // The gateway's answer recorded the decline first.
        const answered = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        await ledger.settleOperation(answered.id, { status: 'failure', operationId: 'op-declined-1', statusCode: '4139', statusDescription: 'Invalid amount' });
        expect(await ledger.ingestEvent(declined('op-declined-1'))).toMatchObject({
          advanced: false, flagged: false, event: { outcome: 'applied' }, operation: { id: answered.id, status: 'failure', amount: 300, statusCode: '4139' },
        });
        // The webhook before the answer: parked until the reservation settles, then applied.
        clock.advance(1000);
        const reserved = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 200 });
        expect(await ledger.ingestEvent(declined('op-declined-2'))).toMatchObject({ event: { outcome: 'parked' }, operation: null });
        expect(await ledger.settleOperation(reserved.id, { status: 'failure', operationId: 'op-declined-2', statusCode: '4139' })).toMatchObject({
          progress: 'advanced', operation: { status: 'failure', amount: 200, statusDescription: 'Invalid amount' },
        });
        // Settled from the order state first (its entries carry no operation id): the decline's webhook is its.
        clock.advance(1000);
        const read = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        await ledger.settleOperation(read.id, { status: 'failure', statusCode: '4139' });
        expect(await ledger.ingestEvent(declined('op-declined-3'))).toMatchObject({ event: { outcome: 'applied' }, operation: { id: read.id, operationId: 'op-declined-3', amount: 100 } });
        // A decline of no operation the ledger holds: kept for a person, nothing recorded.
        clock.advance(1000);
        expect(await ledger.ingestEvent(declined('op-elsewhere'))).toMatchObject({ event: { outcome: 'unmatched' }, operation: null });
        // Two declines settled from the order state: one of the gateway's code is the webhook's;
        // of two alike, neither is told apart, and the webhook is kept for a person.
        clock.advance(1000);
        const reserve = async (amount: number) => {
          clock.advance(1);
          return ledger.reserveOperation(orderId, { kind: 'refund', amount });
        };
        const [first, second, third] = [await reserve(50), await reserve(60), await reserve(70)];
        await ledger.settleOperation(first.id, { status: 'failure', statusCode: '4139' });
        await ledger.settleOperation(second.id, { status: 'failure', statusCode: '4139' });
        await ledger.settleOperation(third.id, { status: 'failure', statusCode: '4140' });
        expect(await ledger.ingestEvent(declined('op-alike'))).toMatchObject({ event: { outcome: 'unmatched' }, operation: null });
        clock.advance(1);
        const otherCode = gatewayEvent({ method: 'refund', status: 'failure', orderId, operationId: 'op-coded', amount: 0, statusCode: '4140', statusDescription: 'Limit' });
        expect(await ledger.ingestEvent(otherCode)).toMatchObject({ event: { outcome: 'applied' }, operation: { id: third.id, operationId: 'op-coded', statusDescription: 'Limit' } });
        const detail = await ledger.getOrder(orderId);
        expect(detail?.events.map((event) => [event.operationId, event.outcome])).toEqual([
          ['op-declined-1', 'applied'], ['op-declined-2', 'applied'], ['op-declined-3', 'applied'], ['op-elsewhere', 'unmatched'], ['op-alike', 'unmatched'], ['op-coded', 'applied'],
        ]);
        expect(detail?.operations.filter((operation) => operation.operationId === null).map((operation) => operation.id)).toEqual([first.id, second.id]);
        expect(detail?.operations.map((operation) => [operation.amount, operation.status])).toEqual([[300, 'failure'], [200, 'failure'], [100, 'failure'], [50, 'failure'], [60, 'failure'], [70, 'failure']]);
        expect(detail?.totals).toMatchObject({ refunded: 0, refundable: detail?.payment.amount });
        // A decline never stands for a success of no amount.
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-declined-1', amount: 0, statusCode: '1004' }))).toMatchObject({ event: { outcome: 'unmatched' } });
      });

      it('flags a refund or capture the gateway made that matches one ended as never sent, by webhook or from the order state, once', async () => {
        const window = { reads: 2, spacingMs: 0 };
        /** A reservation failed after a window of reads that did not show it, as the companion ends one. */
        const endedUnsent = async (orderId: string, kind: 'refund' | 'capture', amount: number) => {
          const reservation = await ledger.reserveOperation(orderId, { kind, amount });
          clock.advance(1);
          await ledger.countAbsentOperation(reservation.id, { ...window, readAt: clock.now });
          await ledger.countAbsentOperation(reservation.id, { ...window, readAt: clock.now });
          await ledger.settleOperation(reservation.id, { status: 'failure', statusDescription: 'Never reached the gateway' });
          return reservation;
        };
        const { orderId } = await paidOrder(ledger);
        // A failure refused here before any read, of another amount: nothing of the kind.
        const refused = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 200 });
        await ledger.settleOperation(refused.id, { status: 'failure' });
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-portal', amount: 200 }))).toMatchObject({ flagged: false, operation: { origin: 'gateway' } });

        const unsent = await endedUnsent(orderId, 'refund', 300);
        const retry = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        await ledger.settleOperation(retry.id, { status: 'success', operationId: 'op-retry' });
        // The late first request: pending first (no money moved), then its success flags.
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'pending', orderId, operationId: 'op-late', amount: 300 }))).toMatchObject({ flagged: false });
        clock.advance(1000);
        const late = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-late', amount: 300 }));
        expect(late).toMatchObject({
          flagged: true,
          operation: { origin: 'gateway', status: 'success', amount: 300, operationId: 'op-late' },
          payment: { status: 'success', discrepancy: { status: 'success', amount: null, lateOperation: { reservation: unsent.id, operation: late.operation!.id, kind: 'refund', amount: 300 }, notedAt: clock.now } },
        });
        expect((await ledger.getOrder(orderId))?.totals).toMatchObject({ refunded: 800, refundable: 200 });

        // From the order state, with or without the gateway's operation id, recorded once.
        const auth = await paidOrder(ledger, { method: 'auth' });
        const capture = await endedUnsent(auth.orderId, 'capture', 1000);
        const entry = { kind: 'capture' as const, status: 'success' as const, amount: 1000, statusCode: '1000', shown: 1 };
        const [first, second] = await Promise.all([ledger.recordGatewayOperation(auth.orderId, entry), ledger.recordGatewayOperation(auth.orderId, entry)]);
        const recorded = first.operation ?? second.operation;
        expect([first.operation, second.operation].filter(Boolean)).toHaveLength(1);
        expect(first.flagged ?? second.flagged).toMatchObject({ discrepancy: { lateOperation: { reservation: capture.id, operation: recorded!.id, kind: 'capture', amount: 1000 } } });
        // Its webhook then finds it (no id yet) and gives it the id, once.
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'capture', status: 'success', orderId: auth.orderId, operationId: 'op-capture', amount: 1000 }))).toMatchObject({ flagged: false, operation: { id: recorded!.id, operationId: 'op-capture' } });
        expect(await ledger.recordGatewayOperation(auth.orderId, { ...entry, operationId: 'op-capture' })).toEqual({ operation: undefined, flagged: undefined });
        expect((await ledger.getOrder(auth.orderId))?.operations.map((op) => `${op.origin} ${op.status}`)).toEqual(['merchant failure', 'gateway success']);
        await expect(ledger.recordGatewayOperation(auth.orderId, { ...entry, shown: 0 })).rejects.toMatchObject({ field: 'shown' });
      });

      it('keeps what the gateway reports with NUL characters replaced, alike on every database', async () => {
        const { orderId } = await paidOrder(ledger);
        const nul = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, statusDescription: 'Paid\u0000 in full', gatewayOrderId: 'g\u0000' }));
        expect(nul).toMatchObject({ event: { outcome: 'applied' }, payment: { statusDescription: 'Paid\uFFFD in full', gatewayOrderId: 'g\uFFFD' } });
        const stray = await ledger.ingestEvent(gatewayEvent({ method: 'purchase\u0000', status: 'success\u0000', orderId: `${orderId}\u0000`, paymentId: 'p\u0000' }));
        expect(stray).toMatchObject({ isNew: true, event: { outcome: 'unmatched', orderId: `${orderId}\uFFFD`, method: 'purchase\uFFFD', status: 'success\uFFFD', paymentId: 'p\uFFFD' } });
        const refund = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        expect((await ledger.settleOperation(refund.id, { status: 'failure', statusCode: '4\u0000', statusDescription: 'No\u0000' })).operation).toMatchObject({ statusCode: '4\uFFFD', statusDescription: 'No\uFFFD' });
        const other = await claimedPayment(ledger);
        expect((await ledger.advancePayment(other.orderId, { status: 'pending', statusDescription: 'x\u0000' })).payment.statusDescription).toBe('x\uFFFD');
      });

      it('stores kinds it does not track without applying them, and refuses malformed events', async () => {
        const lookup = await ledger.ingestEvent(gatewayEvent({ method: 'lookup', status: 'success', orderId: 'lk-1' }));
        expect(lookup).toMatchObject({ isNew: true, event: { outcome: 'unmatched' } });
        const { orderId } = await claimedPayment(ledger);
        const good = gatewayEvent({ method: 'purchase', status: 'success', orderId });
        await expect(ledger.ingestEvent({ ...good, data: '' })).rejects.toMatchObject({ field: 'data' });
        await expect(ledger.ingestEvent({ ...good, amount: -1 })).rejects.toMatchObject({ field: 'amount' });
        await expect(ledger.ingestEvent({ ...good, ccMask: '4000000000003220' })).rejects.toMatchObject({ field: 'ccMask' });
        expect(await ledger.getOrder(orderId)).toMatchObject({ payment: { status: 'init' }, events: [] });
      });
    });

    describe('discrepancies', () => {
      const claim = () => ledger.claimNotices({ limit: 50, leaseMs: MINUTE, kind: 'payment' });

      it('keeps every distinct contradiction a payment meets, each told again, and a repeat changes nothing', async () => {
        const { orderId } = await paidOrder(ledger);
        const refund = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 600 });
        await ledger.settleOperation(refund.id, { status: 'success', operationId: 'op-own' });
        const event = (operationId: string, amount: number, extra = {}) => gatewayEvent({ method: 'refund', status: 'success', orderId, operationId, amount, statusCode: '1004' }, extra);
        clock.advance(NOTICE_GRACE_MS);
        await claim().then((due) => Promise.all(due.map((notice) => ledger.noticeTold(paymentNotice((notice as { payment: Payment }).payment)))));

        // The gateway restates the settled refund: held, and news.
        const restated = await ledger.ingestEvent(event('op-own', 700, { amount: 7 }));
        expect(restated).toMatchObject({ flagged: true, payment: { discrepancy: { restatedOperation: { recorded: 600, reported: 700 } } } });
        expect(restated.payment?.discrepancy?.later).toBeUndefined();
        clock.advance(NOTICE_GRACE_MS);
        const [first] = await claim();
        expect(first).toMatchObject({ payment: { orderId, discrepancy: { restatedOperation: { reported: 700 } } } });

        // Days later, while the merchant is told the first, a refund in the portal goes past what
        // was paid: kept after the first, and due again — telling the first does not clear it.
        clock.advance(3 * 24 * HOUR);
        const past = await ledger.ingestEvent(event('op-portal', 500));
        expect(past).toMatchObject({ flagged: true, payment: { discrepancy: { restatedOperation: { reported: 700 }, later: [{ refunded: 1100, notedAt: clock.now }] } } });
        expect(await ledger.noticeTold(paymentNotice((first as { payment: Payment }).payment))).toBe(false);
        clock.advance(NOTICE_GRACE_MS);
        const [second] = await claim();
        expect(second).toMatchObject({ payment: { discrepancy: { later: [{ refunded: 1100 }] } } });
        expect(await ledger.noticeTold(paymentNotice((second as { payment: Payment }).payment))).toBe(true);

        // Redelivered, retried or read again, the same reports change nothing and are not news.
        expect(await ledger.ingestEvent(event('op-own', 700, { amount: 7 }))).toMatchObject({ isNew: false, flagged: false });
        expect(await ledger.ingestEvent(event('op-own', 700, { amount: 7, note: 'resent' }))).toMatchObject({ isNew: true, flagged: false });
        expect(await ledger.ingestEvent(event('op-portal', 500))).toMatchObject({ isNew: false, flagged: false });
        clock.advance(HOUR);
        expect(await claim()).toEqual([]);
        expect((await ledger.getPayment(orderId))?.discrepancy).toMatchObject({ restatedOperation: { reported: 700 }, later: [{ refunded: 1100 }] });
        expect((await ledger.getPayment(orderId))?.discrepancy?.later).toHaveLength(1);
      });

      it('takes a report read again without its payment id for a repeat', async () => {
        const { orderId } = await claimedPayment(ledger);
        const short = { status: 'success' as const, amount: 1000, currency: 'XTS', paidAmount: 400, paidCurrency: 'XTS', paymentId: 'pay-1' };
        expect(await ledger.advancePayment(orderId, short)).toMatchObject({ progress: 'flagged', payment: { status: 'init' } });
        // An order state's entries carry no payment id: the same figures are the same report.
        expect(await ledger.advancePayment(orderId, { ...short, paymentId: undefined })).toMatchObject({ progress: 'mismatch' });
        expect((await ledger.getPayment(orderId))?.discrepancy?.later).toBeUndefined();
      });

      it('keeps an unreadable post once, however the payment moves while it is retried', async () => {
        const { orderId } = await claimedPayment(ledger);
        const unreadable = { ...gatewayEvent({ method: 'purchase', status: 'weird', orderId } as never), unreadable: true as const };
        const first = await ledger.ingestEvent(unreadable as never);
        expect(first).toMatchObject({ flagged: true, payment: { discrepancy: { status: 'init', unreadable: true } } });
        await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2122' });
        clock.advance(HOUR);
        expect(await ledger.retryEvent(first.event.id)).toMatchObject({ flagged: false });
        expect((await ledger.getPayment(orderId))?.discrepancy?.later).toBeUndefined();
      });

      it('keeps each further charge of a recurring payment, told apart by its transaction', async () => {
        const { orderId } = await paidOrder(ledger, {}, { transactionId: 't1', paymentId: 'pay-1' } as never);
        const charge = (transactionId: string) =>
          ledger.ingestEvent({ ...gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS', paymentId: 'pay-1', transactionId } as never, { transaction_id: transactionId }), recurring: true } as never);
        expect(await charge('t2')).toMatchObject({ flagged: true, payment: { discrepancy: { transactionId: 't2' } } });
        clock.advance(30 * 24 * HOUR);
        expect(await charge('t3')).toMatchObject({ flagged: true, payment: { discrepancy: { transactionId: 't2', later: [{ transactionId: 't3' }] } } });
        expect((await ledger.getPayment(orderId))?.status).toBe('success');
      });

      it('applies the first webhook of a recurring payment whose transaction it does not know yet', async () => {
        const { orderId } = await claimedPayment(ledger);
        const first = { ...gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS', transactionId: 't1' } as never, { transaction_id: 't1' }), recurring: true };
        expect(await ledger.ingestEvent(first as never)).toMatchObject({ advanced: true, flagged: false, event: { outcome: 'applied' }, payment: { status: 'success', transactionId: 't1', discrepancy: null } });
      });

      it(`keeps ${LATER_REPORTS_KEPT} later reports, then says there were more, once`, async () => {
        const { orderId } = await claimedPayment(ledger);
        const paidShort = (paidAmount: number) => ledger.advancePayment(orderId, { status: 'success', amount: 1000, currency: 'XTS', paidAmount, paidCurrency: 'XTS' });
        for (let paid = 1; paid <= LATER_REPORTS_KEPT + 1; paid++) expect((await paidShort(paid)).progress).toBe('flagged');
        const full = await paidShort(LATER_REPORTS_KEPT + 2);
        expect(full).toMatchObject({ progress: 'flagged', payment: { discrepancy: { paidAmount: 1, laterTruncated: true } } });
        expect(full.payment.discrepancy?.later?.map((report) => report.paidAmount)).toEqual(Array.from({ length: LATER_REPORTS_KEPT }, (_, n) => n + 2));
        clock.advance(NOTICE_GRACE_MS);
        expect(await claim()).toHaveLength(1);
        expect(await ledger.noticeTold(paymentNotice(full.payment))).toBe(true);
        // Past the bound, neither a report kept nor one left out changes anything, nor is news.
        expect((await paidShort(LATER_REPORTS_KEPT + 3)).progress).toBe('mismatch');
        expect((await paidShort(2)).progress).toBe('mismatch');
        clock.advance(HOUR);
        expect(await claim()).toEqual([]);
        expect(await ledger.getPayment(orderId)).toEqual(full.payment);
      });

      it('holds a settled order again for a report past those kept, its version moved, once a report', async () => {
        const { orderId } = await claimedPayment(ledger);
        const paidShort = (paidAmount: number) => ledger.advancePayment(orderId, { status: 'success', amount: 1000, currency: 'XTS', paidAmount, paidCurrency: 'XTS' });
        for (let paid = 1; paid <= LATER_REPORTS_KEPT + 2; paid++) await paidShort(paid);
        const truncated = (await ledger.getPayment(orderId))!.discrepancy!;
        expect(truncated).toMatchObject({ laterTruncated: true });
        const version = LATER_REPORTS_KEPT + 2;
        await ledger.settleDiscrepancy(orderId, { note: 'Refunded every overpayment', version });
        clock.advance(NOTICE_GRACE_MS);
        await claim().then((due) => Promise.all(due.map((notice) => ledger.noticeTold(paymentNotice((notice as { payment: Payment }).payment)))));

        // Money moved again (a report not kept): held, the settlement kept, the version past the one settled, and news.
        expect((await paidShort(LATER_REPORTS_KEPT + 10)).progress).toBe('flagged');
        const reopened = (await ledger.getPayment(orderId))!.discrepancy!;
        expect(reopened).toMatchObject({ reopenedPastKept: 1, settledBefore: [{ version }] });
        expect(reopened.settled).toBeUndefined();
        expect(reopened.later).toEqual(truncated.later);
        expect((await ledger.listOrders({ held: true })).orders.map((order) => order.orderId)).toEqual([orderId]);
        clock.advance(NOTICE_GRACE_MS);
        expect(await claim()).toHaveLength(1);
        // Held already, another report past those kept changes nothing: a retried event tells nothing twice.
        expect((await paidShort(LATER_REPORTS_KEPT + 11)).progress).toBe('mismatch');
        await expect(ledger.settleDiscrepancy(orderId, { note: 'Again', version })).rejects.toMatchObject({ reason: 'discrepancy_changed' });
        expect(await ledger.settleDiscrepancy(orderId, { note: 'Refunded that one too', version: version + 1 })).toMatchObject({ discrepancy: { settled: { version: version + 1 } } });
      });

      it('marks the order’s unmatched events reviewed as it settles it, and no other order’s', async () => {
        const { orderId } = await paidOrder(ledger);
        const other = await paidOrder(ledger);
        // A success for each order with other figures: kept unmatched, the first held for it.
        const contradicting = (id: string) => ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: id, amount: 999, currency: 'XTS', statusCode: '1000' }));
        expect(await contradicting(orderId)).toMatchObject({ flagged: true, event: { outcome: 'unmatched' } });
        expect(await contradicting(other.orderId)).toMatchObject({ event: { outcome: 'unmatched' } });
        expect(await ledger.backlog()).toMatchObject({ unmatchedEvents: 2 });
        await ledger.settleDiscrepancy(orderId, { note: 'The customer was charged 9.99 at the gateway: refunded there', version: 1 });
        expect(await ledger.backlog()).toMatchObject({ unmatchedEvents: 1 });
        expect((await ledger.getOrder(orderId))?.events.map((event) => event.reviewedAt)).toEqual([clock.now]);
        expect((await ledger.getOrder(other.orderId))?.events.filter((event) => event.outcome === 'unmatched').map((event) => event.reviewedAt)).toEqual([null]);
      });

      it('refuses a settlement note that shows nothing, or holds controls or a reordering', async () => {
        const { orderId } = await paidOrder(ledger);
        await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 999, currency: 'XTS', statusCode: '1000' }));
        for (const note of ['\u200b\u200b', '\u3164', '\u2800 \u00ad', '\u200e\u200f']) {
          await expect(ledger.settleDiscrepancy(orderId, { note, version: 1 })).rejects.toMatchObject({ field: 'note', reason: 'must say how the order was settled' });
        }
        await expect(ledger.settleDiscrepancy(orderId, { note: 'Refunded\u0007', version: 1 })).rejects.toMatchObject({ field: 'note', reason: 'must not hold control characters but line breaks and tabs' });
        await expect(ledger.settleDiscrepancy(orderId, { note: 'Refunded \u202eUAH 05.00\u202c', version: 1 })).rejects.toMatchObject({ field: 'note', reason: expect.stringContaining('bidirectional') });
        expect(await ledger.settleDiscrepancy(orderId, { note: 'Refunded 9.99\nin the portal\tby Olena', version: 1 })).toMatchObject({ discrepancy: { settled: { note: 'Refunded 9.99\nin the portal\tby Olena' } } });
      });

      if (backend.persistent) {
        it('loses no report when two ledgers on one database flag a payment at once', async () => {
          const other = await store.reopen!();
          const { orderId } = await claimedPayment(ledger);
          const paidShort = (on: Ledger, paidAmount: number) => on.advancePayment(orderId, { status: 'success', amount: 1000, currency: 'XTS', paidAmount, paidCurrency: 'XTS' });
          await paidShort(ledger, 1);
          const rounds = Array.from({ length: 6 }, (_, n) => n);
          const results = await Promise.all(rounds.flatMap((n) => [paidShort(ledger, 100 + n), paidShort(other, 200 + n)]));
          expect(results.map((result) => result.progress)).toEqual(results.map(() => 'flagged'));
          const kept = (await ledger.getPayment(orderId))?.discrepancy?.later?.map((report) => report.paidAmount);
          expect([...kept!].sort((a, b) => a! - b!)).toEqual([...rounds.map((n) => 100 + n), ...rounds.map((n) => 200 + n)]);
        });

        it('never settles a report unseen when one ledger settles while another notes a report', async () => {
          const other = await store.reopen!();
          for (let round = 0; round < 8; round++) {
            const { orderId } = await claimedPayment(ledger);
            const paidShort = (on: Ledger, paidAmount: number) => on.advancePayment(orderId, { status: 'success', amount: 1000, currency: 'XTS', paidAmount, paidCurrency: 'XTS' });
            await paidShort(ledger, 1);
            const [settling] = await Promise.allSettled([ledger.settleDiscrepancy(orderId, { note: 'Refunded', version: 1 }), paidShort(other, 2)]);
            const after = (await ledger.getPayment(orderId))!.discrepancy!;
            // The report is kept whichever came first; a settlement covers every report or none is current.
            expect(after.later?.map((report) => report.paidAmount)).toEqual([2]);
            if (settling.status === 'rejected') {
              expect(settling.reason).toMatchObject({ reason: 'discrepancy_changed' });
              expect(after.settled).toBeUndefined();
              expect(after.settledBefore).toBeUndefined();
            } else {
              // Settled first, then reopened by the report: held again, the settlement kept.
              expect(after.settled).toBeUndefined();
              expect(after.settledBefore).toEqual([expect.objectContaining({ version: 1 })]);
            }
            expect((await ledger.listOrders({ held: true })).orders.map((order) => order.orderId)).toContain(orderId);
          }
        });
      }
    });

    describe('merchant notices', () => {
      const claim = () => ledger.claimNotices({ limit: 50, leaseMs: MINUTE });
      const summary = (due: DueNotice) => (due.kind === 'payment' ? [due.payment.orderId, due.payment.status, due.attempt] : [due.operation.kind, due.operation.status, due.attempt]);
      const claimed = async () => (await claim()).map(summary);
      /** Claims what is due and tells it: what it told. */
      const tellDue = async () => {
        const due = await claim();
        for (const notice of due) expect(await ledger.noticeTold(notice.kind === 'payment' ? paymentNotice(notice.payment) : operationNotice(notice.operation))).toBe(true);
        return due.map(summary);
      };

      it('marks each step and a discrepancy due once its maker had its grace, not a refresh or a reservation', async () => {
        const { orderId } = await claimedPayment(ledger);
        clock.advance(NOTICE_GRACE_MS);
        expect(await claimed()).toEqual([]);
        await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2122' });
        clock.advance(NOTICE_GRACE_MS - 1);
        expect(await claimed()).toEqual([]);
        clock.advance(1);
        expect(await claimed()).toEqual([[orderId, 'pending', 1]]);
        expect(await ledger.noticeTold({ kind: 'payment', orderId, status: 'pending', discrepancy: null })).toBe(true);
        // A refresh of the same status is not news.
        await ledger.advancePayment(orderId, { status: 'pending', statusCode: '2122', paymentId: 'pay-1' });
        clock.advance(NOTICE_GRACE_MS);
        expect(await claimed()).toEqual([]);
        // A success with other figures is held, and the discrepancy is news.
        await ledger.advancePayment(orderId, { status: 'success', amount: 999, currency: 'XTS' });
        clock.advance(NOTICE_GRACE_MS);
        const [flagged] = await claim();
        expect(flagged).toMatchObject({ kind: 'payment', payment: { status: 'pending', discrepancy: { status: 'success', amount: 999 } } });
        expect(await ledger.noticeTold({ kind: 'payment', orderId, status: 'pending', discrepancy: null })).toBe(false);
        expect(await ledger.noticeTold(paymentNotice((flagged as { payment: Payment }).payment))).toBe(true);

        const paid = await paidOrder(ledger);
        clock.advance(NOTICE_GRACE_MS);
        expect(await tellDue()).toEqual([[paid.orderId, 'success', 1]]);
        // The companion's own reservation is not news; its settlement and a refund made at the gateway are.
        const refund = await ledger.reserveOperation(paid.orderId, { kind: 'refund', amount: 100 });
        clock.advance(NOTICE_GRACE_MS);
        expect(await claimed()).toEqual([]);
        await ledger.settleOperation(refund.id, { status: 'success', operationId: 'op-1' });
        await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId: paid.orderId, operationId: 'op-portal', amount: 200, currency: 'XTS' }));
        clock.advance(NOTICE_GRACE_MS);
        expect((await claimed()).sort()).toEqual([['refund', 'success', 1], ['refund', 'success', 1]]);
      });

      it('leases what it claims: no other claim takes it until the lease ends, then the attempt is counted', async () => {
        const paid = await paidOrder(ledger);
        clock.advance(NOTICE_GRACE_MS);
        const others = backend.persistent ? [await store.reopen!(), await store.reopen!()] : [];
        const rivals = await Promise.all([ledger, ...others].map((each) => each.claimNotices({ limit: 50, leaseMs: MINUTE })));
        expect(rivals.flat()).toHaveLength(1);
        expect(await claimed()).toEqual([]);
        clock.advance(MINUTE);
        expect(await claimed()).toEqual([[paid.orderId, 'success', 2]]);
        await expect(ledger.claimNotices({ limit: 0, leaseMs: MINUTE })).rejects.toMatchObject({ field: 'limit' });
      });

      it('claims no more than its limit, however many are due: what it leases it returns', async () => {
        const paid = await Promise.all(Array.from({ length: 6 }, () => paidOrder(ledger)));
        clock.advance(NOTICE_GRACE_MS);
        const one = () => ledger.claimNotices({ limit: 1, leaseMs: MINUTE, kind: 'payment' });
        const taken: string[] = [];
        for (const _ of paid) {
          const claimedNow = await one();
          expect(claimedNow).toHaveLength(1);
          taken.push(...claimedNow.map((notice) => (notice as { payment: Payment }).payment.orderId));
        }
        // Each once, and every one: none was leased by a claim that did not return it.
        expect([...taken].sort()).toEqual(paid.map((payment) => payment.orderId).sort());
        expect(await one()).toEqual([]);
      });

      it('holds an operation’s change until its payment’s is told: the merchant hears of the success before its refund', async () => {
        const paid = await paidOrder(ledger);
        const other = await paidOrder(ledger);
        await ledger.settleOperation((await ledger.reserveOperation(paid.orderId, { kind: 'refund' })).id, { status: 'success' });
        clock.advance(NOTICE_GRACE_MS);
        const operations = () => ledger.claimNotices({ limit: 50, leaseMs: MINUTE, kind: 'operation' });
        expect(await operations()).toEqual([]);
        // Another order's payment told changes nothing for this one.
        expect(await ledger.noticeTold({ kind: 'payment', orderId: other.orderId, status: 'success', discrepancy: null })).toBe(true);
        expect(await operations()).toEqual([]);
        // Taken up by a pass, the payment's change is one told again until it is told.
        expect(await ledger.paymentNoticeRetried(paid.orderId)).toBe(false);
        expect((await ledger.claimNotices({ limit: 50, leaseMs: MINUTE, kind: 'payment' })).map(summary)).toEqual([[paid.orderId, 'success', 1]]);
        expect(await ledger.paymentNoticeRetried(paid.orderId)).toBe(true);
        expect(await ledger.noticeTold({ kind: 'payment', orderId: paid.orderId, status: 'success', discrepancy: null })).toBe(true);
        expect(await ledger.paymentNoticeRetried(paid.orderId)).toBe(false);
        expect((await operations()).map(summary)).toEqual([['refund', 'success', 1]]);
      });

      it('claims only the kind asked for, when asked', async () => {
        const paid = await paidOrder(ledger);
        await ledger.settleOperation((await ledger.reserveOperation(paid.orderId, { kind: 'refund' })).id, { status: 'success' });
        clock.advance(NOTICE_GRACE_MS);
        const only = (kind: DueNotice['kind']) => ledger.claimNotices({ limit: 50, leaseMs: MINUTE, kind });
        // The refund waits for its payment's success to be told.
        expect(await only('operation')).toEqual([]);
        const payments = await only('payment');
        expect(payments.map(summary)).toEqual([[paid.orderId, 'success', 1]]);
        expect(await ledger.noticeTold(paymentNotice((payments[0] as { payment: Payment }).payment))).toBe(true);
        expect((await only('operation')).map(summary)).toEqual([['refund', 'success', 1]]);
        expect(await claimed()).toEqual([]);
        await expect(ledger.claimNotices({ limit: 1, leaseMs: MINUTE, kind: 'session' as 'payment' })).rejects.toMatchObject({ field: 'kind' });
      });

      it('clears only the state told: a newer step that came meanwhile stays due', async () => {
        const { orderId } = await claimedPayment(ledger);
        await ledger.advancePayment(orderId, { status: 'pending' });
        clock.advance(NOTICE_GRACE_MS);
        const [pending] = await claim();
        await ledger.advancePayment(orderId, { status: 'success' });
        expect(await ledger.noticeTold(paymentNotice((pending as { payment: Payment }).payment))).toBe(false);
        expect(await ledger.noticeFailed(paymentNotice((pending as { payment: Payment }).payment), clock.now + HOUR)).toBe(false);
        clock.advance(NOTICE_GRACE_MS);
        expect(await claimed()).toEqual([[orderId, 'success', 1]]);

        const paid = await paidOrder(ledger);
        const refund = await ledger.reserveOperation(paid.orderId, { kind: 'refund' });
        const settled = await ledger.settleOperation(refund.id, { status: 'success', operationId: 'op-2' });
        expect(await ledger.noticeTold(operationNotice(refund))).toBe(false);
        expect(await ledger.noticeTold(operationNotice(settled.operation))).toBe(true);
        expect(await ledger.noticeTold(operationNotice(settled.operation))).toBe(false);
      });

      it('takes a failed notice again when it is told to, the attempts counted', async () => {
        const paid = await paidOrder(ledger);
        clock.advance(NOTICE_GRACE_MS);
        const [due] = await claim();
        expect(await ledger.noticeFailed(paymentNotice((due as { payment: Payment }).payment), clock.now + 15_000)).toBe(true);
        clock.advance(14_999);
        expect(await claimed()).toEqual([]);
        clock.advance(1);
        expect(await claimed()).toEqual([[paid.orderId, 'success', 2]]);
        await expect(ledger.noticeFailed(paymentNotice(paid), -1)).rejects.toMatchObject({ field: 'retryAt' });
      });

      it('drops the marks due before a time when there is no one to tell, and keeps younger ones', async () => {
        const paid = await paidOrder(ledger);
        await paidOrder(ledger);
        await ledger.settleOperation((await ledger.reserveOperation(paid.orderId, { kind: 'refund' })).id, { status: 'success' });
        // Still in their grace: an instance with a hook may tell them yet.
        expect(await ledger.dropNotices(clock.now)).toBe(0);
        clock.advance(HOUR);
        const younger = await paidOrder(ledger);
        expect(await ledger.dropNotices(clock.now)).toBe(3);
        expect(await ledger.dropNotices(clock.now)).toBe(0);
        clock.advance(NOTICE_GRACE_MS);
        expect(await claimed()).toEqual([[younger.orderId, 'success', 1]]);
        await expect(ledger.dropNotices(-1)).rejects.toMatchObject({ field: 'dueBefore' });
      });
    });

    describe('saved cards', () => {
      const card = { customerId: 'cus-1', ccToken: 'tok-visa', ccMask: '424242******4242', brand: 'visa', tokenExpiration: '2031-12-31T00:00:00' };

      it('saves, lists, finds and deletes a customer’s cards', async () => {
        const visa = await ledger.saveCard(card);
        clock.advance(1000);
        const master = await ledger.saveCard({ ...card, ccToken: 'tok-mc', ccMask: '545454******5454', brand: 'mastercard' });
        await ledger.saveCard({ ...card, customerId: 'cus-2', ccToken: 'tok-other' });
        expect(await ledger.listCards('cus-1')).toEqual([master, visa]);
        expect(await ledger.findCard('cus-1', visa.id)).toEqual(visa);
        expect(await ledger.findCard('cus-1', 'tok-mc')).toEqual(master);
        expect(await ledger.findCard('cus-2', visa.id)).toBeUndefined();
        await expect(ledger.deleteCard('cus-2', visa.id)).rejects.toBeInstanceOf(LedgerNotFound);
        await ledger.deleteCard('cus-1', visa.id);
        expect(await ledger.listCards('cus-1')).toEqual([master]);
      });

      it('saving a known token refreshes that card instead of adding another', async () => {
        const first = await ledger.saveCard(card);
        clock.advance(1000);
        const again = await ledger.saveCard({ ...card, tokenExpiration: '2032-01-31T00:00:00' });
        expect(again).toEqual({ ...first, tokenExpiration: '2032-01-31T00:00:00', lastUsedAt: clock.now });
        expect(await ledger.listCards('cus-1')).toHaveLength(1);
      });

      it('refreshes a saved card its payment paid with while it is saved, and never saves one deleted meanwhile', async () => {
        const visa = await ledger.saveCard(card);
        const paying = await claimedPayment(ledger, { customerId: 'cus-1' });
        await ledger.markSavedCardPayment(paying.orderId);
        clock.advance(1000);
        const renewed = { ...card, tokenExpiration: '2032-01-31T00:00:00' };
        expect(await ledger.savePaymentCard(paying, renewed)).toEqual({ ...visa, tokenExpiration: '2032-01-31T00:00:00', lastUsedAt: clock.now });
        // Deleted during the next payment's 3-D Secure: its success keeps nothing.
        const challenged = await claimedPayment(ledger, { customerId: 'cus-1' });
        await ledger.markSavedCardPayment(challenged.orderId);
        await ledger.markSavedCardPayment(challenged.orderId);
        await ledger.deleteCard('cus-1', visa.id);
        expect(await ledger.savePaymentCard(challenged, card)).toBeUndefined();
        expect(await ledger.listCards('cus-1')).toEqual([]);
        // Typed in again and paid: the customer's card once more.
        const typed = await claimedPayment(ledger, { customerId: 'cus-1' });
        expect(await ledger.savePaymentCard(typed, card)).toMatchObject({ customerId: 'cus-1', ccToken: 'tok-visa' });
        expect(await ledger.listCards('cus-1')).toHaveLength(1);
      });

      it('knows a card’s holder from its latest payment, what it lacks from the customer’s latest', async () => {
        const olena = { fname: 'Olena', lname: 'Koval', email: 'olena@example.com', phone: '+380501234567' };
        expect(await ledger.cardholderOf('cus-1', 'tok-visa')).toBeUndefined();
        await paidOrder(ledger, { customerId: 'cus-1', customer: { ...olena, ip: '203.0.113.9' } }, { ccToken: 'tok-visa' });
        // Declined, and what it carried is nobody's known details.
        await ledger.advancePayment((await claimedPayment(ledger, { customerId: 'cus-1', customer: { fname: 'Someone', lname: 'Else' } })).orderId, { status: 'failure', statusCode: '4009' });
        clock.advance(1000);
        // Another card, paid with no details here (on a hosted page the customer types them at the gateway).
        await paidOrder(ledger, { customerId: 'cus-1' }, { ccToken: 'tok-mc' });
        clock.advance(1000);
        await paidOrder(ledger, { customerId: 'cus-1', customer: { email: 'o.koval@example.com' } }, { ccToken: 'tok-amex' });
        expect(await ledger.cardholderOf('cus-1', 'tok-visa')).toEqual({ ...olena, ip: '203.0.113.9' });
        expect(await ledger.cardholderOf('cus-1', 'tok-mc')).toEqual({ ...olena, email: 'o.koval@example.com' });
        expect(await ledger.cardholderOf('cus-1', 'tok-amex')).toEqual({ ...olena, email: 'o.koval@example.com' });
        expect(await ledger.cardholderOf('cus-2', 'tok-visa')).toBeUndefined();
      });

      it('refuses anything that looks like a card number', async () => {
        await expect(ledger.saveCard({ ...card, ccMask: '4242424242424242' })).rejects.toMatchObject({ field: 'ccMask', reason: 'must be masked' });
        await expect(ledger.saveCard({ ...card, cvv: '123' } as never)).rejects.toBeInstanceOf(InvalidLedgerInput);
        await expect(ledger.saveCard({ ...card, customerId: '' })).rejects.toMatchObject({ field: 'customerId' });
        expect(await ledger.listCards('cus-1')).toEqual([]);
      });
    });

    describe('back office and reconciliation reads', () => {
      it('lists the payments held for a discrepancy alone, newest first, paged', async () => {
        await paidOrder(ledger);
        clock.advance(1000);
        const short = await claimedPayment(ledger);
        await ledger.advancePayment(short.orderId, { status: 'success', amount: short.amount, paidAmount: 1, paidCurrency: short.currency });
        clock.advance(1000);
        await paidOrder(ledger);
        clock.advance(1000);
        const refunded = await paidOrder(ledger);
        await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId: refunded.orderId, operationId: 'op-held', amount: refunded.amount * 2, statusCode: '1004' }));
        const held = await ledger.listOrders({ held: true });
        expect(held).toMatchObject({ orders: [{ orderId: refunded.orderId, discrepancy: { refunded: refunded.amount * 2 } }, { orderId: short.orderId, discrepancy: { paidAmount: 1 } }], nextCursor: null });
        const first = await ledger.listOrders({ held: true, limit: 1 });
        expect(first.orders.map((order) => order.orderId)).toEqual([refunded.orderId]);
        expect((await ledger.listOrders({ held: true, limit: 1, cursor: first.nextCursor! })).orders.map((order) => order.orderId)).toEqual([short.orderId]);
        expect((await ledger.listOrders({ held: true, status: 'success' })).orders.map((order) => order.orderId)).toEqual([refunded.orderId]);
        expect((await ledger.listOrders()).orders).toHaveLength(4);
      });

      it('settles a held order as read: it leaves the held list until the gateway reports again', async () => {
        const short = await claimedPayment(ledger);
        await ledger.advancePayment(short.orderId, { status: 'success', amount: short.amount, paidAmount: 1, paidCurrency: short.currency });
        const plain = await paidOrder(ledger);
        // Paid short, it stays `init`, but waits for a person, not the gateway: no unfinished payment.
        expect(await ledger.backlog()).toMatchObject({ heldPayments: 1, unfinishedPayments: 0, oldestUnfinishedPaymentAt: undefined });

        expect(await ledger.settleDiscrepancy('no-such-order', { note: 'refunded', version: 1 })).toBeUndefined();
        await expect(ledger.settleDiscrepancy(plain.orderId, { note: 'refunded', version: 1 })).rejects.toMatchObject({ reason: 'no_discrepancy' });
        await expect(ledger.settleDiscrepancy(short.orderId, { note: 'refunded', version: 2 })).rejects.toMatchObject({ reason: 'discrepancy_changed' });
        await expect(ledger.settleDiscrepancy(short.orderId, { note: '  ', version: 1 })).rejects.toMatchObject({ field: 'note' });
        await expect(ledger.settleDiscrepancy(short.orderId, { note: 'x'.repeat(501), version: 1 })).rejects.toBeInstanceOf(InvalidLedgerInput);
        expect((await ledger.getPayment(short.orderId))?.discrepancy?.settled).toBeUndefined();

        clock.advance(1000);
        // Called directly (a mounted host's code), a card number in the note is masked as the API masks it.
        const settled = await ledger.settleDiscrepancy(short.orderId, { note: ' Refunded the 0.01 paid in the portal to 4111 1111 1111 1111 ', version: 1 });
        expect(settled).toMatchObject({ status: 'init', discrepancy: { paidAmount: 1, settled: { note: 'Refunded the 0.01 paid in the portal to [card number]', version: 1, settledAt: clock.now } } });
        expect((await ledger.listOrders({ held: true })).orders).toEqual([]);
        expect(await ledger.backlog()).toMatchObject({ heldPayments: 0 });
        await expect(ledger.settleDiscrepancy(short.orderId, { note: 'again', version: 1 })).rejects.toMatchObject({ reason: 'discrepancy_settled' });
        // The books are as they were: the mark is a person's, not the gateway's word.
        expect(await ledger.getPayment(short.orderId)).toMatchObject({ status: 'init', finalizedAt: null });

        // A further report is one nobody settled: held again, the settlement kept.
        clock.advance(1000);
        await ledger.advancePayment(short.orderId, { status: 'success', amount: short.amount, paidAmount: 2, paidCurrency: short.currency });
        const reopened = (await ledger.getPayment(short.orderId))?.discrepancy;
        expect(reopened).toMatchObject({ later: [{ paidAmount: 2 }], settledBefore: [{ version: 1 }] });
        expect(reopened?.settled).toBeUndefined();
        expect((await ledger.listOrders({ held: true })).orders.map((order) => order.orderId)).toEqual([short.orderId]);
        expect(await ledger.backlog()).toMatchObject({ heldPayments: 1 });
        expect(await ledger.settleDiscrepancy(short.orderId, { note: 'Both refunded', version: 2 })).toMatchObject({ discrepancy: { settled: { version: 2 }, settledBefore: [{ version: 1 }] } });
        // A repeat of a report kept is no news, and leaves it settled.
        await ledger.advancePayment(short.orderId, { status: 'success', amount: short.amount, paidAmount: 2, paidCurrency: short.currency });
        expect((await ledger.listOrders({ held: true })).orders).toEqual([]);
      });

      it('pages orders newest first with a stable cursor and filters by status', async () => {
        const created: string[] = [];
        for (let i = 0; i < 7; i++) {
          const payment = i % 2 ? await paidOrder(ledger) : await claimedPayment(ledger);
          created.push(payment.orderId);
          clock.advance(i === 3 || i === 4 ? 0 : 1000); // three orders (two of them paid) share a timestamp
        }
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await ledger.listOrders({ limit: 3, ...(cursor ? { cursor } : {}) });
          pages.push(page.orders.map((order) => order.orderId));
          cursor = page.nextCursor ?? undefined;
          if (pages.length === 1) await paidOrder(ledger); // a new order must not shift later pages
        } while (cursor);
        expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
        const listed = pages.flat();
        expect(new Set(listed)).toEqual(new Set(created));
        // Newest first; same-millisecond orders by order id, descending.
        const createdAt = new Map<string, number>();
        for (const id of created) createdAt.set(id, (await ledger.getPayment(id))!.createdAt);
        const newestFirst = (ids: readonly string[]) =>
          [...ids].sort((a, b) => createdAt.get(b)! - createdAt.get(a)! || (a < b ? 1 : a > b ? -1 : 0));
        expect(listed).toEqual(newestFirst(created));
        // The status filter pages with the same cursor, the tie included.
        const paidPages: string[][] = [];
        let paidCursor: string | undefined;
        do {
          const page = await ledger.listOrders({ status: 'success', limit: 2, ...(paidCursor ? { cursor: paidCursor } : {}) });
          expect(page.orders.every((order) => order.status === 'success')).toBe(true);
          paidPages.push(page.orders.map((order) => order.orderId));
          paidCursor = page.nextCursor ?? undefined;
        } while (paidCursor);
        const paidBefore = created.filter((_, i) => i % 2 === 1);
        // Leaving out the order paid while the first listing was paged (the newest).
        expect(paidPages.flat().filter((id) => created.includes(id))).toEqual(newestFirst(paidBefore));
        expect((await ledger.listOrders({ status: 'success' })).orders).toHaveLength(4);
        await expect(ledger.listOrders({ cursor: 'garbage' })).rejects.toMatchObject({ field: 'cursor' });
        // Shaped like a cursor, but with a character no text column holds (PostgreSQL refuses NUL).
        const forged = Buffer.from(`${clock.now}:order\u0000`).toString('base64url');
        await expect(ledger.listOrders({ cursor: forged })).rejects.toMatchObject({ field: 'cursor' });
        await expect(ledger.listEvents({ outcome: 'unmatched', cursor: forged })).rejects.toMatchObject({ field: 'cursor' });
        await expect(ledger.listOrders({ limit: 0 })).rejects.toMatchObject({ field: 'limit' });
        // One session's attempts alone.
        const paid = await ledger.getPayment(created[1]!);
        expect((await ledger.listOrders({ sessionId: paid!.sessionId })).orders.map((order) => order.orderId)).toEqual([paid!.orderId]);
        expect((await ledger.listOrders({ sessionId: 'no-such-session' })).orders).toEqual([]);
        await expect(ledger.listOrders({ sessionId: '' })).rejects.toMatchObject({ field: 'sessionId' });
      });

      it('finds orders by what a customer says on the phone: e-mail, card last four, amount, dates', async () => {
        const start = clock.now;
        const olena = { email: 'Olena.K@Example.com' };
        const first = await paidOrder(ledger, { customer: olena, amount: 2550 }, { ccMask: '424242******4242' });
        clock.advance(HOUR);
        const second = await paidOrder(ledger, { customer: olena, amount: 990, currency: 'EUR' }, { ccMask: '555555******1234' });
        clock.advance(HOUR);
        const other = await paidOrder(ledger, { customer: { email: 'taras@example.com' }, amount: 2550 }, { ccMask: '400000******4242' });
        clock.advance(HOUR);
        const anonymous = await claimedPayment(ledger, { amount: 2550 });
        const ids = (page: { orders: readonly Payment[] }) => page.orders.map((order) => order.orderId);
        const search = (query: Parameters<Ledger['listOrders']>[0]) => ledger.listOrders(query);

        // The e-mail whole, whatever its case; never a part of it.
        expect(ids(await search({ email: 'olena.k@example.COM' }))).toEqual([second.orderId, first.orderId]);
        expect(ids(await search({ email: 'k@example.com' }))).toEqual([]);
        expect(ids(await search({ cardLastFour: '4242' }))).toEqual([other.orderId, first.orderId]);
        expect(ids(await search({ amount: 2550 }))).toEqual([anonymous.orderId, other.orderId, first.orderId]);
        expect(ids(await search({ amount: 990, currency: 'EUR' }))).toEqual([second.orderId]);
        expect(ids(await search({ amount: 990, currency: 'XTS' }))).toEqual([]);
        // A currency alone: its orders, every amount.
        expect(ids(await search({ currency: 'EUR' }))).toEqual([second.orderId]);
        expect(ids(await search({ currency: 'XTS' }))).toEqual([anonymous.orderId, other.orderId, first.orderId]);
        expect(ids(await search({ currency: 'XTS', limit: 1, cursor: (await search({ currency: 'XTS', limit: 1 })).nextCursor! }))).toEqual([other.orderId]);
        expect(ids(await search({ createdFrom: start + HOUR, createdTo: start + 3 * HOUR }))).toEqual([other.orderId, second.orderId]);
        // Combined with each other, the existing filters and the cursor.
        expect(ids(await search({ email: olena.email, cardLastFour: '4242' }))).toEqual([first.orderId]);
        expect(ids(await search({ amount: 2550, status: 'success', createdTo: start + 3 * HOUR }))).toEqual([other.orderId, first.orderId]);
        const page = await search({ amount: 2550, limit: 2 });
        expect(ids(page)).toEqual([anonymous.orderId, other.orderId]);
        expect(ids(await search({ amount: 2550, limit: 2, cursor: page.nextCursor! }))).toEqual([first.orderId]);

        // Bad values name the field; nothing else is read.
        await expect(search({ email: 'olena' })).rejects.toMatchObject({ field: 'email' });
        await expect(search({ cardLastFour: '42' })).rejects.toMatchObject({ field: 'cardLastFour' });
        await expect(search({ cardLastFour: '4%42' })).rejects.toMatchObject({ field: 'cardLastFour' });
        await expect(search({ cardLastFour: '4242424242424242' })).rejects.toMatchObject({ field: 'cardLastFour' });
        await expect(search({ amount: 25.5 })).rejects.toMatchObject({ field: 'amount' });
        await expect(search({ currency: 'eur' })).rejects.toMatchObject({ field: 'currency' });
        await expect(search({ createdFrom: start, createdTo: start })).rejects.toMatchObject({ field: 'createdTo' });
      });

      it('shows an order with its operations, events and totals', async () => {
        const { orderId } = await paidOrder(ledger);
        const refund = await ledger.reserveOperation(orderId, { kind: 'refund', amount: 100 });
        await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId }));
        const detail = await ledger.getOrder(orderId);
        expect(detail).toMatchObject({
          payment: { orderId, status: 'success' },
          operations: [refund],
          events: [{ method: 'purchase', outcome: 'applied' }],
          totals: { refundPending: 100, refundable: 900, captured: 0, voided: false },
        });
        expect(await ledger.getOrder('nope')).toBeUndefined();
      });

      it('gives a page of orders their totals, each as its detail has them', async () => {
        const plain = await paidOrder(ledger);
        const refunded = await paidOrder(ledger);
        await ledger.settleOperation((await ledger.reserveOperation(refunded.orderId, { kind: 'refund', amount: 300 })).id, { status: 'success' });
        const voided = await paidOrder(ledger, { method: 'auth' });
        await ledger.settleOperation((await ledger.reserveOperation(voided.orderId, { kind: 'void' })).id, { status: 'success' });
        const captured = await paidOrder(ledger, { method: 'auth' });
        await ledger.reserveOperation(captured.orderId, { kind: 'capture', amount: 605 });
        const held = await paidOrder(ledger, { method: 'auth' });
        const unpaid = await claimedPayment(ledger);
        const page = await ledger.listOrders();
        const totals = await ledger.totalsOfOrders(page.orders, 10);
        expect([...totals.keys()].sort()).toEqual([plain, refunded, voided, captured, held, unpaid].map((payment) => payment.orderId).sort());
        for (const { orderId } of page.orders) {
          const detail = (await ledger.getOrder(orderId))!.totals;
          expect(totals.get(orderId)).toEqual({ ...detail, capturable: await ledger.capturableAmount(orderId, 10) });
        }
        expect(totals.get(refunded.orderId)).toMatchObject({ refunded: 300, refundable: 700 });
        expect(totals.get(voided.orderId)).toMatchObject({ voided: true, capturable: 0 });
        expect(totals.get(captured.orderId)).toMatchObject({ capturePending: 605, captured: 0 });
        expect(totals.get(held.orderId)).toMatchObject({ capturable: 1100 });
        expect(await ledger.totalsOfOrders([])).toEqual(new Map());
        await expect(ledger.totalsOfOrders(page.orders, -1)).rejects.toBeInstanceOf(InvalidLedgerInput);
      });

      it('marks an unmatched event reviewed: it stops waiting, and only an unmatched one can be', async () => {
        const stray = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: 'elsewhere-reviewed', amount: 100, currency: 'XTS' }));
        const other = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: 'elsewhere-other', amount: 200, currency: 'XTS' }));
        expect(await ledger.backlog()).toMatchObject({ unmatchedEvents: 2 });
        clock.advance(MINUTE);
        expect(await ledger.reviewEvent(stray.event.id)).toMatchObject({ id: stray.event.id, outcome: 'unmatched', appliedAt: null, reviewedAt: clock.now });
        // Gone from the list, the retries and the gauge; kept as it came. Marked again, nothing changes.
        expect((await ledger.listEvents({ outcome: 'unmatched' })).events.map((event) => event.id)).toEqual([other.event.id]);
        expect((await ledger.listWaitingEvents({ quietForMs: 0 })).map((event) => event.id)).toEqual([other.event.id]);
        expect(await ledger.backlog()).toMatchObject({ unmatchedEvents: 1 });
        const reviewedAt = clock.now;
        clock.advance(MINUTE);
        expect(await ledger.reviewEvent(stray.event.id)).toMatchObject({ reviewedAt });
        // Only an unmatched event: not one applied, nor one parked for its reservation (which settles it).
        const { orderId } = await paidOrder(ledger);
        const applied = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId, amount: 1000, currency: 'XTS' }));
        await expect(ledger.reviewEvent(applied.event.id)).rejects.toMatchObject({ reason: 'event_not_unmatched' });
        await ledger.reserveOperation(orderId, { kind: 'refund', amount: 300 });
        const parked = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId, operationId: 'op-parked', amount: 300, currency: 'XTS' }));
        await expect(ledger.reviewEvent(parked.event.id)).rejects.toMatchObject({ reason: 'event_not_unmatched' });
        expect(await ledger.reviewEvent('no-such-event')).toBeUndefined();
        // The order turns up after all (a payment restored from a backup): a re-delivery applies it.
        await claimedPayment(ledger, { orderId: 'elsewhere-reviewed', amount: 100 });
        expect(await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: 'elsewhere-reviewed', amount: 100, currency: 'XTS' }))).toMatchObject({ advanced: true, event: { outcome: 'applied' } });
      });

      it('lists the events that apply to nothing, newest first, paged like the orders', async () => {
        const { orderId: paid } = await paidOrder(ledger);
        await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: paid, amount: 1000, currency: 'XTS' }));
        const op = await ledger.reserveOperation(paid, { kind: 'refund', amount: 300 });
        const parked = await ledger.ingestEvent(gatewayEvent({ method: 'refund', status: 'success', orderId: paid, operationId: 'op-parked', amount: 300, currency: 'XTS' }));
        const strays: string[] = [];
        for (let i = 0; i < 5; i++) {
          const stray = await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: `elsewhere-${i}`, amount: 100 + i, currency: 'XTS', paymentId: `pay-${i}` }));
          strays.push(stray.event.id);
          clock.advance(i === 2 ? 0 : 1000); // two events share a timestamp
        }
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await ledger.listEvents({ outcome: 'unmatched', limit: 2, ...(cursor ? { cursor } : {}) });
          pages.push(page.events.map((event) => event.id));
          cursor = page.nextCursor ?? undefined;
          // A newer stray must not shift the later pages. (Its amount names no currency: not an amount to show.)
          if (pages.length === 1) await ledger.ingestEvent(gatewayEvent({ method: 'purchase', status: 'success', orderId: 'elsewhere-late', amount: 1000 }));
        } while (cursor);
        expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
        expect(new Set(pages.flat())).toEqual(new Set(strays));
        // Same-millisecond events come by id (descending); compare as sets at that spot.
        const expected = [...strays].reverse();
        expect(pages.flat().filter((id, i) => id === expected[i]).length).toBeGreaterThanOrEqual(3);

        const [newest] = (await ledger.listEvents({ outcome: 'unmatched', limit: 1 })).events;
        expect(newest).toMatchObject({ orderId: 'elsewhere-late', outcome: 'unmatched', appliedAt: null, amount: null, currency: null });
        const listed = (await ledger.listEvents({ outcome: 'unmatched' })).events;
        expect(listed.find((event) => event.orderId === 'elsewhere-4')).toMatchObject({
          method: 'purchase', status: 'success', paymentId: 'pay-4', amount: 104, currency: 'XTS', receivedAt: expect.any(Number), triedAt: expect.any(Number),
        });
        expect(listed.map((event) => event.orderId)).not.toContain(paid);
        expect((await ledger.listEvents({ outcome: 'parked' })).events).toMatchObject([{ id: parked.event.id, orderId: paid, operationId: 'op-parked', amount: 300 }]);

        // Once they apply, they leave the lists.
        await ledger.settleOperation(op.id, { status: 'pending', operationId: 'op-parked' });
        expect((await ledger.listEvents({ outcome: 'parked' })).events).toEqual([]);
        await claimedPayment(ledger, { orderId: 'elsewhere-late' });
        await ledger.retryEvent(newest!.id);
        expect((await ledger.listEvents({ outcome: 'unmatched' })).events.map((event) => event.id)).toEqual(expected);

        await expect(ledger.listEvents({ outcome: 'applied' as 'parked' })).rejects.toMatchObject({ field: 'outcome' });
        await expect(ledger.listEvents({ outcome: 'unmatched', limit: 201 })).rejects.toMatchObject({ field: 'limit' });
        await expect(ledger.listEvents({ outcome: 'unmatched', cursor: 'garbage' })).rejects.toMatchObject({ field: 'cursor' });
      });

      it('counts payments per hour and per local day for the chart', async () => {
        const start = Date.UTC(2030, 0, 15, 22, 0);
        clock.now = start + 10 * MINUTE;
        await paidOrder(ledger);
        await paidOrder(ledger);
        const declined = await claimedPayment(ledger);
        await ledger.advancePayment(declined.orderId, { status: 'failure', statusCode: '1002' });
        // Not the customer's: the gateway never decided it (no code), or it waits to be sent again.
        const unsent = await claimedPayment(ledger);
        await ledger.advancePayment(unsent.orderId, { status: 'failure', statusDescription: 'Not sent: the gateway could not be reached' });
        const absent = await claimedPayment(ledger, { orderId: 'stats-absent' });
        for (let read = 0; read < 2; read++) await ledger.countAbsentPayment(absent.orderId, { readAt: clock.now, reads: 2, spacingMs: 0 });
        expect(await ledger.getPayment(absent.orderId)).toMatchObject({ status: 'init', unsentAt: clock.now });
        // Nor is an unpaid hosted payment cancelled (abandoned): no decline of the customer's.
        const abandoned = await claimedPayment(ledger);
        await ledger.advancePayment(abandoned.orderId, { status: 'failure', statusCode: '6007', statusDescription: 'Payment cancelled' });
        // Nor one the gateway let expire unpaid (its order_timeout, the session's end).
        const expired = await claimedPayment(ledger);
        await ledger.advancePayment(expired.orderId, { status: 'failure', statusCode: '4149', statusDescription: 'Session expired' });
        clock.now = start + 2 * HOUR + 5 * MINUTE; // 00:05 UTC on the 16th
        await claimedPayment(ledger);
        const hours = await ledger.paymentStats({ from: start, to: start + 3 * HOUR, bucket: 'hour' });
        expect(hours).toEqual([
          { start, total: 7, succeeded: 2, failed: 1, inFlight: 0, notSent: 2, cancelled: 2 },
          { start: start + HOUR, total: 0, succeeded: 0, failed: 0, inFlight: 0, notSent: 0, cancelled: 0 },
          { start: start + 2 * HOUR, total: 1, succeeded: 0, failed: 0, inFlight: 1, notSent: 0, cancelled: 0 },
        ]);
        // In UTC+3 everything happened on the 16th.
        const days = await ledger.paymentStats({ from: start - 22 * HOUR, to: start + 26 * HOUR, bucket: 'day', utcOffsetMinutes: 180 });
        expect(days.map((day) => day.total)).toEqual([0, 8, 0]);
        expect(days[1]!.start).toBe(Date.UTC(2030, 0, 15, 21, 0));
        await expect(ledger.paymentStats({ from: 10, to: 5, bucket: 'hour' })).rejects.toMatchObject({ field: 'to' });
        await expect(ledger.paymentStats({ from: 0, to: start, bucket: 'hour' })).rejects.toMatchObject({ field: 'to' });
      });

      it('lists pending payments that went quiet; a check sets them aside for a while', async () => {
        const quiet = await claimedPayment(ledger);
        const busy = await claimedPayment(ledger);
        await paidOrder(ledger);
        clock.advance(5 * MINUTE);
        await ledger.advancePayment(busy.orderId, { status: 'pending' });
        expect((await ledger.listStalePayments({ quietForMs: 5 * MINUTE })).map((p) => p.orderId)).toEqual([quiet.orderId]);
        await ledger.markPaymentChecked(quiet.orderId);
        expect(await ledger.listStalePayments({ quietForMs: 5 * MINUTE })).toEqual([]);
        clock.advance(5 * MINUTE);
        expect((await ledger.listStalePayments({ quietForMs: 5 * MINUTE })).map((p) => p.orderId).sort()).toEqual([quiet.orderId, busy.orderId].sort());
        await expect(ledger.markPaymentChecked('nope')).rejects.toBeInstanceOf(LedgerNotFound);
        await expect(ledger.listStalePayments({ quietForMs: -1 })).rejects.toBeInstanceOf(InvalidLedgerInput);
      });
    });
  });
}
