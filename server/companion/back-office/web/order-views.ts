/**
 * The back office's orders: the list (newest first, filtered by state, rows flashing as the
 * live feed changes them) and one order in detail — the payment, what can still be captured or
 * refunded, the actions that apply, every secondary operation and every webhook event.
 */
import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { TemplateResult } from 'lit';
import { exportControl } from './orders-csv.js';
import type { CsvExportState } from './orders-csv.js';
import { t } from './i18n.js';
import type { MessageKey } from './i18n.js';
import { units } from './money.js';
import type { ApiAmount } from './money.js';
import { isolated, shownAmount } from './bidi-isolation.js';
import { displayLocale } from './locale.js';
import { formatTime, timeLines } from './times.js';
import type { DiscrepancyReport, ListedOrder, Operation, OrderDetail, OrderSummary, PaymentStatus, Share, Totals } from './admin-api.js';
import { abandoned, gatewayForgot, neverDecided, orderOutcome } from './order-outcome.js';
import type { OutcomeState } from './order-outcome.js';
import { chargeable } from './charge-dialog.js';
import { settleable } from './settle-dialog.js';
import { erasable } from './erase-dialog.js';
import { subMerchantName } from './page-config.js';
import { applicableActions } from './order-actions.js';
import { ACTION_NAMES } from './operation-dialog.js';
import { readFind } from './order-find.js';
import { periodControl, periodText } from './order-period.js';
import { scrollRegion } from './scroll-region.js';
import type { Period, PeriodControlState, PeriodHandlers } from './order-period.js';
import type { OperationAction } from './operation-dialog.js';

/** A payment status, every order, or those held for a discrepancy. */
export type OrderFilter = PaymentStatus | 'all' | 'held';
/** Payments (purchases, auths) and card verifications are listed apart. */
export type OrderKind = 'payments' | 'verifications';

export interface OrderListState {
  readonly orders: readonly ListedOrder[];
  readonly filter: OrderFilter;
  readonly kind: OrderKind;
  readonly selected: string | undefined;
  readonly flashing: ReadonlySet<string>;
  /** Not read yet for the filter pressed: the rows are not its orders. */
  readonly loading: boolean;
  /** Why the list could not be read (the orders shown, if any, are as they were). */
  readonly problem: string | undefined;
  /** Older orders are there to show (the list's next page). */
  readonly more: boolean;
  /** The older orders are on their way: the button waits, keeping the focus. */
  readonly loadingMore: boolean;
  /** What Find lists the orders by, as typed (an e-mail, four digits, an amount); undefined: every order. */
  readonly search: string | undefined;
  /** Why Find sent nothing (a card number typed). */
  readonly findProblem: string | undefined;
  /** An order whose id is what Find searched for (four digits), offered beside the list. */
  readonly alsoOrder?: string | undefined;
  /** The list as a CSV file: on its way, or why it failed. */
  readonly csv: CsvExportState;
  /** The journal of money moved over the list's period, as a CSV file: on its way, or why it failed. */
  readonly journal: CsvExportState;
  /** The days the orders listed (and the CSV file) were created in. */
  readonly period: PeriodControlState;
  /** The currencies the shop's orders are known in (the list's, the money panel's): how Find reads an amount typed without one. */
  readonly currencies: readonly string[];
}

/** What Find lists orders by: the merchant API's parameters, and the words the list shows for them. */
export interface OrderSearch {
  readonly query: Readonly<Record<string, string>>;
  readonly shown: string;
  /** An order id the search's text may be as well: looked up beside the list, offered when it exists. */
  readonly orderId?: string | undefined;
}

