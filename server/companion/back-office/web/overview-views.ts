/**
 * The back office's overview: the figures of the period (counts, and money per currency) with the chart, the balances of
 * accounts and terminals (a terminal the gateway cannot read is shown as such), and the day's
 * receipts as a ZIP.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import type { Balance, MoneyDating, MoneyReport, Stats, Terminals } from './admin-api.js';
import { paymentsChart } from './payments-chart.js';
import { isolated, shownAmount } from './bidi-isolation.js';
import { moneyDating, moneyTable } from './money-totals.js';
import { displayLocale, formatCount, formatPercent } from './locale.js';
import { formatTime } from './times.js';

export interface BalancesState {
  readonly accounts?: readonly Balance[];
  readonly terminals?: Terminals;
  /** When the figures shown were read (ISO): they move with payouts and settlement, not only with payments. */
  readonly readAt?: string;
  readonly problem?: string;
}

export interface StatsState {
  readonly stats?: Stats;
  /** The money of the same period, read apart (it reads each payment's operations). */
  readonly money?: MoneyReport | undefined;
  /** How the money is to be dated: the choice pressed (the table says how the money it shows is). */
  readonly datedBy: MoneyDating;
  /** The orders list's period the figures follow, as written for the reader; undefined: the last 24 hours or 30 days, pressed here. */
  readonly period?: string | undefined;
  /** Why the figures could not be read the last time (those shown, if any, are from before). */
  readonly problem?: string;
}

/** Why a panel's figures could not be read, and the button that reads them again: never "Loading…" for good. */
const readProblem = (problem: string, retry: () => void) =>
  html`<div class="notice notice--error overview__problem" role="alert">
    ${problem}
    <button type="button" class="button button--small button--quiet" @click=${retry}>${t('retry')}</button>
  </div>`;

export function statsPanel(
  { stats, money, datedBy, problem, period }: StatsState,
  handlers: { range: (bucket: Stats['bucket']) => void; dating: (datedBy: MoneyDating) => void; retry: () => void },
): TemplateResult {
  const bucket = stats?.bucket ?? 'hour';
  const totals = stats?.totals;
  const rate = totals?.success_rate;
  return html`<section class="panel stats" aria-labelledby="stats-heading">
    <header class="panel__head">
      <h2 id="stats-heading" tabindex="-1">${t('stats.heading')}</h2>
      ${period === undefined
        ? html`<div class="segmented" role="group" aria-label=${t('stats.range')}>
            <button type="button" aria-pressed=${bucket === 'hour' ? 'true' : 'false'} @click=${() => handlers.range('hour')}>${t('stats.day')}</button>
            <button type="button" aria-pressed=${bucket === 'day' ? 'true' : 'false'} @click=${() => handlers.range('day')}>${t('stats.month')}</button>
          </div>`
        : html`<p class="muted stats__period">${t('period.followed', { days: period })}</p>`}
    </header>
    <dl class="kpis">
      <div><dt>${t('stats.total')}</dt><dd>${totals ? formatCount(totals.total) : '—'}</dd></div>
      <div><dt>${t('stats.succeeded')}</dt><dd class="kpi--success">${totals ? formatCount(totals.succeeded) : '—'}</dd></div>
      <div><dt>${t('stats.failed')}</dt><dd class="kpi--failure">${totals ? formatCount(totals.failed) : '—'}</dd></div>
      ${totals?.not_sent ? html`<div title=${t('stats.notSentHint')}><dt>${t('stats.notSent')}</dt><dd class="kpi--failure">${formatCount(totals.not_sent)}</dd></div>` : nothing}
      ${totals?.cancelled ? html`<div title=${t('stats.cancelledHint')}><dt>${t('stats.cancelled')}</dt><dd>${formatCount(totals.cancelled)}</dd></div>` : nothing}
      <div><dt>${t('stats.rate')}</dt><dd>${rate === undefined || rate === null ? '—' : isolated(formatPercent(rate))}</dd></div>
    </dl>
    ${moneyDating(datedBy, handlers.dating)}
    ${money ? moneyTable(money) : stats && !problem ? html`<p class="muted">${t('loading')}</p>` : nothing}
    ${problem ? readProblem(problem, handlers.retry) : nothing}
    ${stats ? paymentsChart(stats, period) : problem ? nothing : html`<p class="muted">${t('loading')}</p>`}
  </section>`;
}

