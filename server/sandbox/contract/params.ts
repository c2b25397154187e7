/** Client-side parameters (amounts in minor units) for the contract tests. */
import type {
  DirectPaymentParams, DirectSplitPurchaseParams, HostedPaymentParams, HostedSplitPurchaseParams, SplitShare,
} from '@payform/gateway';
import { payerFields } from '../testing/in-process.js';

let sequence = 0;
export function orderId(prefix = 'contract'): string {
  sequence += 1;
  return `${prefix}-${sequence}-${process.pid}`;
}

export function direct(serverUrl: string, overrides: Partial<DirectPaymentParams> = {}, card = '4242424242424242'): DirectPaymentParams {
  return {
    mode: 'direct',
    method: 'purchase',
    amount: 1010,
    currency: 'UAH',
    description: 'Contract order',
    order_id: orderId(),
    ...payerFields(card),
    server_url: serverUrl,
    result_url: 'https://shop.example/return',
    ...overrides,
  } as DirectPaymentParams;
}

export function hosted(serverUrl: string, overrides: Partial<HostedPaymentParams> = {}): HostedPaymentParams {
  return {
    mode: 'hosted',
    method: 'purchase',
    amount: 25000,
    currency: 'UAH',
    description: 'Contract hosted order',
    order_id: orderId('hosted'),
    customer_email: 'olena@example.com',
    customer_phone: '+380501234567',
    server_url: serverUrl,
    result_url: 'https://shop.example/return',
    ...overrides,
  } as HostedPaymentParams;
}

/** A direct payment paid with a token instead of card data. */
export function byToken(serverUrl: string, token: string, overrides: Partial<DirectPaymentParams> = {}): DirectPaymentParams {
  const { cc_number: _n, exp_month: _m, exp_year: _y, card_cvv: _c, ...rest } = direct(serverUrl, overrides) as DirectPaymentParams & Record<string, unknown>;
  return { ...rest, cc_token: token } as DirectPaymentParams;
}

/** A direct split purchase of the shares' total. */
export function directSplit(serverUrl: string, split: SplitShare[], overrides: Partial<DirectPaymentParams> = {}): DirectSplitPurchaseParams {
  const amount = split.reduce((sum, share) => sum + share.amount, 0);
  return { ...direct(serverUrl, { amount, ...overrides }), method: 'purchase', split } as DirectSplitPurchaseParams;
}

export function hostedSplit(serverUrl: string, split: SplitShare[]): HostedSplitPurchaseParams {
  const amount = split.reduce((sum, share) => sum + share.amount, 0);
  return { ...hosted(serverUrl, { amount }), method: 'purchase', split } as HostedSplitPurchaseParams;
}
