// Card testing spread over addresses and sessions, as a carding trial ran it: each client network
// is cooled down after its declines, an IPv6 site is counted by its /48 too, a burst of declines
// across clients is said once and shown in /metrics, and each attempt's line names its client.
// In process against the real sandbox and SQLite, on a clock the test moves.
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../ledger/index.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { createLogger, memorySink } from '../log/logger.js';
import { PaymentReactions } from '../payments/reactions.js';
import { card, CUSTOMER, hostedCardForm } from '../test/cards.js';
import { CLIENT_IP, payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';
import { ClientDeclines, DECLINE_WINDOW_MS, FIRST_COOL_DOWN_MS, LONGEST_COOL_DOWN_MS } from './client-declines.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const openStack = stacksPerTest();

/** The log lines as objects, those with `msg` only when given. */
const lines = (stack: Stack, msg?: string): Json[] => stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => msg === undefined || entry.msg === msg);

/** One declined attempt from `ip`, on a session of its own (each session allows few). */
async function decline(stack: Stack, ip: string): Promise<Response> {
  const session = await stack.openSession();
  return stack.pay(session.id, payBody({ card: card('rejected') }), { ip });
}

async function metric(stack: Stack, name: string): Promise<number | undefined> {
  const text = await (await stack.companion.request('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('a client network declined again and again', () => {
  it('is cooled down past twice perSession declines, longer at each strike, while other clients pay', async () => {
    const clock = new TestClock(Date.now());
    // perSession 2: a network may be declined 4 times in 15 minutes.
    const stack = await openStack({ clock, companion: { metricsToken: METRICS_TOKEN, rateLimits: { perSession: 2, perClient: 100 } } });
    const tester = '198.51.100.20';
    for (let i = 0; i < 4; i += 1) expect(await (await decline(stack, tester)).json()).toMatchObject({ status: 'failure' });

    const cooled = await decline(stack, tester);
    expect(cooled.status).toBe(429);
    expect(cooled.headers.get('retry-after')).toBe('900');
    expect((await cooled.json()).error.code).toBe('rate_limited');
    // A hosted page from it is refused alike; a customer elsewhere pays.
    expect((await stack.request('POST', `/api/checkout/sessions/${(await stack.openSession()).id}/hosted`, { ip: tester, body: {} })).status).toBe(429);
    expect(await (await stack.pay((await stack.openSession()).id, payBody(), { ip: '203.0.113.80' })).json()).toMatchObject({ status: 'success' });

    const warned = lines(stack).filter((entry) => /cooled down after declines/.test(entry.msg));
    expect(warned).toEqual([expect.objectContaining({ level: 'warn', client: tester, network: tester, by: 'client', declines: 4, strike: 1, retry_after_seconds: 900 })]);

    // Back after 15 minutes; the next strike waits twice as long.
    clock.advance(15 * 60_000);
    for (let i = 0; i < 4; i += 1) expect((await decline(stack, tester)).status).toBe(200);
    const again = await decline(stack, tester);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('1800');
    expect(await metric(stack, 'payform_decline_cool_downs_total{by="client"}')).toBe(2);
  });

  it('is not cooled down when most of its payments succeed: many customers behind one address', async () => {
    const stack = await openStack({ companion: { rateLimits: { perSession: 100, perClient: 1000, declinesPerClient: 3 } } });
    const office = '198.51.100.24';
    const paid = async () => expect(await (await stack.pay((await stack.openSession()).id, payBody(), { ip: office })).json()).toMatchObject({ status: 'success' });
    await expect(decline(stack, office).then((answer) => answer.status)).resolves.toBe(200);
    for (let i = 0; i < 4; i += 1) await paid();
    // Three declines in five decided payments of six: not the share a card tester's are.
    for (let i = 0; i < 2; i += 1) expect((await decline(stack, office)).status).toBe(200);
    await paid();
    expect(lines(stack).filter((entry) => /cooled down after declines/.test(entry.msg))).toEqual([]);
  });

  it('never cools down a loopback or private client: the operator’s proxy sending no X-Forwarded-For', async () => {
    const stack = await openStack({ companion: { trustProxy: true, rateLimits: { perSession: 100, perClient: 1000, declinesPerClient: 2 } } });
    for (let i = 0; i < 4; i += 1) expect((await decline(stack, '127.0.0.1')).status).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await decline(stack, '10.1.2.3')).status).toBe(200);
  });

  it('takes its allowance from rateLimits.declinesPerClient when the merchant sets one', async () => {
    const stack = await openStack({ companion: { rateLimits: { perSession: 100, perClient: 100, declinesPerClient: 3 } } });
    for (let i = 0; i < 3; i += 1) expect((await decline(stack, '198.51.100.23')).status).toBe(200);
    expect((await decline(stack, '198.51.100.23')).status).toBe(429);
  });

  it('is not reached by a customer who pays after a few declines, nor by declines spread out in time', async () => {
    const clock = new TestClock(Date.now());
    const stack = await openStack({ clock, companion: { rateLimits: { perSession: 2, perClient: 100 } } });
    // Three every half hour: the sliding window weighs the window before in full as the next begins.
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 3; i += 1) expect((await decline(stack, '198.51.100.21')).status).toBe(200);
      clock.advance(30 * 60_000);
    }
    expect(await (await stack.pay((await stack.openSession()).id, payBody(), { ip: '198.51.100.21' })).json()).toMatchObject({ status: 'success' });
  });

  it('behind a proxy the companion does not trust, is never the whole shop cooled down', async () => {
    const stack = await openStack({ companion: { rateLimits: { perSession: 2, perClient: 100 } } });
    const viaProxy = { ip: '10.0.0.5', headers: { 'X-Forwarded-For': '198.51.100.22' } };
    for (let i = 0; i < 6; i += 1) {
      const session = await stack.openSession();
      expect((await stack.pay(session.id, payBody({ card: card('rejected') }), viaProxy)).status).toBe(200);
    }
    expect(await (await stack.pay((await stack.openSession()).id, payBody(), viaProxy)).json()).toMatchObject({ status: 'success' });
  });
});

