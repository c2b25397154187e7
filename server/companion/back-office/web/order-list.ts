// The orders list as a refresh leaves it. A refresh reads again at most the API's page limit of
// the newest orders; a reader who paged back past that keeps the older orders already shown,
// under the cursor that came with them, rather than being sent back to the top.
import type { ListedOrder } from './admin-api.js';
import { periodQuery } from './order-period.js';
import type { Period } from './order-period.js';

export interface OrderList {
  readonly orders: readonly ListedOrder[];
  /** Where older orders are read from (null: there are none). */
  readonly cursor: string | null;
}

/**
 * `newest` (a refresh's answer) on top, then the orders `shown` below the last of them; none
 * below when the refresh read everything shown (its own cursor then goes on from there), or
 * everything there is (no cursor: the orders shown below have left the list).
 */
export function refreshedList(shown: OrderList, newest: OrderList, readEverything: boolean): OrderList {
  if (readEverything || newest.cursor === null || newest.orders.length === 0) return newest;
  const last = newest.orders.at(-1)!.order_id;
  const at = shown.orders.findIndex((order) => order.order_id === last);
  // The refresh's last order is not among those shown (it came in meanwhile, or the old ones all
  // left the filter): what is below it is not known, and the refresh's own cursor reads it.
  if (at === -1) return newest;
  const read = new Set(newest.orders.map((order) => order.order_id));
  const below = shown.orders.slice(at + 1).filter((order) => !read.has(order.order_id));
  return below.length === 0 ? newest : { orders: [...newest.orders, ...below], cursor: shown.cursor };
}

/** What the list is filtered by, as GET /api/orders (and its CSV export) takes it. */
export interface ListFilters {
  readonly kind: 'payments' | 'verifications';
  /** A status, `held`, or `all`. */
  readonly filter: string;
  /** Find's parameters (an e-mail, the card's last four, an amount). */
  readonly search?: Readonly<Record<string, string>> | undefined;
  /** The days the orders were created in (order-period.ts); undefined: any time. */
  readonly period?: Period | undefined;
}

export function listQuery({ kind, filter, search, period }: ListFilters): URLSearchParams {
  const query = new URLSearchParams({ kind });
  if (filter === 'held') query.set('held', 'true');
  else if (filter !== 'all') query.set('status', filter);
  for (const [name, value] of Object.entries({ ...search, ...periodQuery(period) })) query.set(name, value);
  return query;
}
