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

describe('the actions of an unpaid hosted page', () => {
  const page = { ...held, order: { ...held.order, mode: 'hosted', method: 'purchase', status: 'init', discrepancy: null } } as unknown as OrderDetail;

  it('offers to cancel it, but not once the gateway reported it paid otherwise (held)', async () => {
    expect(await actionsWith([], page)).toEqual(['cancel']);
    const paidShort = { ...page, order: { ...page.order, discrepancy: { status: 'success', paid_amount: 15000 } } } as unknown as OrderDetail;
    expect(await actionsWith([], paidShort)).toEqual([]);
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

describe('the shares a split refund starts from', () => {
  const roastery = '8a1f3c52-6b0e-4d97-a2c4-1e5f7b9d3a60';
  const pottery = '2c7d9e14-3f5a-4b68-9c01-d2e3f4a5b6c7';
  const refund = (amounts: Record<string, number>, status: 'success' | 'pending' | 'failure' = 'success') => ({
    kind: 'refund',
    amount: Object.values(amounts).reduce((sum, amount) => sum + amount, 0),
    status,
    split: Object.entries(amounts).map(([sub_merchant_id, amount]) => ({ sub_merchant_id, amount })),
  });
  const paidInShares = {
    order: { order_id: 'shop-2', mode: 'direct', method: 'purchase', amount: 107000, currency: 'UAH', status: 'success', split: [{ sub_merchant_id: roastery, amount: 42000 }, { sub_merchant_id: pottery, amount: 65000 }] },
    totals: { captured: 0, capture_pending: 0, refunded: 0, refund_pending: 0, voided: false, refundable: 107000, capturable: 0 },
    operations: [],
    events: [],
    attempts: [],
  } as unknown as OrderDetail;
  const shares = async (detail: OrderDetail) => {
    pageWith([{ id: roastery, name: 'Roastery' }, { id: pottery, name: 'Pottery' }]);
    const { suggestedShares } = await import('./operation-dialog.js');
    return suggestedShares(detail, 'split-refund');
  };

  it('is each seller’s share as paid, before any refund', async () => {
    expect(await shares(paidInShares)).toEqual([{ sub_merchant_id: roastery, amount: 42000 }, { sub_merchant_id: pottery, amount: 65000 }]);
  });

  it('is what is left of each share after the refunds made or on their way, not the failed ones', async () => {
    const refunded = {
      ...paidInShares,
      operations: [refund({ [roastery]: 10000 }), refund({ [roastery.toUpperCase()]: 500, [pottery]: 65000 }, 'pending'), refund({ [roastery]: 30000 }, 'failure')],
    } as unknown as OrderDetail;
    expect(await shares(refunded)).toEqual([{ sub_merchant_id: roastery, amount: 31500 }, { sub_merchant_id: pottery, amount: 0 }]);
  });

  it('of an auth, is what its successful captures paid each seller, less what was refunded of it', async () => {
    const captured = {
      ...paidInShares,
      order: { ...paidInShares.order, method: 'auth', split: [{ sub_merchant_id: roastery, amount: 107000 }] },
      operations: [
        { kind: 'capture', amount: 90000, status: 'success', split: [{ sub_merchant_id: roastery, amount: 30000 }, { sub_merchant_id: pottery, amount: 60000 }] },
        refund({ [pottery]: 20000 }),
      ],
    } as unknown as OrderDetail;
    expect(await shares(captured)).toEqual([{ sub_merchant_id: roastery, amount: 30000 }, { sub_merchant_id: pottery, amount: 40000 }]);
  });
});
