// What the back office says a paid order came to, read from the merchant API's totals.
import { describe, expect, it } from 'vitest';
import type { Totals } from './admin-api.js';
import { abandoned, gatewayForgot, neverDecided, orderOutcome } from './order-outcome.js';

const none: Totals = { captured: 0, capture_pending: 0, refunded: 0, refund_pending: 0, voided: false, refundable: 0, capturable: 0 };
const purchase = { method: 'purchase', status: 'success', amount: 10000, unsent_at: null } as const;
const auth = { ...purchase, method: 'auth' } as const;

describe('what a paid order came to', () => {
  it('says a plain purchase, or one captured in full, is nothing more than paid', () => {
    expect(orderOutcome(purchase, { ...none, refundable: 10000 })).toBeUndefined();
    expect(orderOutcome(auth, { ...none, captured: 10000, refundable: 10000 })).toBeUndefined();
  });

  it('takes refunds off what was paid: in full, or in part', () => {
    expect(orderOutcome(purchase, { ...none, refunded: 10000 })).toEqual({ state: 'refunded', cameTo: 0 });
    expect(orderOutcome(purchase, { ...none, refunded: 2550, refundable: 7450 })).toEqual({ state: 'partlyRefunded', cameTo: 7450 });
    // Refunds the gateway reported past what was paid (a held order) leave less than nothing, as
    // the CSV's net and the period's money count it.
    expect(orderOutcome(purchase, { ...none, refunded: 20000 })).toEqual({ state: 'refunded', cameTo: -10000 });
    expect(orderOutcome(auth, { ...none, captured: 6050, refunded: 6050 })).toEqual({ state: 'refunded', cameTo: 0 });
  });

  it('counts an auth as what it was captured for: less or more than the hold, nothing once voided', () => {
    expect(orderOutcome(auth, { ...none, captured: 6050, refundable: 6050 })).toEqual({ state: 'capturedLess', cameTo: 6050 });
    expect(orderOutcome(auth, { ...none, captured: 10850, refundable: 10850 })).toEqual({ state: 'capturedMore', cameTo: 10850 });
    expect(orderOutcome(auth, { ...none, captured: 6050, refunded: 1000, refundable: 5050 })).toEqual({ state: 'partlyRefunded', cameTo: 5050 });
    expect(orderOutcome(auth, { ...none, voided: true })).toEqual({ state: 'voided', cameTo: 0 });
    expect(orderOutcome(auth, { ...none, capturable: 11500 })).toEqual({ state: 'uncaptured', cameTo: 10000 });
  });

  it('says an operation awaits the gateway before counting it', () => {
    expect(orderOutcome(auth, { ...none, capture_pending: 6050 })).toEqual({ state: 'pending', cameTo: 10000 });
    expect(orderOutcome(purchase, { ...none, refunded: 1000, refund_pending: 9000 })).toEqual({ state: 'pending', cameTo: 9000 });
  });

  it('has nothing to say of an order not paid, never sent, or a card verification', () => {
    expect(orderOutcome({ ...purchase, status: 'pending' }, none)).toBeUndefined();
    expect(orderOutcome({ ...purchase, status: 'failure' }, none)).toBeUndefined();
    expect(orderOutcome({ ...purchase, status: 'init', unsent_at: '2030-01-15T09:30:00.000Z' }, none)).toBeUndefined();
    expect(orderOutcome({ ...purchase, method: 'lookup', amount: 0 }, none)).toBeUndefined();
  });
});

describe('an attempt the gateway never decided', () => {
  const failed = { status: 'failure', status_code: null, unsent_at: null } as const;

  it('is one ended as never sent, or one failed before the gateway gave it a status code', () => {
    expect(neverDecided({ status: 'init', status_code: null, unsent_at: '2030-01-15T09:30:00.000Z' })).toBe(true);
    expect(neverDecided(failed)).toBe(true);
  });

  it('tells one the gateway answered before it no longer knew it (a restarted sandbox) from one never sent', () => {
    const unsent = { payment_id: null, checkout_url: null, unsent_at: '2030-01-15T09:30:00.000Z' } as const;
    expect(gatewayForgot({ ...unsent, status: 'pending', status_code: '2122' })).toBe(true);
    // A hosted page the gateway opened, then lost: no status code, but its page.
    expect(gatewayForgot({ ...unsent, status: 'init', status_code: null, checkout_url: 'https://gateway.example/checkout/x1' })).toBe(true);
    expect(gatewayForgot({ ...unsent, status: 'pending', status_code: null, payment_id: 'p-81' })).toBe(true);
    expect(gatewayForgot({ ...unsent, status: 'init', status_code: null })).toBe(false);
    expect(gatewayForgot({ ...unsent, status: 'failure', status_code: null, unsent_at: null })).toBe(false);
    // Given up on at once (the gateway away past the give-up time): its payment id says it was answered.
    expect(gatewayForgot({ ...unsent, status: 'failure', status_code: null, unsent_at: null, payment_id: 'p-82' })).toBe(true);
    expect(gatewayForgot({ ...unsent, status: 'success', status_code: '1000' })).toBe(false);
  });

  it('is not one ended as never sent whose first send landed and was paid after all', () => {
    expect(neverDecided({ status: 'success', status_code: '1000', unsent_at: '2030-01-15T09:30:00.000Z' })).toBe(false);
  });

  it('is not a decline, a cancelled page, a payment in flight or a paid one', () => {
    expect(neverDecided({ ...failed, status_code: '1005' })).toBe(false);
    expect(neverDecided({ ...failed, status_code: '6007' })).toBe(false);
    expect(neverDecided({ ...failed, status: 'pending' })).toBe(false);
    expect(neverDecided({ ...failed, status: 'success', status_code: '1000' })).toBe(false);
  });
});

describe('a payment page abandoned', () => {
  it('is one cancelled unpaid or left to expire, as the payment report counts it, not a decline', () => {
    expect(abandoned({ status: 'failure', status_code: '6007' })).toBe(true);
    expect(abandoned({ status: 'failure', status_code: '4149' })).toBe(true);
    expect(abandoned({ status: 'failure', status_code: '1005' })).toBe(false);
    expect(abandoned({ status: 'failure', status_code: null })).toBe(false);
    expect(abandoned({ status: 'pending', status_code: '6007' })).toBe(false);
  });
});
