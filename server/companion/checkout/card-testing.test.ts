// Card testing spread over addresses and sessions, as a carding trial ran it: each attempt's line
// names its client, so an operator can tie declines to where they came from afterwards.
// In process against the real sandbox and SQLite.
import { describe, expect, it } from 'vitest';
import type { Payment } from '../../ledger/index.js';
import { createLogger, memorySink } from '../log/logger.js';
import { PaymentReactions } from '../payments/reactions.js';
import { card } from '../test/cards.js';
import { payBody, stacksPerTest } from '../test/stack.js';
import type { Json, Stack } from '../test/stack.js';

const openStack = stacksPerTest();

/** The log lines as objects, those with `msg` only when given. */
const lines = (stack: Stack, msg?: string): Json[] => stack.logs.map((line) => JSON.parse(line) as Json).filter((entry) => msg === undefined || entry.msg === msg);

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
