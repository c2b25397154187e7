/**
 * PostgreSQL gone for 20 seconds under traffic (issue 19, findings 7 and 8). Customers, the
 * merchant's server and the gateway's webhooks keep coming while the database is cut (a proxy in
 * front of the shared server, so nobody else loses theirs). Throughout, the companion answers
 * 503 with Retry-After — never a 500, never a hang —, logs the outage once with a count instead
 * of a stack per request, and comes back by itself: ready again, every webhook the gateway
 * retried applied. A customer whose gateway answer came back while the database was away is
 * answered from it at once: sent to the bank, or told the payment is pending; a refund the
 * gateway made then is pending too, never to be sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card } from '../../server/companion/test/cards.js';
import { createStack, eventually, payBody } from '../../server/companion/test/stack.js';
import type { Json, Stack } from '../../server/companion/test/stack.js';
import { withTestDatabase } from '../../server/ledger/testing/databases.js';
import { cuttableProxy } from './support/cuttable-proxy.js';
import type { CuttableProxy } from './support/cuttable-proxy.js';
import { postgresSchemaBackend } from './support/stored-state.js';

const OUTAGE_MS = 20_000;
/** Longer than any answer may take: a request still open then is a hang. */
const HANG_MS = 10_000;
/** The sandbox's slow card is paid by webhook this long after its payment: inside the outage. */
const SLOW_CARD_MS = 2_000;
const METRICS_TOKEN = 'outage-metrics-token-0123456789';

interface Answer {
  readonly what: string;
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: Json | undefined;
}

