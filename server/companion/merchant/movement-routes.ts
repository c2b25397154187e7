/**
 * The journal of money moved, for an accountant closing a period (bearer ADMIN_TOKEN):
 *
 *   GET /api/movements               ?from=&to=&limit=&cursor=   each sale, capture and refund made in the period, oldest first
 *   GET /api/exports/movements       ?from=&to=&decimal_mark=&time_zone=  the same as a CSV file, streamed
 *   GET /api/exports/movements/link  the same query: a signed link to the file, for a browser (download-links.ts)
 *
 * Dated by when each was made (ledger movements.ts), where the orders' figures are dated by the
 * order: a refund made in November of an October order is November's, so a closed month changes
 * only by what was pending at its close (counted, once it succeeds, on the day it was begun).
 * Amounts are signed integer minor units (a refund is negative): a period's lines
 * add up to its net, per currency, as GET /api/stats/money?dated_by=movement says it.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod';
import { decimalMinorUnits } from '@payform/gateway';
import type { Movement, MovementQuery } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { AmountView } from '../http/amounts.js';
import { validate } from '../http/validate.js';
import type { CsvFormat } from './csv.js';
import { csvLine } from './csv.js';
import { CSV_FORMAT_PARAMS, columnsIn, csvFile, csvFormat, exportName } from './csv-file.js';
import type { Column } from './csv-file.js';
import { DOWNLOADS_PATH, issueLink, LINK_PARAMS } from './download-links.js';
import { LARGEST_PAGE, PageQuery } from './page-query.js';
import { QueryInstant } from './query-instant.js';

/** Where a link to the file points (download-routes.ts). */
export const MOVEMENTS_DOWNLOAD_PATH = `${DOWNLOADS_PATH}/movements`;

/** A period as the money's is read: the last 30 days unless from/to say. */
const PERIOD = {
  from: QueryInstant.optional().describe('Start of the period, inclusive (ISO 8601 with its offset); 30 days before `to` when omitted'),
  to: QueryInstant.optional().describe('End of the period, exclusive (ISO 8601 with its offset); now when omitted'),
};

const afterFrom = { path: ['to'], message: 'must be after from' };
const inOrder = (query: { from?: number | undefined; to?: number | undefined }) => query.from === undefined || query.to === undefined || query.to > query.from;

/** The file's query: its period, and how it writes decimals. */
export const MovementExportQuery = z.strictObject({ ...PERIOD, ...CSV_FORMAT_PARAMS }).refine(inOrder, afterFrom);
export const MovementListQuery = z.strictObject({ ...PERIOD, ...PageQuery }).refine(inOrder, afterFrom);
export const SignedMovementExportQuery = z.strictObject({ ...PERIOD, ...CSV_FORMAT_PARAMS, ...LINK_PARAMS }).refine(inOrder, afterFrom);

const DEFAULT_WINDOW = 30 * 24 * 3_600_000;

/** The ledger's period: up to and including now, 30 days back, unless the query says. */
function period(c: Context<CompanionEnv>, query: { from?: number | undefined; to?: number | undefined }): { from: number; to: number } {
  const to = query.to ?? c.var.services.clock() + 1;
  return { from: query.from ?? to - DEFAULT_WINDOW, to };
}

export const MovementView = z.object({
  at: z.iso.datetime().describe('When it was made: a sale’s payment; a capture’s or refund’s request, or when the ledger learned of one made at the gateway'),
  kind: z.enum(['sale', 'capture', 'refund']).describe('sale: a purchase that succeeded; capture: of an auth; refund. Voids and reserves move no money and are not listed'),
  order_id: z.string(),
  currency: z.string().describe('ISO 4217 code: amounts of different currencies are never added together'),
  amount: AmountView.describe('Signed integer minor units: a refund is negative, so the lines of a period add up to its net'),
  order_created_at: z.iso.datetime(),
  payment_id: z.string().nullable().describe('The gateway’s payment of the order'),
  operation_id: z.string().nullable().describe('The gateway’s capture or refund; null for a sale'),
  transaction_id: z.string().nullable(),
  origin: z.enum(['merchant', 'gateway']).nullable().describe('merchant: made through the companion; gateway: made at the gateway and learned of; null for a sale'),
  description: z.string().nullable().describe('What was sold: the checkout session’s description'),
});

