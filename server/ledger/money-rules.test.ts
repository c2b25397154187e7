// The money rules as pure functions; the contract suite proves they hold under races.
import { describe, expect, it } from 'vitest';
import { captureCeiling, decideOperation, orderTotals, overCaptured, refundedPastPaid, sentInFull } from './money-rules.js';
import type { MoneyOperation, MoneyPayment } from './money-rules.js';

const auth: MoneyPayment = { method: 'auth', status: 'success', amount: 1000, currency: 'UAH', split: null };
const purchase: MoneyPayment = { ...auth, method: 'purchase' };
const op = (kind: MoneyOperation['kind'], status: MoneyOperation['status'], amount: number, split: MoneyOperation['split'] = null): MoneyOperation => ({
  kind,
  status,
  amount,
  split,
});

describe('captureCeiling', () => {
  it('adds the over-capture percentage, rounding down to a whole minor unit', () => {
    expect(captureCeiling(1000)).toBe(1000);
    expect(captureCeiling(1000, 10)).toBe(1100);
    expect(captureCeiling(999, 10)).toBe(1098);
    expect(captureCeiling(1000, 0.5)).toBe(1005);
    expect(captureCeiling(1, 50)).toBe(1);
  });

  it('stays exact for amounts where floating point would not', () => {
    // amount × basis points passes 2^53 here (float arithmetic gives …954); the result does not.
    expect(captureCeiling(515_904_832_711_493, 85.8)).toBe(958_551_179_177_953);
    expect(captureCeiling(1010, 10.01)).toBe(1111);
    // In steps the gateway can be sent: a KWD amount's last digit is always 0 on the wire.
    expect(captureCeiling(1010, 15, 10)).toBe(1160);
    expect(orderTotals({ ...auth, amount: 1010, currency: 'KWD' }, [], 15).capturable).toBe(1160);
  });

  it('reads a percentage with more than two decimals as written, as the gateway does: 12.345 % is not 12.35 %', () => {
    // 10000 × 1.12345 = 11234.5: the gateway takes 11234; rounded to basis points it was 11235, declined 4012.
    expect(captureCeiling(10_000, 12.345)).toBe(11_234);
    expect(captureCeiling(500, 28.2)).toBe(641);
  });
});

describe('sentInFull', () => {
  it('is a capture or a purchase\'s refund of the whole payment, not split: the gateway makes it of what it holds', () => {
    const purchase = { method: 'purchase', amount: 1000 } as const;
    const auth = { method: 'auth', amount: 1000 } as const;
    const whole = { kind: 'refund', amount: 1000, split: null } as const;
    expect(sentInFull(purchase, whole)).toBe(true);
    expect(sentInFull(auth, { ...whole, kind: 'capture' })).toBe(true);
    // Part of it, split, a void, an auth's refund (of its captures): each sent with its amount.
    expect(sentInFull(purchase, { ...whole, amount: 999 })).toBe(false);
    expect(sentInFull(purchase, { ...whole, split: [{ subMerchantId: 's', amount: 1000 }] })).toBe(false);
    expect(sentInFull(purchase, { ...whole, kind: 'void' })).toBe(false);
    expect(sentInFull(auth, whole)).toBe(false);
  });
});

describe('refundedPastPaid', () => {
  it('counts successful refunds past a purchase\'s amount or an auth\'s captures, and nothing pending or failed', () => {
    expect(refundedPastPaid(purchase, [op('refund', 'success', 600), op('refund', 'success', 400)])).toBe(0);
    expect(refundedPastPaid(purchase, [op('refund', 'success', 600), op('refund', 'success', 500), op('refund', 'pending', 900), op('refund', 'failure', 900)])).toBe(100);
    expect(refundedPastPaid(auth, [op('capture', 'success', 700), op('refund', 'success', 750)])).toBe(50);
    expect(refundedPastPaid(auth, [op('capture', 'success', 700), op('refund', 'success', 700)])).toBe(0);
  });

  it('says nothing while what may be refunded is not known: unpaid, or an auth with no capture known', () => {
    expect(refundedPastPaid({ ...purchase, status: 'pending' }, [op('refund', 'success', 2000)])).toBe(0);
    expect(refundedPastPaid(auth, [op('capture', 'pending', 700), op('refund', 'success', 500)])).toBe(0);
  });
});

describe('orderTotals', () => {
  it('counts settled and pending money, and nothing of failures', () => {
    const totals = orderTotals(auth, [op('capture', 'success', 600), op('capture', 'pending', 100), op('capture', 'failure', 300), op('refund', 'pending', 50), op('refund', 'success', 150)]);
    expect(totals).toEqual({ captured: 600, capturePending: 100, refunded: 150, refundPending: 50, voided: false, refundable: 400, capturable: 0 });
  });

  it('lets an auth be captured once: capturable until a capture is made or under way', () => {
    expect(orderTotals(auth, [op('capture', 'failure', 300)], 10)).toMatchObject({ capturable: 1100 });
    expect(orderTotals(auth, [op('capture', 'pending', 300)], 10)).toMatchObject({ capturable: 0 });
    expect(orderTotals(auth, [op('capture', 'success', 300)], 10)).toMatchObject({ capturable: 0 });
  });

  it('gives nothing to refund or capture before the payment succeeded', () => {
    expect(orderTotals({ ...purchase, status: 'pending' }, [])).toMatchObject({ refundable: 0, capturable: 0 });
    expect(orderTotals(purchase, [])).toMatchObject({ refundable: 1000, capturable: 0 });
  });

  it('opens no more refund than the reserve for a capture the gateway made past it unasked', () => {
    const unasked: MoneyOperation = { ...op('capture', 'success', 5000), origin: 'gateway' };
    expect(orderTotals(auth, [unasked])).toMatchObject({ captured: 5000, refundable: 1000 });
    expect(overCaptured(auth, [unasked])).toBe(4000);
    expect(() => decideOperation(auth, [unasked], { kind: 'refund', amount: 1001 })).toThrow(expect.objectContaining({ reason: 'exceeds_refundable', available: 1000 }));
    // The ledger's own capture was checked when it was reserved: refunded as made.
    expect(orderTotals(auth, [op('capture', 'success', 1100)])).toMatchObject({ refundable: 1100 });
  });

  it('treats a pending or settled void as voided, a declined one as not', () => {
    expect(orderTotals(auth, [op('void', 'pending', 1000)])).toMatchObject({ voided: true, capturable: 0 });
    expect(orderTotals(auth, [op('void', 'failure', 1000)])).toMatchObject({ voided: false, capturable: 1000 });
  });
});

