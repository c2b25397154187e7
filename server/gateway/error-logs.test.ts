// A merchant logs the client's errors as they come: JSON.stringify, util.inspect, String. Each
// says what went wrong and what was asked, and none carries the card the request held, even
// when the gateway echoes it back.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, OutcomeUnknownError } from './errors.js';
import { useGatewayDouble } from './test/client-setup.js';
import * as samples from './test/samples.js';

const double = useGatewayDouble();
const CARD = /4242\s?4242|4242424242424242/;

async function failure(call: Promise<unknown>): Promise<Error> {
  return call.then(() => { throw new Error('the call succeeded'); }, (error: unknown) => error as Error);
}

describe('a gateway error written as JSON', () => {
  it('keeps the message and what was asked for a refusal that echoes the card, masked', async () => {
    double.gateway.answer({ status: 400, body: { message: `Card ${samples.card.cc_number} is not accepted`, args: { code: 'P-400' } } });
    const error = await failure(double.client().operations.refund({ order_id: 'order-1001', order_currency: 'UAH', refund_amount: 500 }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    const logged = JSON.parse(JSON.stringify({ error })) as { error: Record<string, unknown> };
    expect(logged.error).toMatchObject({ name: 'InvalidRequestError', message: 'Card [card number] is not accepted', status: 400, code: 'P-400' });
    expect(logged.error.target).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/refund$/);
    for (const text of [JSON.stringify(error), inspect(error, { depth: 8 }), String(error)]) expect(text).not.toMatch(CARD);
  });

  it('says why the outcome is unknown, and where it was asked', async () => {
    double.gateway.answer({ drop: true });
    const error = await failure(double.client().operations.refund({ order_id: 'order-1001', order_currency: 'UAH', refund_amount: 500 }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const logged = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(logged).toMatchObject({ name: 'OutcomeUnknownError', operation: 'refund', orderId: 'order-1001' });
    expect(logged.message).toMatch(/^The outcome of refund for order order-1001 is unknown \(No answer from the gateway at POST /);
    expect(logged.target).toMatch(/\/api\/v1\/refund$/);
  });
});
