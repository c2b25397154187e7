/**
 * Status codes the live service is seen to use (gateway-notes.md). The interface gives no full
 * catalogue; these are the ones payform and its sandbox rely on. Codes travel as digit strings.
 */
import type { Status } from './primitives.js';

export const StatusCode = {
  // success
  TransactionSuccessful: '1000',
  HoldSuccessful: '1002',
  RefundSuccessful: '1004',
  ReverseSuccessful: '1009',
  // pending
  Pending: '2001',
  AntiFraudCheck: '2012',
  AdditionalDataExpected: '2013',
  OtpRequired: '2102',
  Processing: '2119',
  ThreeDsRequired: '2122',
  WaitingForCheckoutRedirect: '2123',
  WaitingForContinueRedirect: '2124',
  // failure
  InvalidData: '4000',
  CardExpired: '4001',
  InsufficientFunds: '4009',
  TransactionLimitExceeded: '4010',
  AmountLimitExceeded: '4012',
  OrderIdExists: '4119',
  InvalidCurrency: '4124',
  InvalidAmount: '4139',
  InvalidCardData: '4144',
  ThreeDsTimeout: '4147',
  Timeout: '4148',
  SessionExpired: '4149',
  InvalidOperation: '4150',
  TransactionRejected: '4153',
  PaymentCancelled: '6007',
} as const;
export type StatusCode = (typeof StatusCode)[keyof typeof StatusCode];

/**
 * The codes of a payment nobody paid and nobody declined: a hosted page cancelled unpaid (6007:
 * by the merchant, or once its checkout ended) or left to expire at the gateway (4149, its
 * `order_timeout`). Abandoned checkouts, told apart from declines.
 */
export const ABANDONED_CODES: readonly string[] = [StatusCode.PaymentCancelled, StatusCode.SessionExpired];

/** Status and text of each known code, as the gateway puts them in `status_description`. */
export const statusCodeInfo: Readonly<Record<StatusCode, { readonly status: Status; readonly description: string }>> = {
  '1000': { status: 'success', description: 'Transaction successful' },
  '1002': { status: 'success', description: 'Successful hold' },
  '1004': { status: 'success', description: 'Refund successful' },
  '1009': { status: 'success', description: 'Reverse successful' },
  '2001': { status: 'pending', description: 'Pending' },
  '2012': { status: 'pending', description: 'Anti-fraud check' },
  '2013': { status: 'pending', description: 'Additional data expected' },
  '2102': { status: 'pending', description: 'OTP required' },
  '2119': { status: 'pending', description: 'Processing' },
  '2122': { status: 'pending', description: '3-D Secure verification required' },
  '2123': { status: 'pending', description: 'Waiting for redirect to the checkout page' },
  '2124': { status: 'pending', description: 'Waiting for redirect to continue payment' },
  '4000': { status: 'failure', description: 'Invalid data' },
  '4001': { status: 'failure', description: 'Card expired' },
  '4009': { status: 'failure', description: 'Insufficient funds' },
  '4010': { status: 'failure', description: 'Transaction limit exceeded' },
  '4012': { status: 'failure', description: 'Amount limit exceeded' },
  '4119': { status: 'failure', description: 'order_id already exists' },
  '4124': { status: 'failure', description: 'Invalid currency' },
  '4139': { status: 'failure', description: 'Invalid amount' },
  '4144': { status: 'failure', description: 'Invalid card data' },
  '4147': { status: 'failure', description: '3-D Secure verification timeout' },
  '4148': { status: 'failure', description: 'Timeout' },
  '4149': { status: 'failure', description: 'Session expired' },
  '4150': { status: 'failure', description: 'Invalid operation' },
  '4153': { status: 'failure', description: 'Transaction rejected' },
  '6007': { status: 'failure', description: 'Payment cancelled' },
};
