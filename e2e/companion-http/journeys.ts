/**
 * The companion's journeys spoken only over HTTP, as a merchant's server and a customer's browser
 * speak to it: no ledger, no hook, no process shared with the test. One suite, two targets:
 * the stack `npm start` runs, started from the sources (npm-start.test.ts), and the packaged
 * `payform-companion` against the packaged `payform-sandbox`, installed from their tarballs
 * (e2e/packages/companion-journeys.test.ts). Both must pass the same tests.
 */
import { describe, expect, it, vi } from 'vitest';
import { card, CUSTOMER, FINGERPRINT, payOnHostedPage } from '../../server/companion/test/cards.js';

export interface CompanionTarget {
  /** The companion's public URL (the one its redirects name). */
  readonly companionUrl: string;
  /** The sandbox gateway the companion talks to, on a loopback address (its control plane answers only there). */
  readonly sandboxUrl: string;
  /** The merchant API's bearer token. */
  readonly adminToken: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, checked field by field
type Json = Record<string, any>;

const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };

/** What the widget sends for a card payment. */
const payBody = (overrides: Json = {}): Json => ({ card: card(), customer: CUSTOMER, fingerprint: FINGERPRINT, ...overrides });

/** Waits until `check` stops throwing: webhooks arrive asynchronously over HTTP. */
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