describe('an IPv6 client', () => {
  it('is counted by its /48 too, with twice the per-client allowance, so rotating /64s does not escape the limit', async () => {
    const stack = await openStack({ companion: { rateLimits: { perSession: 100, perClient: 2 } } });
    const from = (subnet: number) => `2001:db8:abcd:${subnet.toString(16)}::1`;
    const pay = async (ip: string) => (await stack.pay((await stack.openSession()).id, payBody(), { ip })).status;
    // Two /64s use the /48's four attempts; a third /64 of it is refused, another /48 is not.
    expect([await pay(from(1)), await pay(from(1)), await pay(from(2)), await pay(from(2))]).toEqual([200, 200, 200, 200]);
    expect(await pay(from(3))).toBe(429);
    expect(await pay('2001:db8:abce:1::1')).toBe(200);
    expect(lines(stack, 'pay attempts rate limited')).toEqual([expect.objectContaining({ by: 'network', network: '2001:db8:abcd::/48', client: from(3) })]);
  });

  it('is cooled down when its /48 is declined four times perSession, however many /64s share it', async () => {
    const stack = await openStack({ companion: { rateLimits: { perSession: 2, perClient: 100 } } });
    // One decline per /64: none of them reaches its own 4; the /48 reaches its 8.
    for (let subnet = 1; subnet <= 8; subnet += 1) expect((await decline(stack, `2001:db8:abcd:${subnet}::1`)).status).toBe(200);
    expect((await decline(stack, '2001:db8:abcd:9::1')).status).toBe(429);
    expect((await decline(stack, '2001:db8:abce:9::1')).status).toBe(200);
    expect(lines(stack).filter((entry) => /cooled down after declines/.test(entry.msg))).toEqual([
      expect.objectContaining({ client: '2001:db8:abcd:9::1', network: '2001:db8:abcd::/48', by: 'network', declines: 8 }),
    ]);
  });
});

