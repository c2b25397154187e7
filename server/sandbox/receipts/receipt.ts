/**
 * What a receipt says, whatever its format: the rows of one transaction's receipt, or of a
 * credit reference. Receipts exist for successful purchases (regular, split, recurring charges),
 * auths, credits and refunds; credit references for successful credits of a project whose
 * credit references support has enabled.
 */
import { createHash } from 'node:crypto';
import { formatMinorUnits } from '@payform/gateway';
import type { Project } from '../config.js';
import { BRAND_NAMES } from '../state/cards.js';
import type { Payment } from '../state/records.js';
import type { ReceiptSubject } from '../state/store.js';
import { chargeAsPayment } from '../views.js';

export interface Receipt {
  readonly kind: 'receipt' | 'credit_reference';
  readonly title: string;
  /** Receipt or reference number. */
  readonly number: string;
  readonly merchant: string;
  /** Label and value, in print order. */
  readonly rows: readonly (readonly [string, string])[];
  readonly total: string;
  /** The transaction's time (UTC), e.g. `2026-03-01 10:00:00 UTC`. */
  readonly date: string;
  /** A file name without extension, unique per transaction. */
  readonly fileName: string;
  /** Credit references: the sandbox's stand-in for a signature. */
  readonly signature?: string;
}

const METHOD_TITLES = {
  purchase: 'Payment receipt',
  auth: 'Pre-authorisation receipt',
  credit: 'Credit receipt',
  lookup: 'Card verification',
} as const;

function printedTime(time: Date): string {
  return `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The transaction a subject stands for, if it is one a receipt can be made for. */
export function receiptFor(subject: ReceiptSubject, project: Project): Receipt | undefined {
  switch (subject.kind) {
    case 'payment':
      return subject.payment.status === 'success' && subject.payment.method !== 'lookup'
        ? paymentReceipt(subject.payment, project)
        : undefined;
    case 'charge':
      return paymentReceipt(chargeAsPayment(subject.order.payment, subject.charge), project);
    case 'operation': {
      const { operation } = subject;
      if (operation.method !== 'refund' || operation.status !== 'success') return undefined;
      const payment = operation.payment;
      return {
        kind: 'receipt',
        title: 'Refund receipt',
        number: `R-${operation.rrn}`,
        merchant: project.name,
        rows: [
          ['Order', payment.orderId],
          ['Description', payment.description],
          ['Operation', 'Refund'],
          ['Refund transaction', operation.transactionId],
          ['Original transaction', payment.transactionId],
          ...cardRows(payment),
          ['Reference (RRN)', operation.rrn],
          ...(operation.split ?? []).map((share): [string, string] => [`Sub-merchant ${share.subMerchantId}`, formatMinorUnits(share.amount, operation.currency)]),
          ['Status', 'Successful'],
          ...(operation.comment ? [['Comment', operation.comment] as [string, string]] : []),
        ],
        total: formatMinorUnits(operation.amount, operation.currency),
        date: printedTime(operation.processedAt),
        fileName: fileName(payment.orderId, operation.transactionId),
      };
    }
  }
}

function paymentReceipt(payment: Payment, project: Project): Receipt {
  const method = payment.method;
  return {
    kind: 'receipt',
    title: METHOD_TITLES[method],
    number: `R-${payment.rrn}`,
    merchant: project.name,
    rows: [
      ['Order', payment.orderId],
      ['Description', payment.description],
      ['Operation', method === 'auth' ? 'Pre-authorisation (hold)' : method === 'credit' ? 'Credit to card' : 'Purchase'],
      ['Transaction', payment.transactionId],
      ['Payment ID', payment.id],
      ...cardRows(payment),
      ['Approval code', payment.approvalCode],
      ['Reference (RRN)', payment.rrn],
      ...(payment.split ?? []).map((share): [string, string] => [`Sub-merchant ${share.subMerchantId}`, formatMinorUnits(share.amount, payment.currency)]),
      ...(payment.details.customer_email ? [['Customer', payment.details.customer_email] as [string, string]] : []),
      ['Status', 'Successful'],
    ],
    total: formatMinorUnits(payment.amount, payment.currency),
    date: printedTime(payment.processedAt),
    fileName: fileName(payment.orderId, payment.transactionId),
  };
}

function cardRows(payment: Payment): [string, string][] {
  const card = payment.card;
  return card ? [['Card', `${BRAND_NAMES[card.brand]} ${card.mask}`]] : [];
}

/**
 * A credit reference: a document confirming that a credit was paid out. Every issue has a new
 * number, a reissue included. The sandbox signs it with a SHA-256 digest under the project's
 * secret — a stand-in for the live service's qualified electronic signature.
 */
export function creditReference(payment: Payment, project: Project, sequence: number, issuedAt: Date): Receipt {
  const number = `CR-${issuedAt.getUTCFullYear()}-${String(sequence).padStart(6, '0')}`;
  const rows: [string, string][] = [
    ['Reference number', number],
    ['Order', payment.orderId],
    ['Credit transaction', payment.transactionId],
    ['Credited on', printedTime(payment.processedAt)],
    ...cardRows(payment),
    ['Description', payment.description],
    ['Issued', printedTime(issuedAt)],
  ];
  const signature = createHash('sha256')
    .update(`${project.apiSecret}|${rows.map((row) => row.join('=')).join('|')}`)
    .digest('hex');
  return {
    kind: 'credit_reference',
    title: 'Credit reference',
    number,
    merchant: project.name,
    rows,
    total: formatMinorUnits(payment.amount, payment.currency),
    date: printedTime(payment.processedAt),
    fileName: `${fileName(payment.orderId, payment.transactionId)}-${number}`,
    signature,
  };
}

/** Order ids are merchant text: keep file names to safe characters. */
function fileName(orderId: string, transactionId: string): string {
  return `${orderId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64)}-${transactionId}`;
}
