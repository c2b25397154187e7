/**
 * The gateway's events that apply to nothing in the ledger: money the gateway says moved that the
 * shop does not know about (another shop on the same gateway project, a payment the ledger lost),
 * or that contradicts the order it names. No order shows the first kind, so they get a panel of
 * their own — only while there are any. A person who settled one elsewhere marks it reviewed:
 * it leaves the panel and stops holding the operator's alert.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import type { MessageKey } from './i18n.js';
import type { UnmatchedEvents } from './admin-api.js';
import { orderLink, statusBadge, time } from './order-views.js';
import type { OrderHandlers } from './order-views.js';
import { scrollRegion } from './scroll-region.js';
import { isolated, isolatedText, shownAmount } from './bidi-isolation.js';

const METHOD_KEYS: Readonly<Record<string, MessageKey>> = {
  purchase: 'method.purchase',
  auth: 'method.auth',
  capture: 'operation.capture',
  void: 'operation.void',
  refund: 'operation.refund',
};

export interface UnmatchedState {
  readonly list: UnmatchedEvents | undefined;
  /** The events being marked reviewed right now (their buttons wait, keeping the focus). */
  readonly reviewing: ReadonlySet<string>;
  readonly problem: string | undefined;
}

/** `orders.select` opens an event's order: one the ledger holds shows what the event contradicts, another says it holds none. */
export function unmatchedEventsPanel({ list, reviewing, problem }: UnmatchedState, review: (id: string) => void, orders: Pick<OrderHandlers, 'select'>): TemplateResult | typeof nothing {
  if (!list || list.events.length === 0) return nothing;
  return html`<section class="panel unmatched-events" aria-labelledby="unmatched-heading">
    <h2 id="unmatched-heading">${t('unmatched.heading')}</h2>
    <p class="muted">${t('unmatched.text')}</p>
    ${problem ? html`<p class="notice notice--error" role="alert">${problem}</p>` : nothing}
    ${scrollRegion(t('unmatched.caption'), html`<table>
      <caption class="visually-hidden">${t('unmatched.caption')}</caption>
      <thead><tr>
        <th scope="col">${t('orders.order')}</th><th scope="col">${t('events.event')}</th><th scope="col">${t('orders.status')}</th>
        <th scope="col" class="numeric">${t('orders.amount')}</th><th scope="col">${t('events.received')}</th>
        <th scope="col"><span class="visually-hidden">${t('detail.actions')}</span></th>
      </tr></thead>
      <tbody>${list.events.map(
        (event) => html`<tr>
          <th scope="row">${orderLink(event.order_id, orders)}</th>
          <td>${event.method in METHOD_KEYS ? t(METHOD_KEYS[event.method]!) : isolated(event.method)}</td>
          <td>${statusBadge(event.status)}</td>
          <td class="numeric">${event.amount === null || event.currency === null ? '—' : shownAmount(event.amount, event.currency)}</td>
          <td class="nowrap">${isolated(time(event.received_at, true))}</td>
          <td><button type="button" class="button button--small button--quiet" data-event=${event.id}
            aria-disabled=${reviewing.has(event.id) ? 'true' : 'false'} @click=${() => review(event.id)}
            aria-label=${isolatedText(t('unmatched.reviewFor', { order: isolatedText(event.order_id) }))}>${t('unmatched.review')}</button></td>
        </tr>`,
      )}</tbody>
    </table>`)}
    ${list.next_cursor ? html`<p class="muted">${t('unmatched.more', { count: list.events.length })}</p>` : nothing}
  </section>`;
}
