/**
 * The money of the overview's period, per currency, under its counts: what customers paid
 * (captured), what went back (refunded) and what is left (net), each in its own currency —
 * never added across currencies. The figures are GET /api/stats/money's, in minor units,
 * written here as the page's language writes amounts (money.ts). On a phone the table stacks:
 * each currency, then its figures a line each, named by `data-label` (back-office.css).
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { MoneyReport } from './admin-api.js';
import { shownAmount } from './bidi-isolation.js';
import { t } from './i18n.js';
import type { ApiAmount } from './money.js';

export function moneyTable({ money }: MoneyReport): TemplateResult {
  if (money.length === 0) return html`<p class="muted money-none">${t('money.none')}</p>`;
  const figure = (amount: ApiAmount, currency: string, label: string) => html`<td class="numeric" data-label=${label}>${shownAmount(amount, currency)}</td>`;
  return html`<div class="table-scroll money"><table class="money-table">
    <caption>${t('money.caption')}</caption>
    <thead><tr>
      <th scope="col">${t('money.currency')}</th><th scope="col" class="numeric">${t('money.paid')}</th>
      <th scope="col" class="numeric">${t('money.refunded')}</th><th scope="col" class="numeric">${t('money.net')}</th>
    </tr></thead>
    <tbody>${money.map(
      (row) => html`<tr><th scope="row">${row.currency}</th>${figure(row.paid, row.currency, t('money.paid'))}${figure(row.refunded, row.currency, t('money.refunded'))}${figure(row.net, row.currency, t('money.net'))}</tr>`,
    )}</tbody>
  </table></div>
  <p class="muted">${t('money.note')}</p>`;
}