export interface OrderHandlers extends PeriodHandlers {
  filter(filter: OrderFilter): void;
  kind(kind: OrderKind): void;
  /** Charge the saved card of the open order's customer. */
  charge(): void;
  /** Mark the open order, held for a discrepancy, settled. */
  settle(): void;
  select(orderId: string): void;
  /** Lists the orders Find matches; undefined: every order again. */
  search(search: OrderSearch | undefined): void;
  /** Find was given what it must not send (a card number): said, not sent. */
  /** Find sends nothing, for `problem` (default: a card number typed, taken out of the box). */
  refuseFind(problem?: string): void;
  /** The next page of the list, below what is shown. */
  more(): void;
  /** The list's read that failed, again. */
  retry(): void;
  /** Every order the list's filters match, as a CSV file. */
  exportCsv(): void;
  /** The journal of money moved over the list's period, as a CSV file. */
  exportJournal(): void;
  /** `byKey`: pressed with Enter or Space, not clicked (a click of a key has no count). */
  act(action: OperationAction, byKey: boolean): void;
  resend(): void;
  receipt(format: 'html' | 'pdf'): void;
  /** Erase the personal data of the open order's customer, from every order of theirs. */
  erase(): void;
}

const STATUS_KEYS: Record<PaymentStatus, MessageKey> = {
  init: 'status.init',
  pending: 'status.pending',
  success: 'status.success',
  failure: 'status.failure',
};

/** A status in the page's words; one it has no word for as the gateway names it. */
export const statusBadge = (status: PaymentStatus | string) =>
  html`<span class="badge badge--${status}">${status in STATUS_KEYS ? t(STATUS_KEYS[status as PaymentStatus]) : isolated(status)}</span>`;

/** A paid order's outcome: its words, and the badge's look (closed: nothing kept, the plain grey badge). */
const OUTCOMES: Record<OutcomeState, { readonly key: MessageKey; readonly look: string }> = {
  refunded: { key: 'outcome.refunded', look: 'closed' },
  partlyRefunded: { key: 'outcome.partlyRefunded', look: 'success' },
  voided: { key: 'outcome.voided', look: 'closed' },
  capturedLess: { key: 'outcome.capturedLess', look: 'success' },
  capturedMore: { key: 'outcome.capturedMore', look: 'success' },
  uncaptured: { key: 'outcome.uncaptured', look: 'init' },
  pending: { key: 'outcome.pending', look: 'pending' },
};

/**
 * The order's state: an attempt the gateway never decided is neither awaiting payment nor
 * declined, as the report's "Not sent" counts it; a paid one refunded, voided or captured for
 * another amount says so rather than "Success".
 */
function orderBadge(order: OrderSummary, totals: Totals) {
  if (gatewayForgot(order)) return html`<span class="badge badge--init" title=${t('status.forgottenHint')}>${t('status.forgotten')}</span>`;
  if (neverDecided(order)) return html`<span class="badge badge--init" title=${t('stats.notSentHint')}>${t('status.notSent')}</span>`;
  if (abandoned(order)) return html`<span class="badge badge--closed" title=${t('stats.cancelledHint')}>${t('stats.cancelled')}</span>`;
  const outcome = orderOutcome(order, totals);
  if (!outcome) return statusBadge(order.status);
  const { key, look } = OUTCOMES[outcome.state];
  return html`<span class="badge badge--${look}">${t(key)}</span>`;
}

/** What the order came to, and what was asked when that differs (a refund, a void, another capture). */
function orderAmount(order: OrderSummary, totals: Totals) {
  const outcome = orderOutcome(order, totals);
  if (!outcome || outcome.cameTo === units(order.amount)) return shownAmount(order.amount, order.currency);
  return html`${shownAmount(outcome.cameTo, order.currency)} <span class="amount-asked">${t('outcome.was', { amount: shownAmount(order.amount, order.currency) })}</span>`;
}

/** An order the gateway contradicted that no one has settled: held for a person (heldNotice says why). */
const heldBadge = (order: OrderSummary) => (settleable(order) ? html` <span class="badge badge--held">${t('held.badge')}</span>` : nothing);

/**
 * What the gateway reported that holds the order — every report, a line for each thing, and the
 * settlements a later report reopened where they came — and what to do; once a person settled
 * it, when and how, the reports kept below.
 */
