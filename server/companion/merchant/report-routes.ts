/**
 * What the back office draws and downloads (bearer ADMIN_TOKEN):
 *
 *   GET /api/receipts/:date      ?format=html|pdf&method=purchase|auth  — the day's receipts, a ZIP
 *   GET /api/receipts/:date/link the same query: a signed link to the same ZIP, and whether it is empty
 *   GET /api/stats              ?from=&to=&bucket=hour|day&time_zone=|utc_offset_minutes=
 *                               payments per bucket by outcome, with the success rate
 *   GET /api/stats/money        ?from=&to=&dated_by=order|movement  what the period's payments (or movements) came to per currency
 *
 * The money is a route of its own: it reads each payment's operations, dearer than the counts,
 * which the back office reads again at every change the live feed brings.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { IsoDate } from '@payform/gateway/wire';
import { isTimeZone } from '../../ledger/index.js';
import type { Context } from 'hono';
import type { GatewayDocument } from '@payform/gateway';
import type { CompanionEnv } from '../context.js';
import { AmountView } from '../http/amounts.js';
import { ApiProblem } from '../http/problem.js';
import { queryInteger } from './query-integer.js';
import { QueryInstant } from './query-instant.js';
import { validate } from '../http/validate.js';
import { fromGateway } from './balance-routes.js';
import { sendDocument } from './documents.js';
import { DOWNLOADS_PATH, issueLink, LINK_PARAMS, linkId } from './download-links.js';
import type { ReceiptsLink } from './download-links.js';
import { keptDownloads } from './kept-downloads.js';

export const DateReceiptsQuery = z.strictObject({
  format: z.enum(['html', 'pdf']).default('pdf'),
  method: z.enum(['purchase', 'auth']).optional(),
});

/** The ZIP's signed link (download-links.ts): its query, expiry and signature. */
export const SignedDateReceiptsQuery = DateReceiptsQuery.extend(LINK_PARAMS);

/** Where a link to a day's ZIP points (download-routes.ts). */
export const receiptsDownloadPath = (date: string) => `${DOWNLOADS_PATH}/receipts/${date}`;

type DateReceipts = z.output<typeof DateReceiptsQuery>;

/** The day's receipts from the gateway: the date judged first (400 naming it). */
function receiptsOf(c: Context<CompanionEnv>, date: string, query: DateReceipts) {
  if (!IsoDate.safeParse(date).success) throw ApiProblem.invalid({ date: 'must be a date yyyy-MM-dd' });
  return fromGateway(() => c.var.services.gateway.receipts.forDate(date, { format: query.format, ...(query.method ? { method: query.method } : {}) }));
}

/** The day's ZIP as the companion sends it, to the bearer route and the signed link alike (`kept` when its link kept it). */
export async function dayReceipts(c: Context<CompanionEnv>, date: string, query: DateReceipts, kept?: GatewayDocument): Promise<Response> {
  return sendDocument(c, kept ?? (await receiptsOf(c, date, query)), `receipts-${date}.zip`);
}

/**
 * A ZIP with no file in it: one that starts with its end record (signature PK 5 6), as the
 * gateway sends a day without a receipt. The back office says so rather than save it.
 */
const emptyZip = (body: Uint8Array) => body[0] === 0x50 && body[1] === 0x4b && body[2] === 0x05 && body[3] === 0x06;

export const StatsQuery = z
  .strictObject({
    from: QueryInstant.optional(),
    to: QueryInstant.optional(),
    bucket: z.enum(['hour', 'day']).default('hour'),
    time_zone: z
      .string()
      .refine(isTimeZone, 'is not a known time zone: an IANA name such as Europe/Kyiv')
      .optional()
      .describe('IANA time zone whose local midnights start the days (a day the clocks change on is 23 or 25 hours long) and whose hours the hour buckets follow, e.g. Europe/Kyiv'),
    utc_offset_minutes: queryInteger('must be a whole number of minutes', -840, 840)
      .optional()
      .describe('A fixed offset east of UTC, in minutes, where the buckets start all period long (no clock change followed); not with time_zone'),
  })
  .refine((query) => query.time_zone === undefined || query.utc_offset_minutes === undefined, { path: ['time_zone'], message: 'is not taken with utc_offset_minutes: send one of them' });

const Counts = {
  total: z.int(),
  succeeded: z.int(),
  failed: z.int().describe('Declined by the gateway'),
  in_flight: z.int(),
  not_sent: z.int().describe('Attempts the gateway never decided: not sent (unreachable, credentials, a field refused) or never reached it; neither a decline nor in flight'),
  cancelled: z.int().describe('Unpaid hosted payments cancelled (6007) by the merchant or by reconciliation once their session ended, or left to expire at the gateway (4149): abandoned checkouts, not declines'),
  success_rate: z.number().nullable().describe('succeeded / (succeeded + failed): what customers were told; null when none was decided'),
};