describe('declines decided after the answer', () => {
  const allowance = { rateLimits: { perSession: 100, perClient: 100, declinesPerClient: 3 } };

  it('count against the client when its 3-D Secure challenge fails, as the webhook tells', async () => {
    const stack = await openStack({ companion: allowance });
    const tester = '198.51.100.26';
    for (let i = 0; i < 3; i += 1) {
      const answer = await (await stack.pay((await stack.openSession()).id, payBody({ card: card('three_ds_challenge') }), { ip: tester })).json();
      expect(answer).toMatchObject({ status: 'redirect' });
      await stack.control('POST', `/_sandbox/3ds/${answer.payment_id}`, { result: 'failure' });
      await stack.settleWebhooks();
    }
    expect((await decline(stack, tester)).status).toBe(429);
    expect(lines(stack).filter((entry) => /cooled down after declines/.test(entry.msg))).toEqual([expect.objectContaining({ client: tester, declines: 3 })]);
  });

  it('count against the client when its card is declined on the hosted page', async () => {
    const stack = await openStack({ companion: allowance });
    const tester = '198.51.100.27';
    const hosted = async () => {
      const session = await stack.openSession({ customer: { email: 'olena@example.com', phone: '+380501234567' } });
      return stack.request('POST', `/api/checkout/sessions/${session.id}/hosted`, { ip: tester, body: {} });
    };
    for (let i = 0; i < 3; i += 1) {
      const { redirect_url: url } = (await (await hosted()).json()) as { redirect_url: string };
      await stack.sandbox.request(url, { method: 'POST', body: hostedCardForm('rejected') });
      await stack.settleWebhooks();
    }
    expect((await hosted()).status).toBe(429);
  });

  it('count against the client when the gateway’s answer was lost and the decline read back', async () => {
    const stack = await openStack({ companion: allowance });
    const tester = '198.51.100.29';
    // Handled, then the answer lost: the companion reads the order's outcome from the gateway.
    await stack.control('PUT', '/_sandbox/faults', { error_rate: 1, error_status: 503, phase: 'after', scope: { method: 'POST', path: '/api/v1/payment' } });
    for (let i = 0; i < 3; i += 1) await decline(stack, tester);
    await stack.control('DELETE', '/_sandbox/faults');
    await stack.settleWebhooks();
    expect((await decline(stack, tester)).status).toBe(429);
    // Counted once each, though the webhook told each decline too.
    expect(lines(stack).filter((entry) => /cooled down after declines/.test(entry.msg))).toEqual([expect.objectContaining({ client: tester, declines: 3 })]);
  });

  it('are not counted for a merchant’s saved-card charges, however many decline', async () => {
    const stack = await openStack({ companion: { ...allowance, metricsToken: METRICS_TOKEN } });
    const unknown = await stack.ledger.saveCard({ customerId: 'cust-renewals', ccToken: 'tok-unknown', ccMask: '424242******4242', tokenExpiration: '2099-12-31T23:59:59' });
    for (let i = 0; i < 25; i += 1) {
      const charged = await stack.request('POST', `/api/customers/cust-renewals/cards/${unknown.id}/charges`, {
        admin: true,
        body: { amount: 19950, currency: 'UAH', description: 'Renewal', order_id: `renewal-${i}`, customer: CUSTOMER },
      });
      expect(await charged.json()).toMatchObject({ status: 'failure' });
    }
    expect(await metric(stack, 'payform_decline_burst')).toBe(0);
    // Nor is the network they were sent from cooled down: the merchant's server's.
    expect(await (await stack.pay((await stack.openSession()).id, payBody(), { ip: CLIENT_IP })).json()).toMatchObject({ status: 'success' });
  });
});

