import { describe, expect, it } from 'vitest';
import type { Payment } from '../../ledger/index.js';
import { heldAnswer } from './pay-answer.js';

/** The fields an answer is made of; the rest of a payment plays no part. */
const payment = { orderId: 'order-7', amount: 1010, currency: 'UAH', status: 'processing', userActionUrl: null, paymentId: null } as unknown as Payment;
const challenge = 'https://acs.example/challenge/7';

describe('heldAnswer (a gateway answer the database was away for)', () => {
  it('sends the customer on to a challenge asked for this payment', () => {
    expect(heldAnswer(payment, { status: 'pending', paymentId: 'p-7', userActionUrl: challenge, amount: 1010, currency: 'UAH' })).toEqual({
      status: 'redirect', redirect_url: challenge, order_id: 'order-7', payment_id: 'p-7',
    });
    expect(heldAnswer(payment, { status: 'pending', userActionUrl: challenge })).toMatchObject({ status: 'redirect', redirect_url: challenge });
  });

  it.each([
    ['a success', { status: 'success', paymentId: 'p-7' }],
    ['a decline', { status: 'failure', statusDescription: 'Insufficient funds' }],
    ['a pending answer with no challenge', { status: 'pending' }],
    ['a challenge for another amount', { status: 'pending', userActionUrl: challenge, amount: 1011 }],
    ['a challenge in another currency', { status: 'pending', userActionUrl: challenge, currency: 'EUR' }],
  ] as const)('answers %s pending: nothing unrecorded is told as final', (_, update) => {
    expect(heldAnswer(payment, update)).toMatchObject({ status: 'pending', order_id: 'order-7' });
  });
});
