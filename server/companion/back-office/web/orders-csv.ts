/**
 * "Download CSV" of the orders list: every order the list's filters match as the companion's
 * file (GET /api/exports/orders) — the pages not read yet too, never only the rows shown. The
 * browser downloads it by a signed link: a month of a large shop's orders is hundreds of MB.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { downloadLink, followLink } from './admin-api.js';
import { t } from './i18n.js';

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

/** The download's state: a file on its way, or why the last one failed. */
export interface CsvExportState {
  readonly busy: boolean;
  readonly problem?: string | undefined;
}

/** The button, and why the last file failed. While a file is on its way the button waits, so a second press is not a second file. */
export function exportControl({ busy, problem }: CsvExportState, onExport: () => void): TemplateResult {
  return html`<div class="orders__export">
    <button type="button" class="button button--small button--quiet" aria-disabled=${busy ? 'true' : 'false'}
      @click=${() => {
        if (!busy) onExport();
      }}>${busy ? t('orders.exporting') : t('orders.exportCsv')}</button>
    ${problem ? html`<p class="notice notice--error" role="alert">${problem}</p>` : nothing}
  </div>`;
}