export const MoneyQuery = z
  .strictObject({
    from: QueryInstant.optional(),
    to: QueryInstant.optional(),
    dated_by: z
      .enum(['order', 'movement'])
      .default('order')
      .describe('order: each order’s money in the period it was created in, its later refunds too (a closed period changes as they come); movement: each sale, capture and refund in the period it was made, as GET /api/movements lists them (a closed period changes only by what was pending at its close, counted on the day it was begun once it succeeds)'),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.to > query.from, { path: ['to'], message: 'must be after from' });

export const CurrencyTotalsView = z.object({
  currency: z.string().describe('ISO 4217 code: amounts of different currencies are never added together'),
  // Not `captured`: an order's totals.captured counts an auth's captures alone, where this is every payment's money.
  paid: AmountView.describe('What customers paid: purchases that succeeded and the successful captures of auths (an auth not captured is a reserve, not income), in integer minor units'),
  refunded: AmountView.describe('Successful refunds, partial ones as made, in integer minor units'),
  net: AmountView.describe('paid − refunded (negative when refunds the gateway reported went past what was paid), in integer minor units'),
});

export const MoneyView = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  dated_by: z.enum(['order', 'movement']),
  money: z
    .array(CurrencyTotalsView)
    .describe('One entry per currency that has money in the period (by code). Dated by order: what the payments created in the period came to, their later refunds too; by movement: what was paid and refunded in it. Pending operations count once they succeed'),
});

export const StatsView = z.object({
  bucket: z.enum(['hour', 'day']),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  buckets: z.array(z.object({ start: z.iso.datetime(), ...Counts })),
  totals: z.object(Counts),
});

/** The stats' default windows: the last day by hour, the last 30 days by day (the money's too). */
const DEFAULT_WINDOW = { hour: 24 * 3_600_000, day: 30 * 24 * 3_600_000 } as const;

export function reportRoutes(): Hono<CompanionEnv> {
  const reports = new Hono<CompanionEnv>();

  reports.get('/receipts/:date', validate('query', DateReceiptsQuery), (c) => dayReceipts(c, c.req.param('date'), c.req.valid('query')));
  // Asked of the gateway now, so what it refuses, and a day without receipts, are said to the
  // back office before the browser is sent anywhere; the ZIP is kept for the link's download.
  reports.get('/receipts/:date/link', validate('query', DateReceiptsQuery), async (c) => {
    const date = c.req.param('date');
    const document = await receiptsOf(c, date, c.req.valid('query'));
    const link = issueLink(c, receiptsDownloadPath(date));
    keptDownloads(c.var.services).keep(linkId(link.path)!, document, Date.parse(link.expires_at));
    return c.json({ ...link, empty: emptyZip(document.body) } satisfies z.output<typeof ReceiptsLink>);
  });

  reports.get('/stats', validate('query', StatsQuery), async (c) => {
    const { ledger, clock } = c.var.services;
    const query = c.req.valid('query');
    // Up to and including now (the range's end is exclusive).
    const to = query.to ?? clock() + 1;
    const from = query.from ?? to - DEFAULT_WINDOW[query.bucket];
    const buckets = await ledger.paymentStats({
      from, to, bucket: query.bucket,
      ...(query.time_zone === undefined ? {} : { timeZone: query.time_zone }),
      ...(query.utc_offset_minutes === undefined ? {} : { utcOffsetMinutes: query.utc_offset_minutes }),
    });
    const decided = (b: { succeeded: number; failed: number }) => b.succeeded + b.failed;
    const rate = (b: { succeeded: number; failed: number }) => (decided(b) === 0 ? null : b.succeeded / decided(b));
    const totals = buckets.reduce(
      (sum, b) => ({
        total: sum.total + b.total, succeeded: sum.succeeded + b.succeeded, failed: sum.failed + b.failed, in_flight: sum.in_flight + b.inFlight, not_sent: sum.not_sent + b.notSent,
        cancelled: sum.cancelled + b.cancelled,
      }),
      { total: 0, succeeded: 0, failed: 0, in_flight: 0, not_sent: 0, cancelled: 0 },
    );
    return c.json({
      bucket: query.bucket,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      buckets: buckets.map((b) => ({
        start: new Date(b.start).toISOString(), total: b.total, succeeded: b.succeeded, failed: b.failed, in_flight: b.inFlight, not_sent: b.notSent, cancelled: b.cancelled, success_rate: rate(b),
      })),
      totals: { ...totals, success_rate: rate(totals) },
    } satisfies z.output<typeof StatsView>);
  });

  reports.get('/stats/money', validate('query', MoneyQuery), async (c) => {
    const { ledger, clock } = c.var.services;
    const query = c.req.valid('query');
    const to = query.to ?? clock() + 1;
    const from = query.from ?? to - DEFAULT_WINDOW.day;
    const money = await ledger.moneyTotals({ from, to, datedBy: query.dated_by });
    return c.json({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      dated_by: query.dated_by,
      money: money.map(({ currency, paid, refunded, net }) => ({ currency, paid, refunded, net })),
    } satisfies z.output<typeof MoneyView>);
  });

  return reports;
}