export function balancesPanel(state: BalancesState, retry: () => void): TemplateResult {
  // Waiting for the first answer, not after a refusal: the notice says what happened instead.
  const loading = state.problem ? nothing : html`<p class="muted">${t('loading')}</p>`;
  const row = (balance: Balance) => html`<li class="balance">
    <span class="balance__name">${isolated(balance.name)}</span>
    <span class="balance__amount">${shownAmount(balance.balances.available, balance.currency)}</span>
    ${balance.balances.rolling_reserve === undefined
      ? nothing
      : html`<span class="balance__reserve muted">${t('balances.reserve', { amount: shownAmount(balance.balances.rolling_reserve, balance.currency) })}</span>`}
  </li>`;
  return html`<section class="panel balances" aria-labelledby="balances-heading">
    <header class="panel__head">
      <h2 id="balances-heading" tabindex="-1">${t('balances.heading')}</h2>
      ${state.readAt
        ? html`<p class="muted balances__read-at">
            <span>${t('balances.readAt', { time: formatTime(state.readAt, displayLocale()) })}</span>
            <button type="button" class="button button--small button--quiet" @click=${retry}>${t('balances.readAgain')}</button>
          </p>`
        : nothing}
    </header>
    ${state.problem ? readProblem(state.problem, retry) : nothing}
    <h3>${t('balances.accounts')}</h3>
    ${state.accounts ? html`<ul class="balance-list">${state.accounts.map(row)}</ul>` : loading}
    <h3>${t('balances.terminals')}</h3>
    ${state.terminals
      ? html`<ul class="balance-list">
          ${state.terminals.terminals.map(row)}
          ${state.terminals.failed_terminals.map(
            (terminal) => html`<li class="balance balance--failed">
              <span class="balance__name"><span class="mono">${isolated(`${terminal.id.slice(0, 8)}…`)}</span></span>
              <span class="badge badge--failure">${t('balances.unavailable')}</span>
              <span class="balance__reserve muted">${isolated(terminal.message)}</span>
            </li>`,
          )}
        </ul>`
      : loading}
  </section>`;
}

/** What the day's receipts form says: why the last download failed, or that the day had none. */
export interface ReceiptsState {
  readonly problem?: string | undefined;
  readonly notice?: string | undefined;
  /** A day's ZIP is on its way: the button waits, so a second press is not a second file. */
  readonly busy: boolean;
}

/** The payments a day's receipts are of: all, or the gateway's purchases or authorisations alone. */
export type ReceiptsMethod = 'purchase' | 'auth' | undefined;

export function receiptsPanel(onDownload: (date: string, format: 'html' | 'pdf', method: ReceiptsMethod) => void, { problem, notice, busy }: ReceiptsState): TemplateResult {
  const today = new Date().toISOString().slice(0, 10);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const method = form.get('method');
    onDownload(String(form.get('date') || today), form.get('format') === 'html' ? 'html' : 'pdf', method === 'purchase' || method === 'auth' ? method : undefined);
  };
  return html`<section class="panel receipts" aria-labelledby="receipts-heading">
    <h2 id="receipts-heading">${t('receipts.heading')}</h2>
    <p class="muted">${t('receipts.text')}</p>
    <form class="receipts__form" @submit=${submit}>
      <div class="field">
        <label for="receipts-date">${t('receipts.date')}</label>
        <input id="receipts-date" name="date" type="date" .value=${today} max=${today} required>
      </div>
      <div class="field">
        <label for="receipts-format">${t('receipts.format')}</label>
        <select id="receipts-format" name="format"><option value="pdf">PDF</option><option value="html">HTML</option></select>
      </div>
      <div class="field">
        <label for="receipts-method">${t('receipts.method')}</label>
        <select id="receipts-method" name="method">
          <option value="">${t('receipts.methodAll')}</option><option value="purchase">${t('receipts.methodPurchase')}</option><option value="auth">${t('receipts.methodAuth')}</option>
        </select>
      </div>
      <button class="button button--quiet" type="submit" aria-disabled=${busy ? 'true' : 'false'}>${busy ? t('receipts.downloading') : t('receipts.download')}</button>
    </form>
    ${problem ? html`<p class="notice notice--error" role="alert">${problem}</p>` : nothing}
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : nothing}
  </section>`;
}