export const MovementPageView = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  movements: z.array(MovementView).describe('Oldest first'),
  next_cursor: z.string().nullable(),
});

const iso = (ms: number) => new Date(ms).toISOString();

function movementView(movement: Movement): z.output<typeof MovementView> {
  return {
    at: iso(movement.at), kind: movement.kind, order_id: movement.orderId, currency: movement.currency, amount: movement.amount, order_created_at: iso(movement.orderCreatedAt),
    payment_id: movement.paymentId, operation_id: movement.operationId, transaction_id: movement.transactionId, origin: movement.origin, description: movement.description,
  };
}

/** The file's columns, in order: the view's fields, the amount's decimals beside it for people. */
const COLUMNS: readonly Column<Movement>[] = [
  ['at', (m) => iso(m.at)],
  ['kind', (m) => m.kind],
  ['order_id', (m) => m.orderId],
  ['currency', (m) => m.currency],
  ['amount', (m) => m.amount],
  ['amount_decimal', (m) => ({ decimal: decimalMinorUnits(m.amount, m.currency) })],
  ['order_created_at', (m) => iso(m.orderCreatedAt)],
  ['payment_id', (m) => m.paymentId],
  ['operation_id', (m) => m.operationId],
  ['transaction_id', (m) => m.transactionId],
  ['origin', (m) => m.origin],
  ['description', (m) => m.description],
];

/** With a time zone asked for: when it was made on its wall clock, a date to a spreadsheet. */
const LOCAL_COLUMN: Column<Movement> = ['at_local', (m) => ({ localTime: m.at })];

/**
 * The file's name: its period as the query wrote it; the default thirty days (no `from`) as the
 * period took them, or the file would be named for one day ("movements-<today>.csv"). With a
 * `from` alone it runs to now, as it is named: "movements-from-<day>.csv".
 */
function periodName(from: string | undefined, to: string | undefined, journal: { from: number; to: number }, now: number): string {
  if (from !== undefined) return exportName('movements', from, to, now);
  return exportName('movements', iso(journal.from), to ?? iso(journal.to), now);
}

/** The file of the period's movements, streamed: for the bearer route and the signed link alike. */
export function movementsCsv(c: Context<CompanionEnv>, query: { from?: number | undefined; to?: number | undefined }, format: CsvFormat): Promise<Response> {
  const { ledger, clock } = c.var.services;
  const journal: MovementQuery = period(c, query);
  const columns = columnsIn(COLUMNS, LOCAL_COLUMN, format);
  return csvFile(c, {
    columns: columns.map(([name]) => name),
    format,
    page: async (cursor) => {
      const page = await ledger.listMovements({ ...journal, limit: LARGEST_PAGE, ...(cursor !== undefined && { cursor }) });
      return { text: page.movements.map((movement) => csvLine(columns.map(([, cell]) => cell(movement)), format)).join(''), next: page.nextCursor };
    },
    name: periodName(c.req.query('from'), c.req.query('to'), journal, clock()),
    said: 'the movements export',
  });
}

export function movementRoutes(): Hono<CompanionEnv> {
  const movements = new Hono<CompanionEnv>();
  movements.get('/', validate('query', MovementListQuery), async (c) => {
    const { limit, cursor, ...query } = c.req.valid('query');
    const { from, to } = period(c, query);
    const page = await c.var.services.ledger.listMovements({ from, to, ...(limit !== undefined && { limit }), ...(cursor !== undefined && { cursor }) });
    return c.json({ from: iso(from), to: iso(to), movements: page.movements.map(movementView), next_cursor: page.nextCursor } satisfies z.output<typeof MovementPageView>);
  });
  return movements;
}

export function movementExportRoutes(): Hono<CompanionEnv> {
  const exports = new Hono<CompanionEnv>();
  exports.get('/', validate('query', MovementExportQuery), (c) => {
    const [format, query] = csvFormat(c.req.valid('query'));
    return movementsCsv(c, query, format);
  });
  // The period is judged here, and the ledger read once, so a refusal or a database away is
  // said to the back office, not to the browser's list of downloads.
  exports.get('/link', validate('query', MovementExportQuery), async (c) => {
    await c.var.services.ledger.listMovements({ ...period(c, c.req.valid('query')), limit: 1 });
    return c.json(issueLink(c, MOVEMENTS_DOWNLOAD_PATH));
  });
  return exports;
}
