// A payment's discrepancy: every distinct report of the gateway's that contradicts the order,
// kept in `payments.mismatch_report` (JSON text). The first report stays where merchants have
// always read it (`discrepancy.status`, `.amount`, …); each distinct one after it is added to
// `discrepancy.later`, bounded, so a payment paid short and then refunded past what was paid in
// the gateway's portal reads whole. A repeat — a webhook redelivered, an unmatched event retried,
// an order state read again — is a report kept already and changes nothing.
import type { LedgerContext, LedgerDb } from './context.js';
import { noticeDue } from './notices.js';
import { toPayment } from './rows.js';
import type { DiscrepancyReport, Payment, PaymentDiscrepancy } from './types.js';
import { PAYMENT_COLUMNS } from './columns.js';

/**
 * How many distinct reports after the first a discrepancy keeps. A person settles a held order
 * long before it meets that many; past it, one flag (`laterTruncated`) says there were more: those
 * a webhook brought stay among the order's events, unmatched, for review — not a list that grows with each, or that drops one kept and then
 * takes it for new when it is retried.
 */
export const LATER_REPORTS_KEPT = 20;

/** The first report, then the later ones, oldest first. */
export function reportsOf(discrepancy: PaymentDiscrepancy): DiscrepancyReport[] {
  const { later = [], laterTruncated: _, settled: __, settledBefore: ___, reopenedPastKept: ____, ...first } = discrepancy;
  return [first, ...later];
}

/** Whether the payment waits for a person: a discrepancy no settlement covers yet. */
export function isHeld(discrepancy: PaymentDiscrepancy | null): boolean {
  return discrepancy !== null && discrepancy.settled === undefined;
}

/**
 * isHeld's settlement half as SQL over `payments.mismatch_report` (JSON text), for a row that has
 * one: a settlement covering every report is its `settled` key, which the next report removes
 * (withReport).
 */
export const UNSETTLED: Readonly<Record<LedgerContext['dialect'], string>> = {
  sqlite: "json_extract(mismatch_report, '$.settled') is null",
  postgres: "(mismatch_report::json -> 'settled') is null",
};

/**
 * Whether the payment is held for a report that its payer paid other figures than the order's
 * (paid short, say) — not a further charge of a recurring payment, another transaction. A
 * success that does not say what was paid cannot settle that (an order state's entry carries
 * the order's amount and need not carry processed_amount): a person does, or the gateway saying
 * what was paid.
 */
export function heldForWhatWasPaid({ discrepancy, amount, currency }: Payment): boolean {
  if (discrepancy === null) return false;
  return reportsOf(discrepancy).some(
    (report) => report.transactionId === undefined && ((report.paidAmount !== null && report.paidAmount !== amount) || (report.paidCurrency !== null && report.paidCurrency !== currency)),
  );
}

/** The newest report the discrepancy keeps. */
export function latestReport(discrepancy: PaymentDiscrepancy): DiscrepancyReport {
  return discrepancy.later?.at(-1) ?? discrepancy;
}

/**
 * How many changes the discrepancy has been through: 1 for its first report, one more for each
 * later one and for the truncation. Each is told the merchant under its own notice id.
 */
export function discrepancyVersion(discrepancy: PaymentDiscrepancy): number {
  return 1 + (discrepancy.later?.length ?? 0) + (discrepancy.laterTruncated ? 1 : 0) + (discrepancy.reopenedPastKept ?? 0);
}

/**
 * Whether two reports say the same thing. Set aside: when each was noted; an unreadable post's
 * status (the payment's own when it came, which moves on while the post is retried); and a
 * payment id only one of them names (a read of the order state carries none).
 */
function sameReport(a: DiscrepancyReport, b: DiscrepancyReport): boolean {
  const anyPaymentId = a.paymentId === null || b.paymentId === null;
  return figuresOf(a, anyPaymentId) === figuresOf(b, anyPaymentId);
}

/** The report's figures as sameReport compares them, whatever their key order. */
function figuresOf({ notedAt: _, ...report }: DiscrepancyReport, anyPaymentId: boolean): string {
  const compared = { ...report, ...(report.unreadable ? { status: null } : {}), ...(anyPaymentId ? { paymentId: null } : {}) };
  return JSON.stringify(compared, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value,
  );
}

/** The discrepancy with `report` added; undefined when it changes nothing (a report kept already, or truncated already). */
function withReport(noted: PaymentDiscrepancy | null, report: DiscrepancyReport): PaymentDiscrepancy | undefined {
  if (noted === null) return report;
  if (reportsOf(noted).some((kept) => sameReport(kept, report))) return undefined;
  const later = noted.later ?? [];
  if (later.length < LATER_REPORTS_KEPT) return reopened({ ...noted, later: [...later, report] });
  if (!noted.laterTruncated) return reopened({ ...noted, laterTruncated: true });
  // Past those kept a report is not noted, but a settled order is held again by it (money may
  // have moved: a refund in the portal), counted so that its version moves. An unsettled one is
  // held already: nothing changes, and a retried event tells nothing twice.
  return noted.settled ? reopened({ ...noted, reopenedPastKept: (noted.reopenedPastKept ?? 0) + 1 }) : undefined;
}

/** A discrepancy that changed: held again, its settlement (if any) kept among the earlier ones. */
function reopened({ settled, ...discrepancy }: PaymentDiscrepancy): PaymentDiscrepancy {
  return settled === undefined ? discrepancy : { ...discrepancy, settledBefore: [...(discrepancy.settledBefore ?? []), settled] };
}

/**
 * Notes what the gateway reported in `payment`'s discrepancy, and its merchant notice due again,
 * unless the discrepancy holds that report already; the payment as it is then, or undefined.
 *
 * `payment.discrepancy` is where to start, as the caller read it: its first try is one UPDATE
 * that applies only while the column still holds that text (a first flag: while it is null), and
 * a repeat of a report kept costs no statement at all. When another writer added a report
 * meanwhile — two companions flagging the payment at once on PostgreSQL, the UPDATE waiting for
 * the other's commit and then finding another text — it reads the column again and retries on
 * that, so neither report is lost. Reports only accumulate, so this ends.
 */
export async function flagDiscrepancy(ctx: LedgerContext, db: LedgerDb, payment: Payment, report: Omit<DiscrepancyReport, 'notedAt'>): Promise<Payment | undefined> {
  const now = ctx.now();
  const noted: DiscrepancyReport = { ...report, notedAt: now };
  // The text as stored: rows.ts parses it, and JSON.stringify gives the same text back.
  let stored = payment.discrepancy === null ? null : JSON.stringify(payment.discrepancy);
  for (;;) {
    const next = withReport(stored === null ? null : (JSON.parse(stored) as PaymentDiscrepancy), noted);
    if (!next) return undefined;
    const row = await db
      .updateTable('payments')
      .set({ mismatch_report: JSON.stringify(next), updated_at: now, ...noticeDue(now) })
      .where('order_id', '=', payment.orderId)
      .where('mismatch_report', stored === null ? 'is' : '=', stored)
      .returning(PAYMENT_COLUMNS)
      .executeTakeFirst();
    if (row) return toPayment(row);
    const current = await db.selectFrom('payments').select('mismatch_report').where('order_id', '=', payment.orderId).executeTakeFirst();
    // No such payment, or none noted after a first flag found one: nothing to add to.
    if (!current || current.mismatch_report === null || current.mismatch_report === stored) return undefined;
    stored = current.mismatch_report;
  }
}