describe('declines across every client', () => {
  it('are said once per burst, with the figures and the busiest networks, and shown as payform_decline_burst', async () => {
    const clock = new TestClock(Date.now());
    const stack = await openStack({ clock, companion: { metricsToken: METRICS_TOKEN } });
    expect(await metric(stack, 'payform_decline_burst')).toBe(0);
    // Spread over six addresses, as the trial ran it, with one customer paying among them.
    expect((await stack.pay((await stack.openSession()).id, payBody(), { ip: '203.0.113.90' })).status).toBe(200);
    for (let i = 0; i < 30; i += 1) expect((await decline(stack, `198.51.100.${30 + (i % 6)}`)).status).toBe(200);

    const bursts = () => lines(stack).filter((entry) => /^declines spiked across the companion/.test(entry.msg));
    expect(bursts()).toHaveLength(1);
    const [burst] = bursts();
    expect(burst).toMatchObject({ level: 'warn', declines_per_minute: 20 });
    expect(burst!.decline_ratio).toBeGreaterThanOrEqual(0.9);
    expect(burst!.busiest).toHaveLength(5);
    expect(burst!.busiest[0]).toEqual({ network: '198.51.100.30', declines: 4 });
    expect(await metric(stack, 'payform_decline_burst')).toBe(1);

    // Quiet for a while: over, said at info, and the gauge is back to 0 without another payment.
    clock.advance(3 * 60_000);
    expect(await metric(stack, 'payform_decline_burst')).toBe(0);
    expect(lines(stack, 'declines are back below the burst rate')).toEqual([expect.objectContaining({ level: 'info', declines: 30 })]);
    // A new burst is a new warning.
    for (let i = 0; i < 20; i += 1) await decline(stack, `198.51.100.${40 + (i % 10)}`);
    expect(bursts()).toHaveLength(2);
  });

  it('count the attempts of customers whose address the host did not pass, as no network’s', async () => {
    // The test's own clock: on the wall clock the declines could straddle a minute's turn, which
    // weighs the minute before by what it covers, and under load read below the burst rate.
    const stack = await openStack({ clock: new TestClock(Date.now()), companion: { metricsToken: METRICS_TOKEN } });
    for (let i = 0; i < 20; i += 1) expect((await decline(stack, '')).status).toBe(200);
    expect(await metric(stack, 'payform_decline_burst')).toBe(1);
    expect(lines(stack).find((entry) => /^declines spiked across the companion/.test(entry.msg))).toMatchObject({ declines_per_minute: 20, busiest: [] });
  });

  it('are no burst where customers mostly pay', async () => {
    const stack = await openStack();
    for (let i = 0; i < 25; i += 1) {
      await decline(stack, `198.51.100.${60 + i}`);
      await stack.pay((await stack.openSession()).id, payBody(), { ip: `203.0.113.${60 + i}` });
      await stack.pay((await stack.openSession()).id, payBody(), { ip: `203.0.113.${100 + i}` });
    }
    expect(lines(stack).filter((entry) => /declines spiked|cooled down/.test(entry.msg))).toEqual([]);
  });
});

describe('the line of a pay attempt', () => {
  it('names the client address as the companion derives it, behind a trusted proxy the forwarded one', async () => {
    const stack = await openStack({ companion: { trustProxy: true } });
    const forwarded = { ip: '10.0.0.5', headers: { 'X-Forwarded-For': '192.0.2.200, 198.51.100.70' } };
    const declined = await stack.openSession();
    await stack.pay(declined.id, payBody({ card: card('rejected') }), forwarded);
    const challenged = await stack.openSession();
    await stack.pay(challenged.id, payBody({ card: card('three_ds_challenge') }), { ip: '2001:db8:4:5::9' });
    const attempts = lines(stack, 'payment status changed').filter((entry) => entry.source === 'gateway_answer');
    expect(attempts).toEqual([
      expect.objectContaining({ order_id: declined.order_id, status: 'failure', client: '198.51.100.70' }),
      expect.objectContaining({ order_id: challenged.order_id, status: 'pending', client: '2001:db8:4:5::9' }),
    ]);
  });

  it('names it too when a webhook told the status before the gateway’s answer came', async () => {
    const memory = memorySink();
    const logger = createLogger({ sink: memory.sink });
    // Only the logger is reached: the status was told, with its reactions, by the webhook.
    const reactions = new PaymentReactions({ logger, clock: Date.now } as unknown as ConstructorParameters<typeof PaymentReactions>[0]);
    const payment = { orderId: 'a1b2c3d4e5f6a7b8c9d0', status: 'failure', statusCode: '4153' } as Payment;
    await reactions.paymentProgressed({ progress: 'updated', payment }, 'gateway_answer', '198.51.100.71');
    expect(memory.lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ msg: 'a pay attempt was answered as a webhook had already told', order_id: payment.orderId, status: 'failure', client: '198.51.100.71' }),
    ]);
  });
});

