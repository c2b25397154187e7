/**
 * The demo shop's products, shared by the pages (what to show) and the shop's server (what to
 * charge: the amount of a checkout is always computed here, never taken from the browser).
 * Kavarnia is a small marketplace: each product has a seller, a sub-merchant of the test
 * project, so an order can be paid as a split purchase.
 */
import { TEST_SUB_MERCHANTS } from '@payform/gateway/testing';

export const SHOP_CURRENCY = 'UAH';

export type ProductArt = 'bag' | 'cup' | 'dripper' | 'kettle' | 'grinder' | 'filters';

export interface Seller {
  readonly id: string;
  /** The gateway's sub-merchant this seller is paid as. */
  readonly subMerchantId: string;
  readonly name: string;
}

export interface Product {
  readonly id: string;
  readonly seller: Seller['id'];
  /** Minor units of SHOP_CURRENCY. */
  readonly price: number;
  readonly art: ProductArt;
  /** The label colour of the product's picture. */
  readonly tint: 'amber' | 'rose' | 'teal' | 'clay' | 'slate' | 'sand' | 'plum' | 'olive';
  readonly name: { readonly en: string; readonly uk: string };
  readonly note: { readonly en: string; readonly uk: string };
}

export const SELLERS: readonly Seller[] = [
  { id: 'roasters', subMerchantId: TEST_SUB_MERCHANTS[0].id, name: 'Kavarnia Roasters' },
  { id: 'ceramics', subMerchantId: TEST_SUB_MERCHANTS[1].id, name: 'Kosiv Ceramics' },
  { id: 'tools', subMerchantId: TEST_SUB_MERCHANTS[2].id, name: 'Brew Tools Co.' },
];

export const PRODUCTS: readonly Product[] = [
  {
    id: 'house-espresso', seller: 'roasters', price: 42_000, art: 'bag', tint: 'amber',
    name: { en: 'House espresso blend', uk: 'Домашній еспресо-бленд' },
    note: { en: '250 g · chocolate, hazelnut, a little cherry', uk: '250 г · шоколад, фундук, трохи вишні' },
  },
  {
    id: 'ethiopia-guji', seller: 'roasters', price: 48_500, art: 'bag', tint: 'rose',
    name: { en: 'Ethiopia Guji, filter roast', uk: 'Ефіопія Гуджі, під фільтр' },
    note: { en: '250 g · jasmine, peach, bergamot', uk: '250 г · жасмин, персик, бергамот' },
  },
  {
    id: 'colombia-decaf', seller: 'roasters', price: 39_000, art: 'bag', tint: 'olive',
    name: { en: 'Colombia Huila decaf', uk: 'Колумбія Уїла без кофеїну' },
    note: { en: '250 g · caramel, red apple', uk: '250 г · карамель, червоне яблуко' },
  },
  {
    id: 'kosiv-cup', seller: 'ceramics', price: 65_000, art: 'cup', tint: 'teal',
    name: { en: 'Kosiv hand-painted cup', uk: 'Косівська мальована чашка' },
    note: { en: '200 ml · glazed by hand, one of a kind', uk: '200 мл · глазур ручної роботи' },
  },
  {
    id: 'clay-dripper', seller: 'ceramics', price: 89_000, art: 'dripper', tint: 'clay',
    name: { en: 'Clay pour-over dripper', uk: 'Глиняний пуровер' },
    note: { en: 'Fits size 02 filters', uk: 'Для фільтрів розміру 02' },
  },
  {
    id: 'gooseneck-kettle', seller: 'tools', price: 214_900, art: 'kettle', tint: 'slate',
    name: { en: 'Gooseneck kettle', uk: 'Чайник з гусячою шийкою' },
    note: { en: '0.9 l · steady, slow pour', uk: '0,9 л · рівний, повільний струмінь' },
  },
  {
    id: 'hand-grinder', seller: 'tools', price: 329_900, art: 'grinder', tint: 'plum',
    name: { en: 'Hand grinder', uk: 'Ручна кавомолка' },
    note: { en: 'Steel burrs, 40 grind steps', uk: 'Сталеві жорна, 40 кроків помелу' },
  },
  {
    id: 'paper-filters', seller: 'tools', price: 14_900, art: 'filters', tint: 'sand',
    name: { en: 'Paper filters ×100', uk: 'Паперові фільтри ×100' },
    note: { en: 'Unbleached, size 02', uk: 'Небілені, розмір 02' },
  },
];

export const MAX_QUANTITY = 20;

export interface CartLine {
  readonly product: string;
  readonly quantity: number;
}

export const productById = (id: string): Product | undefined => PRODUCTS.find((product) => product.id === id);
export const sellerById = (id: string): Seller | undefined => SELLERS.find((seller) => seller.id === id);

/** Minor units of the lines that name known products (unknown ones are left out). */
export function cartTotal(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + (productById(line.product)?.price ?? 0) * line.quantity, 0);
}

/** Each seller's part of the cart in minor units, in catalog order: the shares of a split purchase. */
export function sellerShares(lines: readonly CartLine[]): { seller: Seller; amount: number }[] {
  return SELLERS.map((seller) => ({
    seller,
    amount: cartTotal(lines.filter((line) => productById(line.product)?.seller === seller.id)),
  })).filter((share) => share.amount > 0);
}
