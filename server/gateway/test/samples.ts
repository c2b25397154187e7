/**
 * Valid wire requests and responses of each kind, for the gateway's tests (and the sandbox's).
 * Tests take one and change a field to see a rule at work.
 */
import type { BrowserFingerprint } from '../wire/card.js';

export const POS_ID = '6b3e0c2a-7d4f-4e55-9a51-3f8a2f0c9d11';
export const PAYMENT_ID = 'a0e6c3f2-1b4d-4c8e-9f7a-2d5b6c8e0f13';
export const OPERATION_ID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
export const TRANSACTION_ID = 'f0e1d2c3-b4a5-4968-8776-655443322110';
export const SUB_MERCHANT_A = '11111111-2222-4333-8444-555555555555';
export const SUB_MERCHANT_B = '66666666-7777-4888-9999-aaaaaaaaaaaa';

export const fingerprint: BrowserFingerprint = {
  browserColorDepth: '24',
  browserScreenHeight: '1080',
  browserScreenWidth: '1920',
  browserJavaEnabled: 'false',
  browserLanguage: 'uk-UA',
  browserTimeZone: 'Europe/Kyiv',
  browserTimeZoneOffset: '-120',
  browserAcceptHeader: 'text/html',
  browserIpAddress: '203.0.113.7',
  browserUserAgent: 'Mozilla/5.0',
};

export const card = { cc_number: '4242424242424242', exp_month: 12, exp_year: 2030, card_cvv: '123' };

const customer = {
  customer_fname: 'Olena',
  customer_lname: 'Koval',
  customer_email: 'olena@example.com',
  customer_phone: '+380501234567',
};

/** The order the direct purchase samples are about: 10.1 UAH. */
const order1001 = { amount: 10.1, currency: 'UAH', description: 'Order 1001', order_id: 'order-1001' } as const;

/** Direct purchase with full card data. */
export const directPurchase = {
  pos_id: POS_ID,
  mode: 'direct',
  method: 'purchase',
  ...order1001,
  order_3ds_bypass: 'supported',
  ...card,
  ...customer,
  customer_ip: '203.0.113.7',
  browser_fingerprint: fingerprint,
  server_url: 'https://shop.example/webhooks/gateway',
  result_url: 'https://shop.example/checkout/return/1',
} as const;

/** Hosted purchase: no card data, no customer_ip, no fingerprint. */
export const hostedPurchase = {
  pos_id: POS_ID,
  mode: 'hosted',
  method: 'purchase',
  amount: 250,
  currency: 'UAH',
  description: 'Order 1002',
  order_id: 'order-1002',
  order_3ds_bypass: 'supported',
  customer_email: 'olena@example.com',
  customer_phone: '+380501234567',
  customer_lang: 'UK',
  order_timeout: 900,
} as const;

export const directLookup = {
  pos_id: POS_ID,
  mode: 'direct',
  method: 'lookup',
  amount: 1,
  currency: 'UAH',
  description: 'Card check',
  order_id: 'lookup-1',
  order_3ds_bypass: 'supported',
  browser_fingerprint: fingerprint,
} as const;

export const hostedLookup = {
  pos_id: POS_ID,
  mode: 'hosted',
  method: 'lookup',
  amount: 1,
  currency: 'UAH',
  description: 'Card check',
  order_id: 'lookup-2',
  order_3ds_bypass: 'supported',
} as const;

export const split = [
  { amount: 70, sub_merchant_id: SUB_MERCHANT_A },
  { amount: 30, sub_merchant_id: SUB_MERCHANT_B },
];

/** A payment response object as the gateway answers a direct create (3-D Secure pending). */
export const paymentResponse = {
  payment_id: PAYMENT_ID,
  ...order1001,
  gateway_order_id: 'GW-55501',
  billing_order_id: 'B-1',
  transaction_id: TRANSACTION_ID,
  pos_id: POS_ID,
  mode: 'direct',
  method: 'purchase',
  status: 'pending',
  status_code: '2122',
  status_description: '3-D Secure verification required',
  user_action_required: true,
  user_action_url: 'https://gateway.example/3ds/a0e6c3f2',
  eci: null,
  mcc: '5999',
  options_3ds: 'supported',
  cc_mask: '424242******4242',
  cc_token: 'tok_1',
  cc_token_expiration: '2030-12-31T00:00:00',
  customer_id: null,
  customer_ip: '203.0.113.7',
  created_at: '2025-03-01T10:00:00',
  processed_at: '2025-03-01T10:00:01.250',
  fee: { amount: 0.25, currency: 'UAH' },
  fixed_fee: { amount: 0.1, currency: 'UAH' },
  percent_fee: { amount: '0.15', currency: 'UAH' },
  receipt_url: null,
};

/** A secondary operation response (a partial capture of 7.5 UAH). */
export const captureResponse = {
  operation_id: OPERATION_ID,
  payment_id: PAYMENT_ID,
  order_id: 'order-1001',
  transaction_id: TRANSACTION_ID,
  pos_id: POS_ID,
  mode: 'direct',
  method: 'capture',
  amount: 7.5,
  currency: 'UAH',
  status: 'success',
  status_code: '1000',
  status_description: 'Transaction successful',
  created_at: '2025-03-01T10:05:00',
  processing_time: '2025-03-01T10:05:00.5',
  fee: null,
  comment: 'partial',
};
