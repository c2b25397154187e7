/**
 * Client-side parameters for the contract tests. Tests write amounts as plain minor units; the
 * helpers check them into `MinorUnits`, as a merchant's code does with a computed amount.
 */
import { minorUnits } from '@payform/gateway';
import type {
  DirectPaymentParams, DirectSplitPurchaseParams, HostedPaymentParams, HostedSplitPurchaseParams, LooseAmounts, SplitShare,
} from '@payform/gateway';
import { payerFields } from '../testing/in-process.js';

let sequence = 0;
export function orderId(prefix = 'contract'): string {
  sequence += 1;
  return `${prefix}-${sequence}-${process.pid}`;
}

/** Overrides of a test's parameters, amounts in plain minor units. */
type Overrides<T> = Partial<LooseAmounts<T>>;
type Shares = readonly { readonly amount: number; readonly sub_merchant_id: string }[];

export function direct(serverUrl: string, overrides: Overrides<DirectPaymentParams> = {}, card = '4242424242424242'): DirectPaymentParams {
  return {
    mode: 'direct',
    method: 'purchase',
    currency: 'UAH',
    description: 'Contract order',
    order_id: orderId(),
    ...payerFields(card),
    server_url: serverUrl,
    result_url: 'https://shop.example/return',
    ...overrides,
    amount: minorUnits(overrides.amount ?? 1010),
  } as DirectPaymentParams;
}

export function hosted(serverUrl: string, overrides: Overrides<HostedPaymentParams> = {}): HostedPaymentParams {
  return {
    mode: 'hosted',
    method: 'purchase',
    currency: 'UAH',
    description: 'Contract hosted order',
    order_id: orderId('hosted'),
    customer_email: 'olena@example.com',
    customer_phone: '+380501234567',
    server_url: serverUrl,
    result_url: 'https://shop.example/return',
    ...overrides,
    amount: minorUnits(overrides.amount ?? 25000),
  } as HostedPaymentParams;
}

/** A direct payment paid with a token instead of card data. */
export function byToken(serverUrl: string, token: string, overrides: Overrides<DirectPaymentParams> = {}): DirectPaymentParams {
  const { cc_number: _n, exp_month: _m, exp_year: _y, card_cvv: _c, ...rest } = direct(serverUrl, overrides) as DirectPaymentParams & Record<string, unknown>;
  return { ...rest, cc_token: token } as DirectPaymentParams;
}

/** A direct split purchase of the shares' total. */
export function directSplit(serverUrl: string, split: Shares, overrides: Overrides<DirectPaymentParams> = {}): DirectSplitPurchaseParams {
  const amount = split.reduce((sum, share) => sum + share.amount, 0);
  return { ...direct(serverUrl, { amount, ...overrides }), method: 'purchase', split: shares(split) } as DirectSplitPurchaseParams;
}

export function hostedSplit(serverUrl: string, split: Shares): HostedSplitPurchaseParams {
  const amount = split.reduce((sum, share) => sum + share.amount, 0);
  return { ...hosted(serverUrl, { amount }), method: 'purchase', split: shares(split) } as HostedSplitPurchaseParams;
}

function shares(split: Shares): SplitShare[] {
  return split.map((share) => ({ ...share, amount: minorUnits(share.amount) }));
}