function heldNotice(order: OrderSummary, settle: () => void): TemplateResult | typeof nothing {
  const held = order.discrepancy;
  if (!held) return nothing;
  // A settlement covered the reports up to its version: it is said before the next one.
  const reopened = (version: number) =>
    held.settled_before.filter((settlement) => settlement.version === version).map((settlement) => t('held.reopened', { time: isolated(time(settlement.settled_at, true)), note: isolated(settlement.note) }));
  const later = held.later.map((report, i) => [...reopened(i + 1), t('held.later', { time: isolated(time(report.noted_at, true)) }), ...reportLines(report, order)]);
  const reports = [reportLines(held, order), ...later].flat().map((line) => html`<p>${line}</p>`);
  // Reopened by the truncation itself: said before it.
  const more = held.later_truncated ? [...reopened(held.later.length + 1), t('held.more')].map((line) => html`<p>${line}</p>`) : nothing;
  if (held.settled) {
    return html`<div class="notice held held--settled" tabindex="-1">
      <strong>${t('held.settledHeading', { time: isolated(time(held.settled.settled_at, true)) })}</strong>
      <p>${t('held.settledNote', { note: isolated(held.settled.note) })}</p>
      ${reports}${more}
    </div>`;
  }
  return html`<div class="notice notice--error held" tabindex="-1">
    <strong>${t('held.heading')}</strong>
    ${reports}${more}
    <p>${t('held.settle', { time: isolated(time(held.noted_at, true)) })}</p>
    <p><button type="button" class="button button--small" @click=${settle}>${t('action.settle')}</button></p>
  </div>`;
}

/** The lines of one report: each thing it says that contradicts the order. */
export function reportLines(held: DiscrepancyReport, { amount, currency, status }: Pick<OrderSummary, 'amount' | 'currency' | 'status'>): (TemplateResult | string)[] {
  const money = (value: ApiAmount, of: string | null = currency) => shownAmount(value, of ?? currency);
  const kind = (operation: { readonly kind: Operation['kind'] }) => t(`operation.${operation.kind}`).toLowerCase();
  const lines: (TemplateResult | string)[] = [];
  if (held.unreadable) lines.push(t('held.unread'));
  // Another transaction of the card, not this payment: told so, whatever its amount.
  else if (held.transaction_id !== null) {
    const amount = held.amount === null ? '—' : money(held.amount, held.currency);
    lines.push(t('held.recurring', { status: t(STATUS_KEYS[held.status]).toLowerCase(), amount, transaction: held.transaction_id }));
  } else if (held.amount !== null && (units(held.amount) !== units(amount) || held.currency !== currency || held.status !== status)) {
    // Other figures, or the same for another outcome: an attempt ended failed that the gateway reports paid.
    lines.push(t('held.reported', { status: t(STATUS_KEYS[held.status]).toLowerCase(), amount: money(held.amount, held.currency) }));
  }
  if (held.paid_amount !== null) lines.push(t('held.paid', { amount: money(held.paid_amount, held.paid_currency) }));
  if (held.refunded_amount !== null) lines.push(t('held.refunded', { amount: money(held.refunded_amount) }));
  if (held.captured_amount !== null) lines.push(t('held.captured', { amount: money(held.captured_amount) }));
  if (held.late_operation) lines.push(t('held.late', { kind: kind(held.late_operation), amount: money(held.late_operation.amount) }));
  const restated = held.restated_operation;
  if (restated) lines.push(t('held.restated', { kind: kind(restated), recorded: money(restated.recorded_amount), reported: money(restated.reported_amount) }));
  return lines;
}

/** A time as the page's language writes it (times.ts); with the date where asked, or not today's. */
export const time = (iso: string | null, withDate = false) => (iso ? formatTime(iso, displayLocale(), withDate) : '—');

/** A time in a table's cell: its date and its time each kept on a line, the cell breaking between them when narrow; isolated as one. */
const stamp = (iso: string | null, withDate = false) =>
  iso ? isolated(timeLines(iso, displayLocale(), withDate).map((line, i) => html`${i ? ' ' : ''}<span class="nowrap">${line}</span>`)) : '—';

