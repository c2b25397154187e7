// The lines of a held order's report: what the gateway said that contradicts the order.
import type { TemplateResult } from 'lit';
import { describe, expect, it } from 'vitest';
import type { DiscrepancyReport, PaymentStatus } from './admin-api.js';
import { reportLines } from './order-views.js';
import { stubbedPage } from './testing/page.js';

stubbedPage();

/** A line as its reader sees it: the template's text with its values in place, tags dropped, no-break spaces as spaces. */
const text = (part: unknown): string => flat(part).replace(/\u00a0/g, ' ');
const flat = (part: unknown): string => {
  if (Array.isArray(part)) return part.map(flat).join('');
  const template = part as TemplateResult | string | number | null | undefined;
  if (template && typeof template === 'object' && 'strings' in template) {
    return template.strings.map((chunk, i) => chunk.replace(/<[^>]*>/g, '') + (i < template.values.length ? flat(template.values[i]) : '')).join('');
  }
  return String(template ?? '');
};

const report = (fields: Partial<DiscrepancyReport>): DiscrepancyReport => ({
  status: 'success', amount: 25_000, currency: 'UAH', paid_amount: null, paid_currency: null, refunded_amount: null, captured_amount: null,
  late_operation: null, restated_operation: null, unreadable: false, transaction_id: null, noted_at: '2030-01-15T09:30:00.000Z', ...fields,
});
const order = (status: PaymentStatus) => ({ amount: 25_000, currency: 'UAH', status });

describe('a held order’s report', () => {
  it('says the gateway reports paid an attempt the ledger ended failed, its figures alike', () => {
    expect(reportLines(report({}), order('failure')).map(text)).toEqual(['The gateway reports this payment as success for UAH 250.00.']);
  });

  it('says nothing of the outcome when it and the figures agree, only what else contradicts the order', () => {
    expect(reportLines(report({ refunded_amount: 30_000 }), order('success')).map(text)).toEqual(['Refunds at the gateway add up to UAH 300.00, more than was paid.']);
  });

  it('says other figures reported for the same outcome', () => {
    expect(reportLines(report({ amount: 24_900 }), order('success')).map(text)).toEqual(['The gateway reports this payment as success for UAH 249.00.']);
  });
});
