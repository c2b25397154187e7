/**
 * The orders as a CSV file, for an accountant or a spreadsheet (bearer ADMIN_TOKEN):
 *
 *   GET /api/exports/orders       ?status=&kind=&session_id=&held=true&email=&card_last4=&amount=&currency=&created_from=&created_to=&decimal_mark=&time_zone=
 *   GET /api/exports/orders/link  the same query: a signed link to the same file, for a browser (download-links.ts)
 *
 * Every order the filters of GET /api/orders match, newest first, one row each. Streamed a page
 * of the ledger at a time (its keyset paging): memory stays one page whatever the ledger holds,
 * and an order created while the file is written is not in it (it is newer than the first row).
 * Amounts are integer minor units, as everywhere in the API, with the same figures as decimals
 * of the currency's digits beside them for people (`_decimal`, a point, no grouping; with
 * decimal_mark=comma a comma, the cells parted by semicolons, csv.ts).
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { decimalMinorUnits } from '@payform/gateway';
import { amountPaid, isHeld } from '../../ledger/index.js';
import type { Ledger, OrderListQuery as LedgerOrderQuery, OrderTotals, Payment } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { validate } from '../http/validate.js';
import { csvLine } from './csv.js';
import type { CsvFormat } from './csv.js';
import { columnsIn, csvFile, csvFormat, exportName } from './csv-file.js';
import type { Column, CsvPage } from './csv-file.js';
import { DOWNLOADS_PATH, issueLink } from './download-links.js';
import { CUSTOMER_FILTERS, OrderExportQuery, orderSearch } from './order-routes.js';
import { LARGEST_PAGE } from './page-query.js';

/** Where a link to the file points (download-routes.ts). */
export const ORDERS_DOWNLOAD_PATH = `${DOWNLOADS_PATH}/orders`;

interface Row {
  readonly payment: Payment;
  readonly totals: OrderTotals;
  /** What was sold: the checkout session's description. */
  readonly description: string | undefined;
}

const money = (name: string, amount: (row: Row) => number) =>
  [
    [name, amount],
    [`${name}_decimal`, (row: Row) => ({ decimal: decimalMinorUnits(amount(row), row.payment.currency) })],
  ] as const;
const paid = (row: Row) => amountPaid(row.payment, row.totals);

/** The file's columns, in order: name and cell. */
const COLUMNS: readonly Column<Row>[] = [
  ['order_id', (row) => row.payment.orderId],
  ['created_at', (row) => new Date(row.payment.createdAt).toISOString()],
  ['status', (row) => row.payment.status],
  ['method', (row) => row.payment.method],
  ['mode', (row) => row.payment.mode],
  ['description', (row) => row.description ?? null],
  ['currency', (row) => row.payment.currency],
  ...money('amount', (row) => row.payment.amount),
  ...money('paid', paid),
  ...money('refunded', (row) => row.totals.refunded),
  ...money('net', (row) => paid(row) - row.totals.refunded),
  ['card', (row) => row.payment.ccMask],
  ['card_brand', (row) => row.payment.cardBrand],
  ['customer_email', (row) => row.payment.customer.email ?? null],
  ['customer_name', (row) => [row.payment.customer.fname, row.payment.customer.lname].filter(Boolean).join(' ') || null],
  ['customer_phone', (row) => row.payment.customer.phone ?? null],
  ['customer_id', (row) => row.payment.customerId],
  ['session_id', (row) => row.payment.sessionId],
  ['attempt', (row) => row.payment.attempt],
  ['payment_id', (row) => row.payment.paymentId],
  ['transaction_id', (row) => row.payment.transactionId],
  ['status_code', (row) => row.payment.statusCode],
  ['status_description', (row) => row.payment.statusDescription],
  ['held', (row) => (isHeld(row.payment.discrepancy) ? 'true' : 'false')],
  // A discrepancy a person settled: when, so the file tells it from an order never held.
  ['discrepancy_settled_at', (row) => (row.payment.discrepancy?.settled ? new Date(row.payment.discrepancy.settled.settledAt).toISOString() : null)],
  // Last, so a file read by position keeps its columns: what an auth still holds, and whether it
  // was voided (either way it shows no money paid).
  ...money('capturable', (row) => row.totals.capturable),
  ['voided', (row) => (row.totals.voided ? 'true' : 'false')],
];

/** With a time zone asked for: when the order was made on its wall clock, a date to a spreadsheet. */
const LOCAL_COLUMN: Column<Row> = ['created_at_local', (row) => ({ localTime: row.payment.createdAt })];

/** One page of the ledger as CSV lines, and where the next one starts (null: the last). */
async function pageText(ledger: Ledger, query: LedgerOrderQuery, cursor: string | undefined, format: CsvFormat): Promise<CsvPage> {
  const columns = columnsIn(COLUMNS, LOCAL_COLUMN, format);
  const page = await ledger.listOrders({ ...query, limit: LARGEST_PAGE, ...(cursor !== undefined && { cursor }) });
  // Two reads for the page, whatever it holds: its operations, and its sessions' descriptions.
  const [totals, descriptions] = await Promise.all([ledger.totalsOfOrders(page.orders), ledger.descriptionsOfOrders(page.orders)]);
  const text = page.orders
    .map((payment) => csvLine(columns.map(([, cell]) => cell({ payment, totals: totals.get(payment.orderId)!, description: descriptions.get(payment.orderId) })), format))
    .join('');
  return { text, next: page.nextCursor };
}

export function orderExportRoutes(): Hono<CompanionEnv> {
  const exports = new Hono<CompanionEnv>();
  exports.get('/', validate('query', OrderExportQuery), (c) => {
    const [format, filters] = csvFormat(c.req.valid('query'));
    return ordersCsv(c, orderSearch(filters), format);
  });
  // The filters are judged here, so a refused one is said to the back office, not saved as a file;
  // and the ledger is read once (an order of them), so a database away is said there too — the
  // link's download failing would show only in the browser's list of downloads.
  exports.get('/link', validate('query', OrderExportQuery), async (c) => {
    const [, filters] = csvFormat(c.req.valid('query'));
    await c.var.services.ledger.listOrders({ ...orderSearch(filters), limit: 1 });
    return c.json(issueLink(c, ORDERS_DOWNLOAD_PATH, CUSTOMER_FILTERS));
  });
  return exports;
}

/** The file of the orders `query` finds, streamed: for the bearer route and the signed link alike. */
export function ordersCsv(c: Context<CompanionEnv>, query: LedgerOrderQuery, format: CsvFormat): Promise<Response> {
  const { ledger, clock } = c.var.services;
  return csvFile(c, {
    columns: columnsIn(COLUMNS, LOCAL_COLUMN, format).map(([name]) => name),
    format,
    page: (cursor) => pageText(ledger, query, cursor, format),
    name: exportName('orders', c.req.query('created_from'), c.req.query('created_to'), clock()),
    said: 'the orders export',
  });
}