/**
 * A long unspaced token — an order id, an e-mail address — that a narrow column may break after
 * its punctuation, or before a retry's ":2" and an address's "@", rather than grow past its
 * panel. Still one word to copy and to assistive technology: <wbr> adds no text.
 */
const breakable = (token: string) => token.split(/(?<=[-_./])|(?=[:@])/u).map((part, i) => (i ? html`<wbr>${part}` : part));

const METHOD_KEYS: Record<OrderSummary['method'], MessageKey> = { purchase: 'method.purchase', auth: 'method.auth', lookup: 'method.lookup' };
const OPERATION_KEYS: Readonly<Record<string, MessageKey>> = { capture: 'operation.capture', void: 'operation.void', refund: 'operation.refund' };

/** A webhook's kind in the page's language; one the page has no word for (a payout's) as the gateway names it. */
const eventMethod = (method: string) => {
  const key = (METHOD_KEYS as Readonly<Record<string, MessageKey>>)[method] ?? OPERATION_KEYS[method];
  return key ? t(key) : isolated(method);
};

/** What the gateway said of an operation (its code, its words) and the comment it was made with: each its own run, as received. */
const operationDetails = (operation: Operation) => {
  const details = [operation.status_code, operation.status_description, operation.comment].filter(Boolean);
  return details.length ? details.map((detail, i) => html`${i ? ' · ' : ''}${isolated(detail)}`) : '—';
};

/**
 * An operation's receipt: the page the gateway gave a successful refund in its answer or webhook
 * (its documented receipt; the order's receipt reads cover payments and credits only), opened
 * apart from the back office. A dash for an operation without one.
 */
const receiptOf = (operation: Operation) => (operation.kind === 'refund' && operation.status === 'success' ? operation.receipt_url : null);

const operationReceipt = (operation: Operation) => {
  const url = receiptOf(operation);
  return url ? html`<a href=${url} target="_blank" rel="noopener noreferrer">${t('operations.receiptOf')}</a>` : '—';
};

const cardText = (card: OrderSummary['card']) => (card ? `•••• ${card.mask.slice(-4)}` : '—');

const sellerName = (share: Share) => isolated(subMerchantName(share.sub_merchant_id));

/** A link to an order: opens it in the panel (`select`), or by its address in a new tab. */
export const orderLink = (orderId: string, select: Pick<OrderHandlers, 'select'>, current = false) =>
  html`<a class="mono" href="?${new URLSearchParams({ order: orderId })}" aria-current=${current ? 'true' : nothing}
    @click=${(event: MouseEvent) => {
      event.preventDefault();
      select.select(orderId);
    }}>${isolated(breakable(orderId))}</a>`;

/**
 * A search that found nothing, naming what on the screen narrows it: the state pressed and, when
 * one is chosen, the period (a customer's order of yesterday is in no "Today"). It named a "Show
 * filter" no one sees (the states' group is labelled so only for screen readers) and left the
 * period out, so the customer was taken to be wrong.
 */
export function noMatchText(period: Period | undefined, lang: string): string {
  return period ? t('orders.noMatchInPeriod', { days: periodText(period, lang) }) : t('orders.noMatch');
}

