/**
 * "Download CSV" of the orders list: every order the list's filters match as the companion's
 * file (GET /api/exports/orders) — the pages not read yet too, never only the rows shown. The
 * browser downloads it by a signed link: a month of a large shop's orders is hundreds of MB.
 *
 * Beside it, the journal of money moved over the list's period (GET /api/exports/movements):
 * each sale, capture and refund made in those days, whichever order it is of — the accountant's
 * file of a period closed in the books. The list's other filters are not the journal's.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { downloadLink, followLink } from './admin-api.js';
import { t } from './i18n.js';
import { periodInstants, withOffset } from './order-period.js';
import type { Period } from './order-period.js';

/** The export's address for the list read with `listQuery`: its filters, without its paging. */
export function exportPath(listQuery: URLSearchParams): string {
  const query = new URLSearchParams(listQuery);
  query.delete('limit');
  query.delete('cursor');
  const text = query.toString();
  return `/api/exports/orders${text ? `?${text}` : ''}`;
}

export async function downloadOrders(token: string, listQuery: URLSearchParams): Promise<void> {
  followLink(await downloadLink(token, exportPath(listQuery)));
}

/** Any time's journal starts here: the journal's route reads the last 30 days when given no start. */
const EVERY_MOVEMENT = '1970-01-01T00:00:00Z';

/**
 * The journal's address for the days chosen: the same instants as the orders list's
 * created_from and created_to (order-period.ts); every movement up to now for any time.
 */
export function journalPath(period: Period | undefined): string {
  const instants = period && periodInstants(period);
  const query = new URLSearchParams(instants ? { from: withOffset(instants.from), to: withOffset(instants.to) } : { from: EVERY_MOVEMENT });
  return `/api/exports/movements?${query}`;
}

export async function downloadJournal(token: string, period: Period | undefined): Promise<void> {
  followLink(await downloadLink(token, journalPath(period)));
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
