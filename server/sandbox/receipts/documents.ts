/** Receipts rendered in the format asked for, with the content type of that format. */
import type { Context } from 'hono';
import type { ReceiptFormat } from '@payform/gateway/wire';
import type { Receipt } from './receipt.js';
import { RECEIPT_CSP, receiptHtml } from './receipt-html.js';
import { receiptPdf } from './receipt-pdf.js';

export interface RenderedReceipt {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly contentType: string;
  readonly extension: 'html' | 'pdf';
}

export async function renderReceipt(receipt: Receipt, format: ReceiptFormat): Promise<RenderedReceipt> {
  if (format === 'html') {
    return { bytes: new TextEncoder().encode(await receiptHtml(receipt)), contentType: 'text/html; charset=utf-8', extension: 'html' };
  }
  return { bytes: new Uint8Array(await receiptPdf(receipt)), contentType: 'application/pdf', extension: 'pdf' };
}

/** The answer carrying one receipt. */
export async function receiptDocument(c: Context, receipt: Receipt, format: ReceiptFormat): Promise<Response> {
  const rendered = await renderReceipt(receipt, format);
  const headers: Record<string, string> = {
    'Content-Type': rendered.contentType,
    'Content-Disposition': `inline; filename="${receipt.fileName}.${rendered.extension}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
  if (rendered.extension === 'html') Object.assign(headers, { 'Content-Security-Policy': RECEIPT_CSP, 'X-Frame-Options': 'DENY' });
  return c.body(rendered.bytes, 200, headers);
}