export function ordersPanel(state: OrderListState, handlers: OrderHandlers): TemplateResult {
  const filters: OrderFilter[] = ['all', 'success', 'pending', 'init', 'failure', 'held'];
  return html`<section class="panel orders" aria-labelledby="orders-heading">
    <header class="panel__head">
      <h2 id="orders-heading" tabindex="-1">${t('orders.heading')}</h2>
      <div class="segmented" role="group" aria-label=${t('orders.kind')}>
        ${(['payments', 'verifications'] as const).map(
          (kind) => html`<button type="button" aria-pressed=${state.kind === kind ? 'true' : 'false'} @click=${() => handlers.kind(kind)}>
            ${t(kind === 'payments' ? 'orders.payments' : 'orders.verifications')}
          </button>`,
        )}
      </div>
      <div class="segmented" role="group" aria-label=${t('orders.filter')}>
        ${filters.map(
          (filter) => html`<button type="button" aria-pressed=${state.filter === filter ? 'true' : 'false'} @click=${() => handlers.filter(filter)}>
            ${filter === 'all' ? t('orders.all') : filter === 'held' ? t('held.badge') : t(STATUS_KEYS[filter])}
          </button>`,
        )}
      </div>
      <form class="order-find" role="search" @submit=${(event: SubmitEvent) => findOrder(event, state, handlers)}>
        <label for="order-find">${t('orders.find')}</label>
        <input id="order-find" name="order" type="search" required maxlength="254" autocomplete="off" spellcheck="false" dir="ltr"
          placeholder=${t('orders.findHint')} aria-describedby="order-find-hint${state.findProblem ? ' order-find-problem' : ''}" aria-invalid=${state.findProblem ? 'true' : nothing}>
        <button type="submit" class="button button--small button--quiet">${t('orders.open')}</button>
        <p id="order-find-hint" class="muted order-find__hint">${t('orders.findHow')}</p>
        ${state.findProblem ? html`<p id="order-find-problem" class="notice notice--error order-find__problem" role="alert">${state.findProblem}</p>` : nothing}
      </form>
      ${periodControl(state.period, handlers)}
      ${exportControl(state.csv, state.journal, handlers)}
    </header>
    ${state.search !== undefined
      ? html`<p class="orders__search">
          ${t('orders.matching', { what: isolated(state.search) })}
          <button type="button" class="button button--small button--quiet" @click=${() => handlers.search(undefined)}>${t('orders.showAll')}</button>
        </p>
        ${state.alsoOrder !== undefined ? html`<p class="orders__also">${t('orders.alsoOrder', { order: orderLink(state.alsoOrder, handlers, state.selected === state.alsoOrder) })}</p>` : nothing}`
      : nothing}
    ${state.problem
      ? html`<div class="notice notice--error orders__problem" role="alert">
          ${state.problem}
          <button type="button" class="button button--small button--quiet orders__retry" @click=${handlers.retry}>${t('retry')}</button>
        </div>`
      : nothing}
    ${state.orders.length === 0
      ? state.problem
        ? nothing
        : html`<p class="muted">${state.loading ? t('loading') : state.search !== undefined ? noMatchText(state.period.period, state.period.lang) : state.period.period && state.filter === 'all' ? t('period.none', { days: periodText(state.period.period, state.period.lang) }) : t(state.filter === 'all' ? 'orders.empty' : state.filter === 'held' ? 'orders.noneHeld' : 'orders.noneInState')}</p>`
      : html`${scrollRegion(t('orders.heading'), html`<table class="orders-table">
          <caption class="visually-hidden">${t('orders.caption')}</caption>
          <thead><tr>
            <th scope="col">${t('orders.order')}</th><th scope="col" class="numeric">${t('orders.amount')}</th><th scope="col">${t('orders.status')}</th>
            <th scope="col">${t('orders.created')}</th><th scope="col">${t('orders.customer')}</th>
          </tr></thead>
          <tbody>${repeat(
            state.orders,
            // Keyed: a row keeps its order as the live feed adds others above it, and so does a focused link.
            (order) => order.order_id,
            (order) => html`<tr class=${[state.selected === order.order_id ? 'is-selected' : '', state.flashing.has(order.order_id) ? 'is-flashing' : ''].join(' ')}>
              <th scope="row">
                ${orderLink(order.order_id, handlers, state.selected === order.order_id)}
                <span class="order-kind">${t(METHOD_KEYS[order.method])}${order.mode === 'hosted' ? ` · ${t('mode.hosted')}` : ''}${order.split ? ` · ${t('detail.splitShort')}` : ''}${order.card
                  ? html` · <span class="orders__card" dir="ltr"><span class="visually-hidden">${t('detail.card')} </span>${cardText(order.card)}</span>`
                  : nothing}</span>
              </th>
              <td class="numeric">${orderAmount(order, order.totals)}</td>
              <td>${orderBadge(order, order.totals)}${heldBadge(order)}</td>
              <td>${stamp(order.created_at)}</td>
              <td class="orders__customer">${customerText(order)}</td>
            </tr>`,
          )}</tbody>
        </table>`)}
        ${state.more
          ? html`<button type="button" class="button button--small button--quiet orders__more" aria-disabled=${state.loadingMore ? 'true' : 'false'} @click=${handlers.more}>${t('orders.more')}</button>`
          : nothing}`}
  </section>`;
}

