/**
 * The money of the overview's period, per currency, under its counts: what customers paid
 * (captured), what went back (refunded) and what is left (net), each in its own currency —
 * never added across currencies. The figures are GET /api/stats/money's, in minor units,
 * written here as the page's language writes amounts (money.ts). On a phone the table stacks:
 * each currency, then its figures a line each, named by `data-label` (back-office.css).
 *
 * Dated as the reader chooses (`moneyDating`): by order, as the counts and the orders list are,
 * or by when the money moved, as the books of a closed period are. The table names the dating
 * its answer says it has, not the button pressed: a figure read before a press is never shown
 * under the other's name.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { MoneyDating, MoneyReport } from './admin-api.js';
import { shownAmount } from './bidi-isolation.js';
import { t } from './i18n.js';
import type { MessageKey } from './i18n.js';
import type { ApiAmount } from './money.js';

/** The table's name and its note, for the dating the answer has. */
const MONEY_WORDS: Readonly<Record<MoneyDating, { readonly caption: MessageKey; readonly note: MessageKey }>> = {
  order: { caption: 'money.caption', note: 'money.note' },
  movement: { caption: 'money.captionMoved', note: 'money.noteMoved' },
};

export function moneyTable({ money, dated_by: datedBy }: MoneyReport): TemplateResult {
  if (money.length === 0) return html`<p class="muted money-none">${t('money.none')}</p>`;
  const words = MONEY_WORDS[datedBy];
  const figure = (amount: ApiAmount, currency: string, label: string) => html`<td class="numeric" data-label=${label}>${shownAmount(amount, currency)}</td>`;
  return html`<div class="table-scroll money"><table class="money-table">
    <caption>${t(words.caption)}</caption>
    <thead><tr>
      <th scope="col">${t('money.currency')}</th><th scope="col" class="numeric">${t('money.paid')}</th>
      <th scope="col" class="numeric">${t('money.refunded')}</th><th scope="col" class="numeric">${t('money.net')}</th>
    </tr></thead>
    <tbody>${money.map(
      (row) => html`<tr><th scope="row">${row.currency}</th>${figure(row.paid, row.currency, t('money.paid'))}${figure(row.refunded, row.currency, t('money.refunded'))}${figure(row.net, row.currency, t('money.net'))}</tr>`,
    )}</tbody>
  </table></div>
  <p class="muted">${t(words.note)}</p>`;
}

/** The choice of dating, pressed as the orders' filters are, named on the screen and explained in a line. */
export function moneyDating(datedBy: MoneyDating, choose: (next: MoneyDating) => void): TemplateResult {
  const choice = (value: MoneyDating, key: MessageKey) =>
    html`<button type="button" aria-pressed=${datedBy === value ? 'true' : 'false'} @click=${() => choose(value)}>${t(key)}</button>`;
  return html`<div class="money-dating">
    <span id="money-dating-label" class="money-dating__label">${t('money.dating')}</span>
    <div class="segmented" role="group" aria-labelledby="money-dating-label" aria-describedby="money-dating-hint">
      ${choice('order', 'money.byOrder')}${choice('movement', 'money.byMovement')}
    </div>
    <p id="money-dating-hint" class="muted money-dating__hint">${t('money.datingHint')}</p>
  </div>`;
}

/** What the money shown comes to, heard once it is read: the table's name, or that there was none. */
export function moneyHeard({ money, dated_by: datedBy }: MoneyReport): string {
  return money.length === 0 ? t('money.none') : t(MONEY_WORDS[datedBy].caption);
}
