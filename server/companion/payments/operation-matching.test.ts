// Which gateway entry is which reservation, when the entries carry no operation id.
import { describe, expect, it } from 'vitest';
import { minorUnits } from '@payform/gateway';
import type { OrderOperation } from '@payform/gateway';
import type { Operation } from '../../ledger/index.js';
import { gatewayTime } from './gateway-time.js';
import { matchOperations } from './operation-matching.js';

const T0 = Date.UTC(2030, 0, 15, 9, 0);
/** The order's payment: a purchase of 10.00, whose refund of all of it goes in the full form. */
const PURCHASE = { method: 'purchase', amount: 1000 } as const;
const MINUTE = 60_000;

function operation(id: string, fields: Partial<Operation>): Operation {
  return {
    id, orderId: 'o-1', kind: 'refund', amount: 200, currency: 'UAH', status: 'pending', operationId: null, transactionId: null, statusCode: null, statusDescription: null, comment: null,
    split: null, receiptUrl: null, origin: 'merchant', createdAt: T0, updatedAt: T0, lastSeenAt: T0, settledAt: null, ...fields,
  };
}

function entry({ amount = 200, ...fields }: Partial<Omit<OrderOperation, 'amount'>> & { amount?: number }, at = T0): OrderOperation {
  return { method: 'refund', status: 'success', amount: minorUnits(amount), currency: 'UAH', status_code: '1004', processed_at: null, created_at: new Date(at).toISOString().slice(0, 23), ...fields } as OrderOperation;
}

describe('matching reservations to the gateway\'s operations', () => {
  it('lets operations already settled use up their own entries first', () => {
    const settled = operation('a', { status: 'success', statusCode: '1004' });
    const waiting = operation('b', { createdAt: T0 + MINUTE });
    const first = entry({}, T0 + 1000);
    const second = entry({ status: 'pending', status_code: '2001' }, T0 + MINUTE + 1000);
    const { settling, shown } = matchOperations(PURCHASE, [settled, waiting], [first, second]);
    expect([...settling]).toEqual([['b', second]]);
    expect([...shown]).toEqual(['b']);
  });

  it('pairs by operation id when both know it, whatever the order', () => {
    const a = operation('a', { operationId: 'op-a' });
    const b = operation('b', { operationId: 'op-b' });
    const { settling } = matchOperations(PURCHASE, [a, b], [entry({ operation_id: 'op-b' }), entry({ operation_id: 'op-a', status: 'failure' })]);
    expect(settling.get('a')).toMatchObject({ operation_id: 'op-a', status: 'failure' });
    expect(settling.get('b')).toMatchObject({ operation_id: 'op-b', status: 'success' });
  });

  it('never pairs another amount or kind, nor an entry made before the reservation', () => {
    const waiting = operation('a', { amount: 300, createdAt: T0 + 60 * MINUTE });
    const { settling, shown } = matchOperations(PURCHASE, [waiting], [entry({ amount: 200 }), entry({ method: 'capture', amount: 300 }), entry({ amount: 300 }, T0)]);
    expect(settling.size).toBe(0);
    // An unexplained entry of its kind and amount exists: it may be this one, so it is not given up.
    expect([...shown]).toEqual(['a']);
  });

  it('says by how much an entry of its kind and amount precedes a reservation it was refused for', () => {
    const waiting = operation('a', { amount: 300, createdAt: T0 + 20 * MINUTE });
    const { settling, predated } = matchOperations(PURCHASE, [waiting], [entry({ amount: 300 }, T0 - MINUTE), entry({ amount: 300 }, T0), entry({ amount: 200 }, T0 + 5 * MINUTE)]);
    expect(settling.size).toBe(0);
    expect([...predated]).toEqual([['a', 20 * MINUTE]]);
    // Paired, or with nothing of its kind and amount shown, nothing is said.
    expect(matchOperations(PURCHASE, [operation('b', { createdAt: T0 })], [entry({}, T0 + 1000)]).predated.size).toBe(0);
    expect(matchOperations(PURCHASE, [operation('c', { createdAt: T0 })], [entry({ amount: 900 }, T0 - 60 * MINUTE)]).predated.size).toBe(0);
  });

  it('pairs a refund of the whole payment with the gateway\'s refund of less, which it made of what it held', () => {
    // A refund of 400 made at the gateway never reached the ledger: the gateway refunded its 600.
    const whole = operation('a', { amount: 1000, createdAt: T0 });
    const rest = entry({ amount: 600 }, T0 + 1000);
    expect([...matchOperations(PURCHASE, [whole], [entry({ amount: 400 }, T0 - MINUTE), rest]).settling]).toEqual([['a', rest]]);
    // Its own amount first; and only when it went in the full form: not a part of the payment,
    // not split, not an auth's refund (of its captures), not one already settled.
    const exact = entry({ amount: 1000 }, T0 + 2000);
    expect(matchOperations(PURCHASE, [whole], [rest, exact]).settling.get('a')).toBe(exact);
    expect(matchOperations(PURCHASE, [operation('b', { amount: 900 })], [rest]).settling.size).toBe(0);
    expect(matchOperations(PURCHASE, [operation('c', { amount: 1000, split: [{ subMerchantId: 's', amount: 1000 }] })], [rest]).settling.size).toBe(0);
    expect(matchOperations({ method: 'auth', amount: 1000 }, [whole], [rest]).settling.size).toBe(0);
    expect(matchOperations(PURCHASE, [operation('d', { amount: 1000, status: 'failure', statusCode: '4150' })], [rest]).settling.size).toBe(0);
    // Dated before it, it is still shown: so never ended as never sent.
    const early = matchOperations(PURCHASE, [operation('e', { amount: 1000, createdAt: T0 + 60 * MINUTE })], [rest]);
    expect([early.settling.size, [...early.shown]]).toEqual([0, ['e']]);
  });

  it('ignores reservations ended here: they never reached the gateway', () => {
    const unsent = operation('a', { status: 'failure', statusDescription: 'Never reached the gateway' });
    const waiting = operation('b', { createdAt: T0 + 1000 });
    const { settling } = matchOperations(PURCHASE, [unsent, waiting], [entry({}, T0 + 2000)]);
    expect([...settling.keys()]).toEqual(['b']);
  });

  it('reads zone-less gateway timestamps as UTC', () => {
    expect(gatewayTime('2030-01-15T09:00:00')).toBe(T0);
    expect(gatewayTime('2030-01-15T09:00:00.500Z')).toBe(T0 + 500);
    expect(gatewayTime('2030-01-15T11:00:00+02:00')).toBe(T0);
    expect(gatewayTime('soon')).toBeUndefined();
    // Date.parse alone reads "1" as 2001-01-01.
    expect(gatewayTime('1')).toBeUndefined();
    expect(gatewayTime(null)).toBeUndefined();
  });
});
