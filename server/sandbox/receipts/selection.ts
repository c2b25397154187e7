/**
 * Which transactions a receipt request means: one order's incoming transaction or the one
 * named by transactionId, a credit reference, or every receipt of a project's day.
 */
import { formatTimestamp } from '@payform/gateway/wire';
import type { DateReceiptsQuery, OrderReceiptQuery, Method } from '@payform/gateway/wire';
import type { Project } from '../config.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import type { Operation, Order, Payment } from '../state/records.js';
import { Refusal } from '../state/refusal.js';
import type { ReceiptSubject } from '../state/store.js';
import { chargeAsPayment } from '../views.js';
import { renderReceipt } from './documents.js';
import { creditReference, receiptFor } from './receipt.js';
import type { Receipt } from './receipt.js';

export type Transaction = { readonly kind: 'payment'; readonly payment: Payment } | { readonly kind: 'operation'; readonly operation: Operation };

/**
 * One transaction of an order by operation name: the payment (for a recurring payment its
 * latest charge, or the charge named by transactionId) or the latest capture/void/refund,
 * declined ones included: each was reported by webhook, so each can be re-sent.
 */
export function findTransaction(order: Order, method: Method, requested?: string): Transaction | undefined {
  const payment = order.payment;
  // The sandbox's ids are lower case; a UUID may be written in upper case (RFC 4122), as the
  // other endpoints take it.
  const transactionId = requested?.toLowerCase();
  if (method === payment.method) {
    const charges = (order.recurring?.charges ?? []).map((charge) => chargeAsPayment(payment, charge));
    const all = [payment, ...charges];
    const chosen = transactionId ? all.find((candidate) => candidate.transactionId === transactionId) : all.at(-1);
    return chosen ? { kind: 'payment', payment: chosen } : undefined;
  }
  const operations = order.operations.filter((operation) => operation.method === method);
  const chosen = transactionId ? operations.find((operation) => operation.transactionId === transactionId) : operations.at(-1);
  return chosen ? { kind: 'operation', operation: chosen } : undefined;
}

function subjectByTransaction(order: Order, transactionId: string): ReceiptSubject | undefined {
  if (order.payment.transactionId === transactionId) return { kind: 'payment', order, payment: order.payment };
  const operation = order.operations.find((candidate) => candidate.transactionId === transactionId);
  if (operation) return { kind: 'operation', order, operation };
  const charge = order.recurring?.charges.find((candidate) => candidate.transactionId === transactionId);
  return charge ? { kind: 'charge', order, charge } : undefined;
}

function requireCreditReferences(project: Project): void {
  if (!project.creditReferences) {
    throw new Refusal(400, 'Credit references are not enabled for this project: support enables them', { code: 'P-403' });
  }
}

/** `numbers` gives a credit reference its number (SandboxStore.creditReferenceNumbers). */
export function orderReceipt(gateway: SimulatedGateway, project: Project, order: Order, query: OrderReceiptQuery, numbers: () => number): Receipt {
  if (query.creditReference === 'true') {
    requireCreditReferences(project);
    const payment = order.payment;
    if (payment.transactionId !== query.transactionId || payment.method !== 'credit' || payment.status !== 'success') {
      throw Refusal.notFound(`Successful credit transaction ${query.transactionId ?? ''} of order ${order.orderId}`);
    }
    return creditReference(payment, project, numbers(), gateway.clock.now());
  }
  // The interface requires transactionId for credit transactions: without it the order's incoming
  // transaction is meant, and a payout has none. A client that leaves it out fails live.
  if (query.transactionId === undefined && order.payment.method === 'credit') {
    throw Refusal.invalidField('transactionId', 'is required for the receipt of a credit (a payout): send the credit’s transaction_id');
  }
  const subject = query.transactionId
    ? subjectByTransaction(order, query.transactionId)
    : { kind: 'payment' as const, order, payment: order.payment };
  if (!subject) throw Refusal.notFound(`Transaction ${query.transactionId ?? ''} of order ${order.orderId}`);
  // The interface makes these receipts of purchases, auths and credits only: a refund's is the
  // page its answer and webhook link (receipt_url), so a client that reads it here fails live.
  const receipt = subject.kind === 'operation' ? undefined : receiptFor(subject, project);
  if (!receipt) {
    throw Refusal.notFound(`Receipt for order ${order.orderId} (receipts exist for successful purchases, auths and credits; a refund's is its receipt_url)`);
  }
  return receipt;
}

/**
 * The files of a day's ZIP: receipts of that day's successful transactions of the method
 * (purchase and auth by default), split purchases excluded; or the day's credit references.
 * The day is the transaction's UTC date.
 */
export async function dayReceipts(
  gateway: SimulatedGateway,
  project: Project,
  date: string,
  query: DateReceiptsQuery,
  numbers: () => number,
): Promise<Record<string, Uint8Array>> {
  const methods: readonly string[] = query.method ? [query.method] : ['purchase', 'auth'];
  const onDay = (time: Date) => formatTimestamp(time).startsWith(date);
  const receipts: Receipt[] = [];
  if (query.format === 'signed_pdf') requireCreditReferences(project);
  for (const order of gateway.store.orders(project.posId)) {
    const payment = order.payment;
    if (!methods.includes(payment.method) || payment.status !== 'success' || payment.endpoint === 'split') continue;
    if (query.format === 'signed_pdf') {
      if (onDay(payment.processedAt)) {
        receipts.push(creditReference(payment, project, numbers(), gateway.clock.now()));
      }
      continue;
    }
    const subjects: ReceiptSubject[] = [
      ...(onDay(payment.processedAt) ? [{ kind: 'payment' as const, order, payment }] : []),
      ...(order.recurring?.charges ?? []).filter((charge) => onDay(charge.createdAt)).map((charge) => ({ kind: 'charge' as const, order, charge })),
    ];
    for (const subject of subjects) {
      const receipt = receiptFor(subject, project);
      if (receipt) receipts.push(receipt);
    }
  }
  const files: Record<string, Uint8Array> = {};
  for (const receipt of receipts) {
    const rendered = await renderReceipt(receipt, query.format);
    files[`${receipt.fileName}.${rendered.extension}`] = rendered.bytes;
  }
  return files;
}
