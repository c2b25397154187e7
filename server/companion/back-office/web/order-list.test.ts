// The orders list after a live refresh, for a reader who paged back past what a refresh reads.
import { describe, expect, it } from 'vitest';
import type { ListedOrder } from './admin-api.js';
import { refreshedList } from './order-list.js';

const order = (n: number, status: ListedOrder['status'] = 'success') => ({ order_id: `order-${n}`, status }) as ListedOrder;
/** Orders from..to, newest first, as the API lists them. */
const orders = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => order(from - i));
const ids = (list: { orders: readonly ListedOrder[] }) => list.orders.map((listed) => listed.order_id);

describe('a refresh of the orders list', () => {
  const shown = { orders: orders(300, 51), cursor: 'after-51' };

  it('keeps the older orders already shown below the newest it read, with the cursor they came with', () => {
    // Two new orders came in: the refresh reads the newest 200, 302..103.
    const kept = refreshedList(shown, { orders: orders(302, 103), cursor: 'after-103' }, false);
    expect(ids(kept)).toEqual(ids({ orders: orders(302, 51) }));
    expect(kept.cursor).toBe('after-51');
  });

  it('takes what the refresh says of an order it read again, and never shows one twice', () => {
    const newest = [...orders(300, 250), order(249, 'failure'), ...orders(248, 101)];
    const kept = refreshedList(shown, { orders: newest, cursor: 'after-101' }, false);
    expect(kept.orders.find((listed) => listed.order_id === 'order-249')?.status).toBe('failure');
    expect(new Set(ids(kept)).size).toBe(kept.orders.length);
    expect(kept.orders).toHaveLength(250);
  });

  it('is the refresh alone when it read everything shown, or when its last order is not among them', () => {
    const newest = { orders: orders(302, 103), cursor: 'after-103' };
    expect(refreshedList(shown, newest, true)).toBe(newest);
    const elsewhere = { orders: orders(900, 701), cursor: 'after-701' };
    expect(refreshedList(shown, elsewhere, false)).toBe(elsewhere);
    const empty = { orders: [], cursor: null };
    expect(refreshedList(shown, empty, false)).toBe(empty);
  });

  it('drops the orders shown below when the refresh read all there is: they left the filter', async () => {
    // Filtered on pending: 300..151 are still pending, 150..51 were paid meanwhile.
    const stillPending = { orders: orders(300, 151), cursor: null };
    expect(refreshedList(shown, stillPending, false)).toBe(stillPending);
  });
});