describe('ClientDeclines', () => {
  it('holds at most maxKeys networks, and forgets those whose window and strikes are past', () => {
    let now = 0;
    const declines = new ClientDeclines(() => now, 3);
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']) declines.note(address);
    expect(declines.size).toBe(3);
    expect(declines.busiest(5).map(({ network }) => network)).toEqual(['192.0.2.2', '192.0.2.3', '192.0.2.4']);
    // A window on, the declines still weigh in the window that slides over them; two on, they are gone.
    now += DECLINE_WINDOW_MS;
    declines.note('192.0.2.5');
    expect(declines.size).toBe(3);
    now += DECLINE_WINDOW_MS;
    declines.note('192.0.2.6');
    expect(declines.size).toBe(2);
  });

  it('keeps a network cooling down when full, forgetting the oldest one that is not', () => {
    let now = 0;
    const declines = new ClientDeclines(() => now, 3);
    declines.note('192.0.2.20');
    expect(declines.coolDown('192.0.2.20', 1)).toMatchObject({ retryAfterMs: FIRST_COOL_DOWN_MS });
    for (const address of ['192.0.2.21', '192.0.2.22', '192.0.2.23', '192.0.2.24']) declines.note(address);
    now += 60_000;
    expect(declines.size).toBe(3);
    expect(declines.coolDown('192.0.2.20', 1)?.retryAfterMs).toBe(FIRST_COOL_DOWN_MS - 60_000);
  });

  it('counts declines either side of a window’s end together: the window slides', () => {
    let now = 0;
    const declines = new ClientDeclines(() => now);
    const network = '192.0.2.10';
    declines.note(network);
    // 18 declines in the window's last half minute, 18 in the next's first: 36 in a minute.
    now = DECLINE_WINDOW_MS - 30_000;
    for (let i = 0; i < 18; i += 1) declines.note(network);
    now = DECLINE_WINDOW_MS + 20_000;
    for (let i = 0; i < 18; i += 1) declines.note(network);
    expect(declines.coolDown(network, 20)).toMatchObject({ began: { declines: 37 } });
    // Spread thinly, they fade out: one window on, the ones before weigh less as it goes.
    const thin = '192.0.2.11';
    for (let i = 0; i < 15; i += 1) declines.note(thin);
    now += DECLINE_WINDOW_MS + 10 * 60_000;
    for (let i = 0; i < 10; i += 1) declines.note(thin);
    expect(declines.coolDown(thin, 20)).toBeUndefined();
    expect(declines.busiest(1)).toEqual([{ network: thin, declines: 15 }]);
  });

  it('leaves an office’s declines alone, however they fall across quarter hours', () => {
    let now = 0;
    const declines = new ClientDeclines(() => now);
    const office = '192.0.2.13';
    // Nine bunched at the start of each quarter hour and a bit (read up to twice), for two hours.
    for (let round = 0; round < 8; round += 1) {
      for (let i = 0; i < 9; i += 1) declines.note(office);
      expect(declines.coolDown(office, 20)).toBeUndefined();
      now += 16 * 60_000;
    }
  });

  it('cools a network down at three times its allowance whatever share of its payments succeeded', () => {
    const declines = new ClientDeclines(() => 0);
    const network = '192.0.2.12';
    // A quarter of a card tester's list live: under the share, cooled down past the ceiling.
    for (let i = 0; i < 59; i += 1) declines.note(network);
    for (let i = 0; i < 20; i += 1) declines.paid(network);
    expect(declines.coolDown(network, 20)).toBeUndefined();
    declines.note(network);
    expect(declines.coolDown(network, 20)).toMatchObject({ began: { declines: 60, strike: 1 } });
  });

  it('doubles a cool-down at each strike up to its longest, and forgets the strikes a day after the last', () => {
    let now = 0;
    const declines = new ClientDeclines(() => now);
    const strike = () => {
      declines.note('192.0.2.9');
      return declines.coolDown('192.0.2.9', 1)!.retryAfterMs;
    };
    const waits = [];
    for (let i = 0; i < 6; i += 1) {
      waits.push(strike());
      now += waits.at(-1)!;
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 16].map((times) => Math.min(FIRST_COOL_DOWN_MS * times, LONGEST_COOL_DOWN_MS)));
    now += 24 * 60 * 60_000;
    expect(strike()).toBe(FIRST_COOL_DOWN_MS);
  });
});