withTestDatabase((databaseUrl) => {
  let proxy: CuttableProxy;
  let stack: Stack;

  beforeAll(async () => {
    proxy = await cuttableProxy(databaseUrl);
    stack = await createStack({
      served: true,
      backend: postgresSchemaBackend(proxy.url),
      companion: { metricsToken: METRICS_TOKEN },
      sandbox: {
        // As a real gateway does, for longer than the outage.
        webhooks: { retryDelaysMs: [1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000], timeoutMs: 5_000, reorderHoldMs: 300 },
        timings: { slowCardDelayMs: SLOW_CARD_MS },
      },
    });
  });

  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await stack?.close();
    await proxy?.close();
  });

  async function send(what: string, method: string, path: string, options: { body?: unknown; admin?: boolean } = {}): Promise<Answer> {
    const response = await stack.request(method, path, options);
    const text = await response.text();
    return { what, status: response.status, retryAfter: response.headers.get('retry-after'), body: text ? (JSON.parse(text) as Json) : undefined };
  }

  /** Never longer than HANG_MS: a request that has not answered by then fails the test. */
  function bounded<T>(what: string, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${HANG_MS} ms`)), HANG_MS)));
    return Promise.race([work, hang]).finally(() => clearTimeout(timer));
  }

  describe('PostgreSQL stopped for 20 s under traffic', () => {
    it('answers 503 with Retry-After, logs it once, recovers by itself, loses no webhook, and answers a held gateway answer at once', async () => {
      const openSession = await stack.openSession();
      const viewed = await stack.openSession();
      // Paid by webhook while the database is away: the gateway must retry until it takes them.
      const slow = await Promise.all([1, 2, 3].map(async () => {
        const session = await stack.openSession();
        const answer = await stack.json('POST', `/api/checkout/sessions/${session.id}/pay`, 200, { body: payBody({ card: card('slow_pending') }) });
        expect(answer.status).toBe('pending');
        return session;
      }));

      // Two payers whose gateway answers come back once the database is gone: a 3-D Secure
      // challenge, and a payment the gateway took at once; and a refund the gateway made then.
      const challenged = await stack.openSession();
      const taken = await stack.openSession();
      const refunded = await stack.openSession();
      expect((await stack.json('POST', `/api/checkout/sessions/${refunded.id}/pay`, 200, { body: payBody() })).status).toBe('success');
      // Each of the three calls to the gateway (their paths start so) answered 3 s late.
      await stack.control('PUT', '/_sandbox/faults', { latency_ms: 3_000, phase: 'after', scope: { method: 'POST', path: '/api/v1/' }, times: 3 });
      const challengedPay = send('3-D Secure pay', 'POST', `/api/checkout/sessions/${challenged.id}/pay`, { body: payBody({ card: card('three_ds_challenge') }) });
      const takenPay = send('pay', 'POST', `/api/checkout/sessions/${taken.id}/pay`, { body: payBody() });
      const refund = send('refund', 'POST', `/api/orders/${refunded.order_id}/refund`, { admin: true, body: { amount: 3 } });
      await eventually(async () => {
        for (const session of [challenged, taken]) expect((await stack.ledger.getSession(session.id))?.status).toBe('processing');
        expect((await stack.ledger.getOrder(refunded.order_id))?.operations).toMatchObject([{ kind: 'refund', status: 'pending' }]);
      });

      const logsBefore = stack.logs.length;
      await proxy.cut();
      const cutAt = Date.now();
      const answers: Answer[] = [];
      let over = false;

      // Traffic for the whole outage: the widget, the merchant's server, a retry storm that
      // ignores Retry-After.
      const traffic = async (kind: number) => {
        while (!over) {
          const attempt =
            kind === 0
              ? send('session view', 'GET', `/api/checkout/sessions/${viewed.id}`)
              : kind === 1
                ? send('pay', 'POST', `/api/checkout/sessions/${openSession.id}/pay`, { body: payBody() })
                : kind === 2
                  ? send('create session', 'POST', '/api/checkout/sessions', { admin: true, body: { amount: 5, currency: 'UAH', description: 'Tea' } })
                  : send('orders', 'GET', '/api/orders', { admin: true });
          answers.push(await bounded('traffic', attempt));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const held = Promise.all([bounded('3-D Secure pay', challengedPay), bounded('pay', takenPay), bounded('refund', refund)]);
      const readiness = (async () => {
        const during = await send('readyz', 'GET', '/readyz');
        expect(during.status).toBe(503);
        expect(during.body).toEqual({ status: 'unavailable' });
        expect((await send('healthz', 'GET', '/healthz')).status).toBe(200);
      })();
      const loops = [0, 1, 2, 3].map(traffic);

      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      await readiness;
      await proxy.restore();
      const restoredAt = Date.now();
      over = true;
      await Promise.all(loops);

      // Back without a restart: ready, and taking payments.
      await eventually(async () => expect((await send('readyz', 'GET', '/readyz')).status).toBe(200), HANG_MS);
      const after = await stack.openSession();
      expect((await stack.json('POST', `/api/checkout/sessions/${after.id}/pay`, 200, { body: payBody() })).status).toBe('success');

      // Every answer during the outage: 503 with Retry-After and the envelope, or a real answer; never a 500.
      expect(answers.length).toBeGreaterThan(100);
      const refused = answers.filter((answer) => answer.status === 503);
      expect(answers.filter((answer) => answer.status !== 503 && answer.status >= 500)).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.filter((answer) => !answer.retryAfter || answer.body?.error?.code !== 'ledger_unavailable')).toEqual([]);

      // The gateway's answers came during the outage, and were answered at once, never "try
      // again": the 3-D Secure payer straight to the bank, the other pending until the database
      // is back (the widget polls). Both are written once it is back.
      const [challenge, pending, refundAnswer] = await held;
      expect(challenge).toMatchObject({ status: 200, body: { status: 'redirect', order_id: challenged.order_id, redirect_url: expect.stringMatching(/^http/) } });
      expect(pending).toMatchObject({ status: 200, body: { status: 'pending', order_id: taken.order_id } });
      await eventually(async () => expect((await stack.ledger.getPayment(challenged.order_id))?.userActionUrl).toBe(challenge.body!.redirect_url));
      await eventually(async () => expect((await stack.json('GET', `/api/checkout/sessions/${taken.id}`, 200)).status).toBe('success'));
      // The refund the gateway made is pending, not "try again" (a retry would refund twice), and
      // recorded as made once the database is back: one refund at the gateway, one in the books.
      expect(refundAnswer).toMatchObject({ status: 202, body: { operation: { kind: 'refund', status: 'pending', amount: 3 } } });
      await eventually(async () => expect((await stack.ledger.getOrder(refunded.order_id))?.operations).toMatchObject([{ kind: 'refund', status: 'success', amount: 3 }]));
      const { deliveries: refundWebhooks } = await stack.control('GET', `/_sandbox/webhooks?order_id=${refunded.order_id}&method=refund`);
      expect(new Set(refundWebhooks.map((delivery: Json) => delivery.event.operation_id)).size).toBe(1);

      // Logged once when it began and once when it ended, with the count; no stack, no error per request.
      // The probe notices within a second of the database answering again.
      await eventually(() => expect(stack.logs.slice(logsBefore).some((line) => line.includes('"the database is back"'))).toBe(true));
      const lines = stack.logs.slice(logsBefore).map((line) => JSON.parse(line) as Json);
      const began = lines.filter((line) => line.msg.startsWith('the database cannot be reached'));
      const ended = lines.filter((line) => line.msg === 'the database is back');
      expect(began).toHaveLength(1);
      expect(ended).toHaveLength(1);
      expect(ended[0]!.refused).toBeGreaterThanOrEqual(refused.length);
      expect(ended[0]!.down_for_ms).toBeGreaterThanOrEqual(OUTAGE_MS - 1_000);
      expect(lines.filter((line) => JSON.stringify(line).includes('"stack"'))).toEqual([]);
      expect(lines.filter((line) => line.level === 'error' && line !== began[0])).toEqual([]);
      expect(restoredAt - cutAt).toBeGreaterThanOrEqual(OUTAGE_MS);

      // An operator saw it: every refused call counted as a ledger error, none as a fault.
      const scraped = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      const counted = (kind: string) => Number(new RegExp(`^payform_ledger_errors_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(scraped)?.[1]);
      expect(counted('unavailable')).toBe(ended[0]!.refused);
      expect(counted('failed')).toBe(0);
      expect(scraped).toMatch(/^payform_ledger_up 1$/m);

      // No webhook lost: the gateway's retries land once the database is back.
      await eventually(async () => {
        await stack.settleWebhooks();
        for (const session of slow) expect((await stack.ledger.getPayment(session.order_id))?.status).toBe('success');
        const deliveries = await stack.deliveries();
        expect(deliveries.filter((delivery: Json) => delivery.status !== 'delivered')).toEqual([]);
      }, 30_000);
    }, 120_000);
  });
});