/** Declares the journeys; `target` is read when a test runs (the caller's beforeAll starts it). */
export function describeCompanionJourneys(name: string, target: () => CompanionTarget): void {
  describe(`companion journeys over HTTP: ${name}`, () => {
    const call = async (method: string, path: string, status: number, options: { admin?: boolean; body?: unknown } = {}): Promise<Json> => {
      const { companionUrl, adminToken } = target();
      const response = await fetch(`${companionUrl}${path}`, {
        method,
        headers: {
          ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(options.admin ? { Authorization: `Bearer ${adminToken}` } : {}),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
      const text = await response.text();
      expect(response.status, `${method} ${path}: ${text}`).toBe(status);
      return text ? JSON.parse(text) : {};
    };
    const openSession = (overrides: Json = {}) =>
      call('POST', '/api/checkout/sessions', 201, { admin: true, body: { amount: 24950, currency: 'UAH', description: 'Order', method: 'purchase', ...overrides } });
    const pay = (sessionId: string, body: Json = payBody()) => call('POST', `/api/checkout/sessions/${sessionId}/pay`, 200, { body });
    const order = (orderId: string) => call('GET', `/api/orders/${encodeURIComponent(orderId)}`, 200, { admin: true });
    const operate = (orderId: string, action: string, body: Json = {}) => call('POST', `/api/orders/${encodeURIComponent(orderId)}/${action}`, 200, { admin: true, body });
    /** The sandbox's control plane: JSON only, loopback Host only. */
    const control = async (method: string, path: string, body?: unknown): Promise<Json> => {
      const response = await fetch(`${target().sandboxUrl}${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
      });
      const text = await response.text();
      expect(response.ok, `${method} ${path}: ${text}`).toBe(true);
      return JSON.parse(text);
    };
    /** The gateway's webhook for the payment reached the companion's ledger. */
    const settled = (orderId: string, status: string) =>
      eventually(async () => {
        const detail = await order(orderId);
        expect(detail.order.status).toBe(status);
        expect(detail.events.some((event: Json) => event.status === status)).toBe(true);
        return detail;
      });

    it('serves its OpenAPI document', async () => {
      const document = await call('GET', '/api/openapi.json', 200);
      expect(document.openapi).toMatch(/^3\.1/);
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/checkout/sessions', '/api/orders/{order_id}']));
    });

    it('direct success: the answer, then the webhook in the order', async () => {
      const session = await openSession();
      expect(session).toMatchObject({ id: expect.any(String), order_id: expect.any(String) });
      expect(await pay(session.id)).toMatchObject({ status: 'success', order_id: session.order_id });
      const detail = await settled(session.order_id, 'success');
      expect(detail.order).toMatchObject({ amount: 24950, currency: 'UAH', card: { mask: '424242******4242' } });
      expect((await call('GET', `/api/checkout/sessions/${session.id}`, 200)).status).toBe('success');
    });

    it('a decline, then a retry with another card under a new order id', async () => {
      const session = await openSession();
      expect(await pay(session.id, payBody({ card: card('rejected') }))).toMatchObject({ status: 'failure', message: expect.any(String) });
      expect(await pay(session.id)).toMatchObject({ status: 'success', order_id: `${session.order_id}:2` });
    });

    it('3-D Secure passed and failed, decided through the sandbox’s control plane', async () => {
      const passed = await openSession();
      const challenge = await pay(passed.id, payBody({ card: card('three_ds_challenge') }));
      expect(challenge).toMatchObject({ status: 'redirect', payment_id: expect.any(String) });
      expect(new URL(challenge.redirect_url).origin).toBe(new URL(target().sandboxUrl).origin);
      await control('POST', `/_sandbox/3ds/${challenge.payment_id}`, { result: 'success' });
      await settled(passed.order_id, 'success');

      const failed = await openSession();
      const second = await pay(failed.id, payBody({ card: card('three_ds_challenge') }));
      await control('POST', `/_sandbox/3ds/${second.payment_id}`, { result: 'failure' });
      await settled(failed.order_id, 'failure');
      expect((await call('GET', `/api/checkout/sessions/${failed.id}`, 200)).status).toBe('failure');
    });

    it('hosted: the customer pays on the gateway’s page and comes back to the shop', async () => {
      const session = await openSession({ customer: CONTACT, return_url: 'https://shop.example/thanks' });
      const { redirect_url: page } = await call('POST', `/api/checkout/sessions/${session.id}/hosted`, 200, { body: {} });
      expect((await fetch(page)).status).toBe(200);
      const submitted = await payOnHostedPage(page);
      expect(submitted.headers.get('location')).toBe(`${target().companionUrl}/checkout/return/${session.id}`);
      const back = await fetch(submitted.headers.get('location')!, { redirect: 'manual' });
      const shop = new URL(back.headers.get('location')!);
      expect(shop.origin + shop.pathname).toBe('https://shop.example/thanks');
      expect(shop.searchParams.get('status')).toBe('success');
      await settled(session.order_id, 'success');
    });

    it('an authorisation captured and refunded; another voided', async () => {
      const auth = await openSession({ method: 'auth' });
      await pay(auth.id);
      await settled(auth.order_id, 'success');
      expect((await operate(auth.order_id, 'capture', { amount: 20000 })).operation.status).toBe('success');
      expect((await operate(auth.order_id, 'refund', { amount: 5000 })).totals).toMatchObject({ refunded: 5000, refundable: 15000 });

      const voided = await openSession({ method: 'auth' });
      await pay(voided.id);
      await settled(voided.order_id, 'success');
      expect((await operate(voided.order_id, 'void')).operation.status).toBe('success');
      // Every operation's webhook reaches the order too.
      await eventually(async () => expect((await order(auth.order_id)).events.length).toBeGreaterThanOrEqual(3));
    });

    it('a saved card pays the customer’s next order', async () => {
      const customerId = `journey-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      const first = await openSession({ customer_id: customerId });
      await pay(first.id);
      const next = await openSession({ customer_id: customerId });
      const view = await call('GET', `/api/checkout/sessions/${next.id}`, 200);
      expect(view.saved_cards).toEqual([expect.objectContaining({ token: expect.any(String), mask: expect.stringContaining('4242') })]);
      expect(await pay(next.id, payBody({ card: { token: view.saved_cards[0].token } }))).toMatchObject({ status: 'success' });
    });

    it('receipts: one order’s as PDF, a day’s as ZIP', async () => {
      const session = await openSession();
      await pay(session.id);
      await settled(session.order_id, 'success');
      const { companionUrl, adminToken } = target();
      const authorization = { Authorization: `Bearer ${adminToken}` };
      const receipt = await fetch(`${companionUrl}/api/orders/${session.order_id}/receipt?format=pdf`, { headers: authorization });
      expect(receipt.status).toBe(200);
      expect(receipt.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await receipt.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
      const day = await fetch(`${companionUrl}/api/receipts/${new Date().toISOString().slice(0, 10)}`, { headers: authorization });
      expect(day.status).toBe(200);
      expect(day.headers.get('content-type')).toBe('application/zip');
    });

    it('the merchant API refuses a wrong token', async () => {
      const response = await fetch(`${target().companionUrl}/api/checkout/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer not-the-token-0123456789' },
        body: JSON.stringify({ amount: 1, currency: 'UAH', description: 'Order' }),
      });
      expect(response.status).toBe(401);
    });
  });
}