describe('decideOperation', () => {
  it('refuses a second capture of an auth, made or under way', () => {
    for (const status of ['pending', 'success'] as const) {
      expect(() => decideOperation(auth, [op('capture', status, 300)], { kind: 'capture', amount: 100 })).toThrow(expect.objectContaining({ reason: 'already_captured', available: 0 }));
    }
  });

  it('reserves what remains when no amount is named', () => {
    expect(decideOperation(purchase, [op('refund', 'success', 300)], { kind: 'refund' })).toBe(700);
    expect(decideOperation(auth, [op('capture', 'failure', 300)], { kind: 'capture' })).toBe(1000);
    expect(decideOperation(auth, [], { kind: 'void' })).toBe(1000);
  });

  it('takes the sum of a refund’s split as its amount; a capture’s, without one, must be the whole reserve', () => {
    const split = [
      { subMerchantId: 'a', amount: 200 },
      { subMerchantId: 'b', amount: 50 },
    ];
    const shared = { ...purchase, split: [{ subMerchantId: 'a', amount: 800 }, { subMerchantId: 'b', amount: 200 }] };
    expect(decideOperation(shared, [], { kind: 'refund', split })).toBe(250);
    expect(() => decideOperation(auth, [], { kind: 'capture', split })).toThrow(expect.objectContaining({ reason: 'split_not_whole_reserve', available: 1000 }));
    expect(decideOperation(auth, [], { kind: 'capture', amount: 250, split })).toBe(250);
    expect(decideOperation(auth, [], { kind: 'capture', split: [...split, { subMerchantId: 'c', amount: 750 }] })).toBe(1000);
  });

  it('names the rule that refuses', () => {
    const refusal = (payment: MoneyPayment, operations: MoneyOperation[], kind: MoneyOperation['kind'], amount?: number) => {
      try {
        decideOperation(payment, operations, { kind, ...(amount === undefined ? {} : { amount }) });
        return 'allowed';
      } catch (error) {
        return (error as { reason: string }).reason;
      }
    };
    expect(refusal({ ...auth, status: 'failure' }, [], 'capture')).toBe('payment_not_successful');
    expect(refusal(purchase, [], 'void')).toBe('not_an_auth');
    expect(refusal(auth, [op('void', 'success', 1000)], 'capture')).toBe('already_voided');
    expect(refusal(auth, [op('capture', 'pending', 1)], 'void')).toBe('already_captured');
    expect(refusal(auth, [], 'refund', 1)).toBe('nothing_captured');
    expect(refusal(purchase, [op('refund', 'success', 1000)], 'refund')).toBe('nothing_left');
    expect(refusal(purchase, [op('refund', 'pending', 999)], 'refund', 2)).toBe('exceeds_refundable');
    expect(refusal(auth, [], 'capture', 1001)).toBe('exceeds_capturable');
    expect(refusal(purchase, [op('refund', 'failure', 1000)], 'refund', 1000)).toBe('allowed');
    // The limit in a refusal's message says its unit and its money.
    expect(() => decideOperation(purchase, [op('refund', 'pending', 999)], { kind: 'refund', amount: 2 })).toThrow('at most 1 (0.01 UAH) can be refunded');
  });

  it('says when what stands in the way is an operation still waiting for the gateway, not one made', () => {
    // A capture whose answer was lost (202): the merchant retries the refund, and must not read "nothing captured" for good.
    expect(() => decideOperation(auth, [op('capture', 'pending', 600)], { kind: 'refund', amount: 100 })).toThrow(
      'the capture of the auth (6.00 UAH) still waits for the gateway’s answer: refund once it is settled',
    );
    expect(() => decideOperation(auth, [op('capture', 'pending', 600)], { kind: 'capture' })).toThrow('a capture of the auth (6.00 UAH) still waits for the gateway’s answer');
    expect(() => decideOperation(purchase, [op('refund', 'success', 400), op('refund', 'pending', 600)], { kind: 'refund' })).toThrow(
      'nothing is left to refund: 4.00 UAH is refunded and 6.00 UAH still waits for the gateway’s answer',
    );
    expect(() => decideOperation(purchase, [op('refund', 'success', 1000)], { kind: 'refund' })).toThrow('the payment is fully refunded');
    // A void whose answer was lost: neither a capture nor another void is taken, and neither reads "voided".
    for (const kind of ['capture', 'void'] as const) {
      expect(() => decideOperation(auth, [op('void', 'pending', 1000)], { kind })).toThrow('a void of the auth (10.00 UAH) still waits for the gateway’s answer: once voided, an auth takes nothing more');
      expect(() => decideOperation(auth, [op('void', 'pending', 1000)], { kind })).toThrow(expect.objectContaining({ reason: 'void_pending' }));
    }
    expect(() => decideOperation(auth, [op('void', 'success', 1000)], { kind: 'capture' })).toThrow('the auth is voided');
  });
});
