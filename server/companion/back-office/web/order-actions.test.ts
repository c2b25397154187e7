// Which actions the back office offers on an order (the companion checks each again when asked).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from './admin-api.js';

/** The page as the companion serves it, naming `sellers` (backOffice.subMerchants). */
async function actionsWith(sellers: readonly { id: string; name: string }[], detail: OrderDetail) {
  vi.resetModules();
  vi.stubGlobal('document', { getElementById: () => ({ textContent: JSON.stringify({ apiBase: '', subMerchants: sellers }) }) });
  const { applicableActions } = await import('./order-actions.js');
  return applicableActions(detail);
}

const held = {
  order: { order_id: 'shop-1', mode: 'direct', method: 'auth', amount: 10000, currency: 'UAH', split: null, status: 'success' },
  totals: { captured: 0, capture_pending: 0, refunded: 0, refund_pending: 0, voided: false, refundable: 0, capturable: 11500 },
  operations: [],
  events: [],
  attempts: [],
} as unknown as OrderDetail;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the actions of an authorised hold', () => {
  it('offers a split capture only when the back office was given sellers to split between', async () => {
    expect(await actionsWith([], held)).toEqual(['capture', 'void']);
    expect(await actionsWith([{ id: '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60', name: 'Roastery' }], held)).toEqual(['capture', 'split-capture', 'void']);
  });
});
