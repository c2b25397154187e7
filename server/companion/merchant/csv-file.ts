/**
 * A CSV file of the ledger, streamed a page at a time (the orders, the journal of money moved):
 * memory stays one page whatever the ledger holds, and a slow download holds one page, not the
 * ledger. The first page is read before the answer starts, so a ledger that cannot be read is the
 * API's usual 5xx, not a 200 cut short; a later page that fails cuts the download, so the client
 * sees a broken file, never one that looks whole.
 */
import { setImmediate as loopTurn } from 'node:timers/promises';
import type { Context } from 'hono';
import * as z from 'zod';
import { isTimeZone } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { COMMA_DECIMALS, csvLine, POINT_DECIMALS } from './csv.js';
import type { CsvCell, CsvFormat } from './csv.js';

/** The files' own parameters (not filters): how the accountant's spreadsheet reads numbers, and their zone. */
export const CSV_FORMAT_PARAMS = {
  decimal_mark: z
    .enum(['point', 'comma'], { error: 'must be point or comma' })
    .optional()
    .describe('point (default): comma-separated, 249.50; comma: semicolon-separated, 249,50, as a spreadsheet set to a decimal comma (Ukrainian, German) opens by a double click. Minor units are the same in both'),
  time_zone: z
    .string()
    .refine(isTimeZone, 'is not a known time zone: an IANA name such as Europe/Kyiv')
    .optional()
    .describe('IANA time zone (Europe/Kyiv): adds a last column of each row’s date and time on its wall clock, 2026-11-01 00:30:00, which a spreadsheet reads as a date and time; the UTC instants stay'),
};

/** A file's query split into how it is written (CSV_FORMAT_PARAMS) and the rest: its filters or its period. */
export function csvFormat<Query extends { decimal_mark?: 'point' | 'comma' | undefined; time_zone?: string | undefined }>(
  query: Query,
): [CsvFormat, Omit<Query, 'decimal_mark' | 'time_zone'>] {
  const { decimal_mark: decimalMark, time_zone: timeZone, ...rest } = query;
  return [{ ...(decimalMark === 'comma' ? COMMA_DECIMALS : POINT_DECIMALS), timeZone }, rest];
}

/** A file's columns, with its local-time column last when the format names a zone. */
export const columnsIn = <Row>(columns: readonly Column<Row>[], local: Column<Row>, format: CsvFormat): readonly Column<Row>[] =>
  format.timeZone === undefined ? columns : [...columns, local];

/** A column's name, and its cell of a row. */
export type Column<Row> = readonly [name: string, cell: (row: Row) => CsvCell];

/** A page of the file's lines, and where the next one starts (null: the last). */
export interface CsvPage {
  readonly text: string;
  readonly next: string | null;
}

export interface CsvFile {
  readonly columns: readonly string[];
  readonly format: CsvFormat;
  /** The page from `cursor` (undefined: the first), written in `format`. */
  readonly page: (cursor: string | undefined) => Promise<CsvPage>;
  /** The file's name for the browser: `exportName`. */
  readonly name: string;
  /** What the log calls the file when a later page cannot be read: "the orders export". */
  readonly said: string;
}

export async function csvFile(c: Context<CompanionEnv>, file: CsvFile): Promise<Response> {
  const { logger } = c.var.services;
  const first = await file.page(undefined);
  const encoder = new TextEncoder();
  let next = first.next;
  // The client left (a closed tab, an interrupted curl): a page read meanwhile is dropped.
  let stopped = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // The byte order mark tells Excel the file is UTF-8 (names in Cyrillic); CSV readers skip it.
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(file.columns, file.format)}${first.text}`));
      if (next === null) controller.close();
    },
    // Pulled as the client reads.
    async pull(controller) {
      if (next === null) return;
      // A turn of the event loop first: an SQLite ledger answers synchronously and a fast client's
      // socket takes each page at once, so without it the whole file would be written before any
      // payment, webhook or /healthz waiting meanwhile is served.
      await loopTurn();
      if (stopped) return;
      let page: CsvPage;
      try {
        page = await file.page(next);
      } catch (error) {
        if (stopped) return;
        // The answer's status is sent: only the log says why the file stopped.
        logger.error(`${file.said} stopped: the ledger could not be read`, { err: error });
        // Served by Node, the connection is cut (no last chunk): an errored stream would have
        // @hono/node-server print the error again, unredacted, on stderr.
        const outgoing = c.env?.outgoing;
        if (outgoing) return void outgoing.destroy();
        return controller.error(error);
      }
      if (stopped) return;
      next = page.next;
      controller.enqueue(encoder.encode(page.text));
      if (next === null) controller.close();
    },
    cancel() {
      stopped = true;
    },
  }, { highWaterMark: 0 });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="${file.name}"`,
      'Cache-Control': 'no-store',
    },
  });
}

/**
 * A file's name: what it holds (`orders`), then the days of its period as the query wrote them —
 * in its own offset, so December in Kiritimati is not the last of November in UTC, and this
 * month's file and last month's never share a name — else `all` and the day (UTC) it was made,
 * which a file of that one day's orders would otherwise be named too.
 */
export function exportName(holds: string, from: string | undefined, to: string | undefined, now: number): string {
  const first = from?.slice(0, 10);
  const last = to === undefined ? undefined : lastDayBefore(to);
  if (first && last) return first === last ? `${holds}-${first}.csv` : `${holds}-${first}-to-${last}.csv`;
  if (first) return `${holds}-from-${first}.csv`;
  if (last) return `${holds}-to-${last}.csv`;
  return `${holds}-all-${new Date(now).toISOString().slice(0, 10)}.csv`;
}

/** The last day an exclusive end (an ISO 8601 date-time) takes in: the day before it at its midnight. */
function lastDayBefore(end: string): string {
  const day = end.slice(0, 10);
  if (!/^\d{4}-\d\d-\d\dT00:00(?::00(?:\.0+)?)?(?:Z|[+-])/.test(end)) return day;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const before = new Date(0);
  before.setUTCFullYear(year, month - 1, date - 1);
  return before.toISOString().slice(0, 10);
}
