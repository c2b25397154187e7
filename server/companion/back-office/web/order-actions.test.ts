// Which actions the back office offers on an order (the companion checks each again when asked).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from './admin-api.js';

type Sellers = readonly { id: string; name: string }[];

/** The page as the companion serves it, naming `sellers` (backOffice.subMerchants); modules read it afresh. */
function pageWith(sellers: Sellers): void {
  vi.resetModules();
  vi.stubGlobal('document', {
    getElementById: () => ({ textContent: JSON.stringify({ apiBase: '', subMerchants: sellers }) }),
    // lit-html makes its template walker as it loads, in a page (the dialogs render none here).
    createTreeWalker: () => ({}),
  });
}

async function actionsWith(sellers: Sellers, detail: OrderDetail) {
  pageWith(sellers);
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

describe('the shares a split capture starts from', () => {
  const sellers = [{ id: 'roastery', name: 'Roastery' }, { id: 'pottery', name: 'Pottery' }];
  const shares = async (amount: number, currency: string) => {
    pageWith(sellers);
    const { suggestedShares } = await import('./operation-dialog.js');
    const detail = { ...held, order: { ...held.order, amount, currency }, totals: { ...held.totals, capturable: amount } } as OrderDetail;
    return suggestedShares(detail, 'split-capture').map((share) => share.amount);
  };

  it('spreads the reserve over the sellers, the first taking what does not divide', async () => {
    expect(await shares(10001, 'UAH')).toEqual([5001, 5000]);
  });

  it('keeps each share a multiple of what the gateway carries in a three-decimal currency', async () => {
    // 10.010 KWD: 5.005 each would be refused (the gateway takes two decimals).
    expect(await shares(10010, 'KWD')).toEqual([5010, 5000]);
  });
});
