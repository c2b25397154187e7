/**
 * "Download CSV" of the orders list: every order the list's filters match as the companion's
 * file (GET /api/exports/orders) — the pages not read yet too, never only the rows shown. The
 * browser downloads it by a signed link: a month of a large shop's orders is hundreds of MB.
 *
 * Beside it, the journal of money moved over the list's period (GET /api/exports/movements):
 * each sale, capture and refund made in those days, whichever order it is of — the accountant's
 * file of a period closed in the books. The list's other filters are not the journal's.
 *
 * Both are asked for as the accountant's spreadsheet reads them: with decimal commas
 * (semicolon-separated) where the browser's language writes them, and with each row's date and
 * time in the browser's zone, the zone the period's days are in.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { ApiError, downloadLink, followLink } from './admin-api.js';
import type { DownloadLink } from './admin-api.js';
import { t } from './i18n.js';
import { periodInstants, timeZone, withOffset } from './order-period.js';
import type { Period } from './order-period.js';

type DecimalMark = 'point' | 'comma';

/**
 * How a spreadsheet on this computer reads a figure: as `locale` (the browser's own language, not
 * the page's) writes 1.5. Set to a decimal comma (Ukrainian, German), it takes `12.340` dinars
 * for twelve thousand, and a comma-separated file for one column. Outside a browser (Node:
 * tests, tools), English's point, whatever the process's own locale.
 */
export function spreadsheetDecimalMark(locale: string = typeof navigator === 'undefined' ? 'en' : navigator.language): DecimalMark {
  const mark = new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value;
  return mark === ',' ? 'comma' : 'point';
}

/** What a file is asked to suit: a spreadsheet's decimal mark, and the zone of its local times. */
export interface FileFormat {
  readonly decimalMark?: DecimalMark;
  readonly timeZone?: string | undefined;
}

/** The files' own parameters; the point, their default, is left out. */
function withFormat(query: URLSearchParams, { decimalMark, timeZone: zone }: FileFormat): URLSearchParams {
  if (decimalMark === 'comma') query.set('decimal_mark', decimalMark);
  if (zone !== undefined) query.set('time_zone', zone);
  return query;
}

/** The export's address for the list read with `listQuery`: its filters, without its paging. */
export function exportPath(listQuery: URLSearchParams, format: FileFormat = {}): string {
  const query = withFormat(new URLSearchParams(listQuery), format);
  query.delete('limit');
  query.delete('cursor');
  const text = query.toString();
  return `/api/exports/orders${text ? `?${text}` : ''}`;
}

/** The link to the file at `path(format)` for this browser; without local times where the companion lacks its zone. */
function browserFileLink(token: string, path: (format: FileFormat) => string): Promise<DownloadLink> {
  const format: FileFormat = { decimalMark: spreadsheetDecimalMark(), timeZone: timeZone() };
  return downloadLink(token, path(format)).catch((error: unknown) => {
    if (error instanceof ApiError && error.fields.time_zone !== undefined) return downloadLink(token, path({ ...format, timeZone: undefined }));
    throw error;
  });
}

export async function downloadOrders(token: string, listQuery: URLSearchParams): Promise<void> {
  followLink(await browserFileLink(token, (format) => exportPath(listQuery, format)));
}

/** Any time's journal starts here: the journal's route reads the last 30 days when given no start. */
const EVERY_MOVEMENT = '1970-01-01T00:00:00Z';

/**
 * The journal's address for the days chosen: the same instants as the orders list's
 * created_from and created_to (order-period.ts); every movement up to now for any time.
 */
export function journalPath(period: Period | undefined, format: FileFormat = {}): string {
  const instants = period && periodInstants(period);
  const query = withFormat(new URLSearchParams(instants ? { from: withOffset(instants.from), to: withOffset(instants.to) } : { from: EVERY_MOVEMENT }), format);
  return `/api/exports/movements?${query}`;
}

export async function downloadJournal(token: string, period: Period | undefined): Promise<void> {
  followLink(await browserFileLink(token, (format) => journalPath(period, format)));
}

/** The download's state: a file on its way, or why the last one failed. */
export interface CsvExportState {
  readonly busy: boolean;
  readonly problem?: string | undefined;
}

export interface CsvExportHandlers {
  exportCsv(): void;
  exportJournal(): void;
}

/**
 * The buttons, and why the last file of each failed. While a file is on its way its button
 * waits, so a second press is not a second file.
 */
export function exportControl(csv: CsvExportState, journal: CsvExportState, handlers: CsvExportHandlers): TemplateResult {
  const button = ({ busy }: CsvExportState, label: string, waiting: string, onExport: () => void) =>
    html`<button type="button" class="button button--small button--quiet" aria-disabled=${busy ? 'true' : 'false'} aria-describedby="order-period-days"
      @click=${() => {
        if (!busy) onExport();
      }}>${busy ? waiting : label}</button>`;
  const problem = ({ problem: text }: CsvExportState) => (text ? html`<p class="notice notice--error" role="alert">${text}</p>` : nothing);
  return html`<div class="orders__export">
    ${button(csv, t('orders.exportCsv'), t('orders.exporting'), () => handlers.exportCsv())}
    ${button(journal, t('orders.exportJournal'), t('orders.exportingJournal'), () => handlers.exportJournal())}
    ${problem(csv)}${problem(journal)}
  </div>`;
}
