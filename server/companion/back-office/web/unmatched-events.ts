/**
 * The gateway's events that match no order in the ledger: money the gateway says moved that the
 * shop does not know about (another shop on the same gateway project, a payment the ledger lost).
 * No order shows them, so they get a panel of their own — only while there are any.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import { formatAmount } from './money.js';
import type { MessageKey } from './i18n.js';
import type { UnmatchedEvents } from './admin-api.js';
import { statusBadge, time } from './order-views.js';

const METHOD_KEYS: Readonly<Record<string, MessageKey>> = {
  purchase: 'method.purchase',
  auth: 'method.auth',
  capture: 'operation.capture',
  void: 'operation.void',
  refund: 'operation.refund',
};

export function unmatchedEventsPanel(list: UnmatchedEvents | undefined): TemplateResult | typeof nothing {
  if (!list || list.events.length === 0) return nothing;
  return html`<section class="panel unmatched-events" aria-labelledby="unmatched-heading">
    <h2 id="unmatched-heading">${t('unmatched.heading')}</h2>
    <p class="muted">${t('unmatched.text')}</p>
    <div class="table-scroll"><table>
      <caption class="visually-hidden">${t('unmatched.caption')}</caption>
      <thead><tr>
        <th scope="col">${t('orders.order')}</th><th scope="col">${t('events.event')}</th><th scope="col">${t('orders.status')}</th>
        <th scope="col" class="numeric">${t('orders.amount')}</th><th scope="col">${t('events.received')}</th>
      </tr></thead>
      <tbody>${list.events.map(
        (event) => html`<tr>
          <th scope="row" class="mono">${event.order_id}</th>
          <td>${event.method in METHOD_KEYS ? t(METHOD_KEYS[event.method]!) : event.method}</td>
          <td>${statusBadge(event.status)}</td>
          <td class="numeric">${event.amount === null || event.currency === null ? '—' : formatAmount(event.amount, event.currency)}</td>
          <td class="nowrap">${time(event.received_at, true)}</td>
        </tr>`,
      )}</tbody>
    </table></div>
    ${list.next_cursor ? html`<p class="muted">${t('unmatched.more', { count: list.events.length })}</p>` : nothing}
  </section>`;
}