/** A row's customer: the name, and the e-mail that tells two of the same name (or none) apart. */
function customerText(order: ListedOrder): TemplateResult | string {
  const name = [order.customer?.fname, order.customer?.lname].filter(Boolean).join(' ');
  const email = order.customer?.email;
  if (!email) return name ? isolated(name) : '—';
  return html`${name ? html`${isolated(name)}<br>` : nothing}<span class="muted" dir="ltr">${breakable(email)}</span>`;
}

/**
 * What a customer reads out on the phone: an order id opens that order (the shop's id finds its
 * attempts too); an e-mail, four digits or an amount lists the orders it matches (four digits
 * that are an order's id as well offer that order beside the list). A card number
 * is taken out of the box and never sent. An amount typed without a currency is read with the
 * decimals of the currencies the shop's orders are in, and matched in each of them; when those
 * differ (UAH's two, JPY's none), 5.00 is no one sum, and Find asks for the currency.
 */
function findOrder(event: SubmitEvent, state: OrderListState, handlers: OrderHandlers): void {
  event.preventDefault();
  const input = (event.currentTarget as HTMLFormElement).elements.namedItem('order') as HTMLInputElement;
  const request = readFind(input.value, state.currencies);
  if (request.kind === 'cardNumber') {
    input.value = '';
    handlers.refuseFind();
  } else if (request.kind === 'whichCurrency') {
    const { shown, currencies } = request;
    handlers.refuseFind(t('orders.whichCurrency', { amount: shown, currencies: currencies.join(', '), example: `${shown} ${currencies[0]}` }));
  } else if (request.kind === 'order') handlers.select(request.orderId);
  else if (request.kind === 'search') handlers.search({ query: request.query, shown: request.shown, orderId: request.orderId });
}

/** What the open order's panel says besides the order: a refusal, or what was asked of the gateway. */
export interface DetailState {
  readonly problem?: string | undefined;
  /** Seen here, heard from the page's one live region (`announce`): no live region of its own, or it is said twice. */
  readonly notice?: TemplateResult | string | undefined;
  /** A webhook re-send is on its way: its button waits. */
  /** The receipt being downloaded: its button waits, so a second press is not a second file. */
  readonly downloading?: 'html' | 'pdf' | undefined;
}

