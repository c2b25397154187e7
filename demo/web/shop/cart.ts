/**
 * The shopping cart, kept in this browser (localStorage) so it survives the trip to 3-D Secure
 * or the hosted page and back. It holds product ids and quantities only: prices come from the
 * catalog, and the amount charged is computed again on the shop's server.
 */
import { MAX_QUANTITY, productById } from '../../catalog.js';
import type { CartLine } from '../../catalog.js';

const KEY = 'kavarnia:cart';
const listeners = new Set<() => void>();

export function cartLines(): CartLine[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored.filter(
      (line): line is CartLine =>
        typeof line?.product === 'string' && productById(line.product) !== undefined && Number.isInteger(line.quantity) && line.quantity >= 1,
    ).map((line) => ({ product: line.product, quantity: Math.min(line.quantity, MAX_QUANTITY) }));
  } catch {
    return [];
  }
}

export const cartCount = (): number => cartLines().reduce((count, line) => count + line.quantity, 0);

export function setQuantity(product: string, quantity: number): void {
  const lines = cartLines().filter((line) => line.product !== product);
  const kept = Math.min(Math.max(0, Math.trunc(quantity)), MAX_QUANTITY);
  const index = cartLines().findIndex((line) => line.product === product);
  if (kept > 0) lines.splice(index === -1 ? lines.length : index, 0, { product, quantity: kept });
  save(lines);
}

export function addToCart(product: string): void {
  setQuantity(product, (cartLines().find((line) => line.product === product)?.quantity ?? 0) + 1);
}

export function clearCart(): void {
  save([]);
}

/** Calls `listener` after every change, in this tab or another. */
export function onCartChange(listener: () => void): void {
  listeners.add(listener);
}

window.addEventListener('storage', (event) => {
  if (event.key === KEY) listeners.forEach((listener) => listener());
});

function save(lines: CartLine[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(lines));
  } catch {
    // Storage refused: the cart lives as long as the page.
  }
  listeners.forEach((listener) => listener());
}
