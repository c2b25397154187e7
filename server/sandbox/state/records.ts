/**
 * What the sandbox remembers about orders: the primary payment, the secondary operations on it,
 * and the transactions of a recurring payment. Amounts are integer minor units, times are the
 * sandbox clock's. Card numbers and CVVs are never kept: a payment holds only the card's mask,
 * brand, expiry and how the sandbox treats it.
 */
import type { CardBrand, TestCardOutcome } from '@payform/gateway/testing';
import type { MinorUnits } from './amounts.js';
import type { Mode, Status, StatusCode, ThreeDsBypass } from '@payform/gateway/wire';
import type { Scheduled } from '../clock.js';

export type PrimaryMethod = 'purchase' | 'auth' | 'lookup' | 'credit';
export type SecondaryMethod = 'capture' | 'void' | 'refund';

/** How the sandbox treats a card: a test card's outcome, a wallet token, or a card it does not know. */
export type CardBehaviour = TestCardOutcome | 'wallet' | 'not_a_test_card';

export interface CardOnFile {
  readonly brand: CardBrand | 'unknown';
  /** `424242******4242`: first six and last four digits. */
  readonly mask: string;
  readonly expMonth: number;
  readonly expYear: number;
  readonly behaviour: CardBehaviour;
  /** `card`, or the wallet a `rcr:` token came from. */
  readonly payway: string;
}

/** One sub-merchant's share of a split purchase, capture or refund. */
export interface Share {
  readonly subMerchantId: string;
  readonly amount: MinorUnits;
  /** Commission on this share (split refunds' split_fee). */
  readonly fee?: MinorUnits;
}

/** Commission of an operation; the total is their sum. */
export interface Fees {
  readonly fixed: MinorUnits;
  readonly percent: MinorUnits;
}

/** Request fields a payment keeps and echoes, under their wire names. */
export interface PaymentDetails {
  readonly customer_id?: string;
  readonly customer_ip?: string;
  readonly customer_fname?: string;
  readonly customer_lname?: string;
  readonly customer_patronym?: string;
  readonly customer_email?: string;
  readonly customer_phone?: string;
  readonly customer_birthday?: string;
  readonly customer_country?: string;
  readonly customer_lang?: string;
  readonly customer_tax_id?: string;
  readonly server_url?: string;
  readonly result_url?: string;
  readonly merchant_mcc?: string;
  readonly payload?: string;
  readonly validation_url?: string;
  readonly order_3ds_bypass?: ThreeDsBypass;
  readonly products?: readonly Readonly<Record<string, unknown>>[];
}

export const PAYMENT_DETAIL_FIELDS = [
  'customer_id', 'customer_ip', 'customer_fname', 'customer_lname', 'customer_patronym', 'customer_email',
  'customer_phone', 'customer_birthday', 'customer_country', 'customer_lang', 'customer_tax_id', 'server_url',
  'result_url', 'merchant_mcc', 'payload', 'validation_url', 'order_3ds_bypass', 'products',
] as const satisfies readonly (keyof PaymentDetails)[];

/** Where a status came from: its code and, when it says more than the code's text, a description. */
export interface StatusState {
  status: Status;
  statusCode: StatusCode | null;
  statusDescription?: string | undefined;
  processedAt: Date;
}

export interface Payment extends StatusState {
  readonly id: string;
  readonly posId: string;
  readonly orderId: string;
  readonly mode: Mode;
  readonly method: PrimaryMethod;
  /** Which endpoint created it: the split purchase answers with its own field names. */
  readonly endpoint: 'payment' | 'split' | 'credit';
  readonly amount: MinorUnits;
  readonly currency: string;
  readonly description: string;
  readonly details: PaymentDetails;
  /** The sandbox's address as the creating request reached it; links are built on it. */
  readonly baseUrl: string;
  readonly split: readonly Share[] | undefined;
  readonly transactionId: string;
  readonly gatewayOrderId: string;
  readonly billingOrderId: string;
  /** Capability in the public receipt link. */
  readonly receiptKey: string;
  /** Authorisation code and retrieval reference number, printed on receipts. */
  readonly approvalCode: string;
  readonly rrn: string;
  readonly createdAt: Date;
  card: CardOnFile | undefined;
  token: { readonly value: string; readonly expiration: string } | undefined;
  eci: string | null;
  fees: Fees | null;
  /** Hosted payments (and direct lookups without card data): the checkout form's id. */
  checkoutId: string | undefined;
  /** A pending 3-D Secure challenge's id. */
  challengeId: string | undefined;
  /** Hosted payments in init: when order_timeout ends them. */
  expiresAt: Date | undefined;
  /** The timer that will move the payment on by itself (expiry, slow card, challenge timeout). */
  timer: Scheduled | undefined;
}

export interface Operation extends StatusState {
  readonly id: string;
  readonly payment: Payment;
  readonly method: SecondaryMethod;
  /** The endpoint it came through; decides the response's quirks. */
  readonly request: 'capture' | 'split_capture' | 'void' | 'refund' | 'split_refund';
  readonly amount: MinorUnits;
  readonly currency: string;
  /** The amount was omitted: a full capture or refund. */
  readonly full: boolean;
  readonly transactionId: string;
  readonly createdAt: Date;
  readonly comment: string | undefined;
  readonly serverUrl: string | undefined;
  readonly split: readonly Share[] | undefined;
  readonly fees: Fees | null;
  readonly receiptKey: string;
  readonly approvalCode: string;
  readonly rrn: string;
}

/** One later charge of a recurring payment (a transaction of the same order). */
export interface RecurringCharge {
  readonly transactionId: string;
  readonly amount: MinorUnits;
  /** Its own commission, as any purchase of its amount pays. */
  readonly fees: Fees;
  readonly createdAt: Date;
  readonly receiptKey: string;
  readonly approvalCode: string;
  readonly rrn: string;
}

export interface Recurring {
  readonly id: string;
  status: 'active' | 'cancelled';
  readonly charges: RecurringCharge[];
}

export interface Order {
  readonly posId: string;
  readonly orderId: string;
  readonly payment: Payment;
  readonly operations: Operation[];
  recurring: Recurring | undefined;
}

/** Successful operations of a kind on an order. */
export function succeeded(order: Order, method: SecondaryMethod): Operation[] {
  return order.operations.filter((operation) => operation.method === method && operation.status === 'success');
}

export function sumAmounts(items: readonly { amount: MinorUnits }[]): MinorUnits {
  return items.reduce((sum, item) => sum + item.amount, 0);
}