export function orderDetailPanel(detail: OrderDetail | undefined, { problem, notice, downloading }: DetailState, handlers: OrderHandlers): TemplateResult {
  if (!detail) {
    return html`<section class="panel order-detail order-detail--empty" aria-labelledby="detail-heading">
      <h2 id="detail-heading">${t('detail.none')}</h2>
      ${problem ? html`<p class="notice notice--error" role="alert">${problem}</p>` : html`<p class="muted">${t('detail.pick')}</p>`}
    </section>`;
  }
  const { order, totals, operations, events, attempts } = detail;
  const money = (amount: ApiAmount) => shownAmount(amount, order.currency);
  const actions = applicableActions(detail);
  const receipts = operations.some((operation) => receiptOf(operation) !== null);
  const name = [order.customer?.fname, order.customer?.lname].filter(Boolean).join(' ');
  return html`<section class="panel order-detail" aria-labelledby="detail-heading">
    <header class="order-detail__head">
      <div>
        <p class="eyebrow">${t('detail.order')}</p>
        <h2 id="detail-heading" class="mono" tabindex="-1">${isolated(order.order_id)}</h2>
      </div>
      <div class="order-detail__amount">
        <strong>${orderAmount(order, totals)}</strong>
        ${orderBadge(order, totals)}${heldBadge(order)}
      </div>
    </header>
    ${problem ? html`<p class="notice notice--error" role="alert">${problem}</p>` : nothing}
    ${notice ? html`<p class="notice">${notice}</p>` : nothing}
    ${heldNotice(order, handlers.settle)}
    <dl class="facts">
      ${detail.description ? html`<div class="facts__wide"><dt>${t('detail.description')}</dt><dd>${isolated(detail.description)}</dd></div>` : nothing}
      <div><dt>${t('orders.method')}</dt><dd>${t(METHOD_KEYS[order.method])}</dd></div>
      <div><dt>${t('detail.mode')}</dt><dd>${t(detail.source === 'saved_card_charge' ? 'mode.charge' : order.mode === 'hosted' ? 'mode.hosted' : 'mode.direct')}</dd></div>
      <div><dt>${t('detail.card')}</dt><dd><span dir="ltr">${cardText(order.card)}${order.card?.brand ? html` <span class="muted">${order.card.brand}</span>` : nothing}</span></dd></div>
      <div><dt>${t('orders.customer')}</dt><dd>${name ? isolated(name) : '—'}${order.customer?.email ? html`<br><span class="muted" dir="ltr">${breakable(order.customer.email)}</span>` : nothing}${order.customer?.phone ? html`<br><span class="muted" dir="ltr">${order.customer.phone}</span>` : nothing}${detail.customer_erased_at ? html`<br><span class="muted">${t('detail.customerErased', { time: time(detail.customer_erased_at, true) })}</span>` : nothing}</dd></div>
      <div><dt>${t('orders.created')}</dt><dd>${stamp(order.created_at, true)}</dd></div>
      <div><dt>${t('detail.gatewayStatus')}</dt><dd>${order.status_code ?? '—'}${order.status_description ? html` <span class="muted">${isolated(order.status_description)}</span>` : nothing}</dd></div>
      ${attempts.length > 1
        ? html`<div class="facts__wide"><dt>${t('detail.attempts')}</dt><dd>${attempts.map(
            (attempt) => html`<span class="chip">${orderLink(attempt.order_id, handlers, attempt.order_id === order.order_id)} ${statusBadge(attempt.status)}</span>`,
          )}</dd></div>`
        : nothing}
      ${order.split ? html`<div class="facts__wide"><dt>${t('detail.split')}</dt><dd>${order.split.map((share) => html`<span class="chip">${sellerName(share)}: ${money(share.amount)}</span>`)}</dd></div>` : nothing}
    </dl>
    <dl class="totals">
      ${order.method === 'auth' ? html`<div><dt>${t('totals.captured')}</dt><dd>${money(totals.captured)}</dd></div>
        <div><dt>${t('totals.capturable')}</dt><dd>${money(Math.min(units(order.amount), units(totals.capturable)))}</dd></div>` : nothing}
      <div><dt>${t('totals.refunded')}</dt><dd>${money(totals.refunded)}</dd></div>
      <div><dt>${t('totals.refundable')}</dt><dd>${money(totals.refundable)}</dd></div>
      ${totals.voided ? html`<div><dt>${t('totals.voided')}</dt><dd>${t('yes')}</dd></div>` : nothing}
      ${units(totals.capture_pending) + units(totals.refund_pending) > 0
        ? html`<div><dt>${t('totals.pending')}</dt><dd>${money(units(totals.capture_pending) > 0 ? totals.capture_pending : totals.refund_pending)}</dd></div>`
        : nothing}
    </dl>
    <div class="order-actions" role="group" aria-label=${t('detail.actions')}>
      ${repeat(
        actions,
        (action) => action,
        (action) => html`<button type="button" class=${action === 'void' || action === 'cancel' ? 'button button--small button--quiet danger-text' : 'button button--small'}
          @click=${(event: MouseEvent) => handlers.act(action, event.detail === 0)}>${t(ACTION_NAMES[action])}</button>`,
      )}
      ${chargeable(order) ? html`<button type="button" class="button button--small" @click=${handlers.charge}>${t('action.chargeCard')}</button>` : nothing}
      ${order.unsent_at || neverDecided(order)
        ? // The gateway never took it (a refused currency, an outage): it has no webhook to send.
          nothing
        : html`<button type="button" class="button button--small button--quiet" aria-haspopup="dialog" @click=${handlers.resend}>${t('action.resend')}</button>`}
      ${order.status === 'success' && order.method !== 'lookup'
        ? // A card verification takes no money: the gateway makes it no receipt.
          (['html', 'pdf'] as const).map(
            (format) => html`<button type="button" class="button button--small button--quiet" aria-disabled=${downloading === format ? 'true' : 'false'}
              @click=${() => handlers.receipt(format)}>${downloading === format ? t('receipts.downloading') : t(format === 'html' ? 'action.receiptHtml' : 'action.receiptPdf')}</button>`,
          )
        : nothing}
      ${erasable(order) ? html`<button type="button" class="button button--small button--quiet danger-text" @click=${handlers.erase}>${t('action.erase')}</button>` : nothing}
    </div>
    ${detailTable({
      id: 'operations',
      heading: t('operations.heading'),
      empty: t('operations.none'),
      columns: [t('operations.kind'), [t('orders.amount'), 'numeric'], t('orders.status'), t('operations.details'), t('operations.when'), ...(receipts ? [t('operations.receipt')] : [])],
      rows: operations.map(
        (operation) => html`<tr>
          <th scope="row">${t(`operation.${operation.kind}`)}${operation.split ? html` <span class="muted">(${t('detail.splitShort')})</span>` : nothing}</th>
          <td class="numeric">${money(operation.amount)}</td>
          <td>${statusBadge(operation.status)}</td>
          <td class="operation-details">${operationDetails(operation)}
            ${operation.split ? html`<br>${operation.split.map((share) => html`<span class="chip">${sellerName(share)}: ${money(share.amount)}</span>`)}` : nothing}</td>
          <td>${stamp(operation.created_at)}</td>
          ${receipts ? html`<td class="operation-receipt">${operationReceipt(operation)}</td>` : nothing}
        </tr>`,
      ),
    })}
    ${detailTable({
      id: 'events',
      heading: t('events.heading'),
      empty: t('events.none'),
      columns: [t('events.received'), t('events.event'), t('orders.status'), t('events.outcome')],
      rows: events.map(
        (event) => html`<tr>
          <td>${stamp(event.received_at)}</td>
          <th scope="row">${eventMethod(event.method)}${event.operation_id ? html` <span class="muted mono">${isolated(event.operation_id.slice(0, 8))}</span>` : nothing}</th>
          <td>${statusBadge(event.status)}</td>
          <td>${t(`event.${event.outcome}`)}</td>
        </tr>`,
      ),
    })}
  </section>`;
}

/** A titled table of the order's detail, or a line saying there is nothing yet. */
function detailTable(table: { id: string; heading: string; empty: string; columns: (string | [string, string])[]; rows: TemplateResult[] }): TemplateResult {
  return html`<section aria-labelledby="${table.id}-heading">
    <h3 id="${table.id}-heading">${table.heading}</h3>
    ${table.rows.length === 0
      ? html`<p class="muted">${table.empty}</p>`
      : scrollRegion(table.heading, html`<table class="${table.id}-table" aria-labelledby="${table.id}-heading">
          <thead><tr>${table.columns.map((column) => {
            const [name, kind] = Array.isArray(column) ? column : [column, ''];
            return html`<th scope="col" class=${kind || nothing}>${name}</th>`;
          })}</tr></thead>
          <tbody>${table.rows}</tbody>
        </table>`)}
  </section>`;
}
