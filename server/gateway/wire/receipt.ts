/**
 * Receipts (interface endpoints 10 and 11): path and query parameters. The answers are
 * documents, not JSON: HTML, PDF, or a ZIP archive for a date.
 */
import * as z from 'zod';
import { IsoDate, OrderId, Uuid } from './primitives.js';

export const ReceiptFormat = z.enum(['html', 'pdf', 'signed_pdf']);
export type ReceiptFormat = z.infer<typeof ReceiptFormat>;

/** Query values travel as strings. */
const QueryBoolean = z.enum(['true', 'false']);

export const OrderReceiptParams = z.strictObject({ pos_id: Uuid, order_id: OrderId });

/**
 * ?format&transactionId&creditReference. A credit reference is `creditReference=true` with
 * `format=signed_pdf` and names its credit transaction; `signed_pdf` is for nothing else.
 */
export const OrderReceiptQuery = z
  .strictObject({ format: ReceiptFormat, transactionId: Uuid.optional(), creditReference: QueryBoolean.optional() })
  .superRefine((query, ctx) => {
    const creditReference = query.creditReference === 'true';
    if (creditReference !== (query.format === 'signed_pdf')) {
      ctx.addIssue({ code: 'custom', path: ['format'], message: 'is signed_pdf exactly when creditReference is true' });
    }
    if (creditReference && query.transactionId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['transactionId'], message: 'is required for a credit reference' });
    }
  });
export type OrderReceiptQuery = z.infer<typeof OrderReceiptQuery>;

export const DateReceiptsParams = z.strictObject({ pos_id: Uuid, date: IsoDate });

/** ?format&method. Without method: purchase and auth receipts. signed_pdf is for credit only. */
export const DateReceiptsQuery = z
  .strictObject({ format: ReceiptFormat, method: z.enum(['purchase', 'auth', 'credit']).optional() })
  .superRefine((query, ctx) => {
    if (query.format === 'signed_pdf' && query.method !== 'credit') {
      ctx.addIssue({ code: 'custom', path: ['format'], message: 'signed_pdf needs method credit' });
    }
  });
export type DateReceiptsQuery = z.infer<typeof DateReceiptsQuery>;
