/**
 * The orders list's period: whole days of the browser's time zone, as an accountant's month is
 * (docs/companion.md, "The period"). Each end is the first instant of its day written with that
 * day's own offset, so a month the clocks change in starts and ends where its calendar does:
 * a Kyiv October is 2026-10-01T00:00:00+03:00 to 2026-11-01T00:00:00+02:00.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';

export type PeriodChoice = 'any' | 'today' | 'thisMonth' | 'lastMonth' | 'custom';

/** Days as `<input type="date">` writes them (YYYY-MM-DD); `to` is included. */
export interface Period {
  readonly choice: Exclude<PeriodChoice, 'any'>;
  readonly from: string;
  readonly to: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The first instant of a day in the browser's time zone: its midnight, or — where the clocks
 * jump forward at midnight — the first time the day has. Undefined for text that is no date.
 */
export function dayStart(day: string, later = 0): Date | undefined {
  const match = DAY.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const start = new Date(year, month, date + later);
  // Date() reads the years 0–99 as 1900–1999.
  if (year < 100) start.setFullYear(year, month, date + later);
  if (Number.isNaN(start.getTime())) return undefined;
  // 2026-02-31 would roll over to March: no such day.
  if (later === 0 && (start.getMonth() !== month || start.getDate() !== date)) return undefined;
  return start;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The instant as local date-time with its own offset (`2026-11-01T00:00:00+02:00`), as the merchant API takes it. */
export function withOffset(instant: Date): string {
  const offset = -instant.getTimezoneOffset();
  // A zone's old local mean time is seconds off the minute: no offset writes it, UTC does.
  if (!Number.isInteger(offset)) return instant.toISOString();
  const local = `${pad(instant.getFullYear(), 4)}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}T${pad(instant.getHours())}:${pad(instant.getMinutes())}:${pad(instant.getSeconds())}`;
  return `${local}${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** The period as instants: from the first instant of `from` (included) to that of the day after `to` (left out). */
export function periodInstants({ from, to }: Pick<Period, 'from' | 'to'>): { readonly from: Date; readonly to: Date } | undefined {
  const start = dayStart(from);
  const end = dayStart(to) && dayStart(to, 1);
  // 1 January 1970 east of UTC begins before the instants the merchant API counts from: from there.
  return start && end && start < end ? { from: start.getTime() < 0 ? new Date(0) : start, to: end } : undefined;
}

/** `created_from` and `created_to` of GET /api/orders and its export; none for every order. */
export function periodQuery(period: Period | undefined): Readonly<Record<string, string>> {
  const instants = period && periodInstants(period);
  return instants ? { created_from: withOffset(instants.from), created_to: withOffset(instants.to) } : {};
}

const dayText = (date: Date) => `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The days a choice stands for on the day `now` is in: today, this calendar month, or the one before. */
export function presetPeriod(choice: 'today' | 'thisMonth' | 'lastMonth', now = new Date()): Period {
  if (choice === 'today') return { choice, from: dayText(now), to: dayText(now) };
  const back = choice === 'lastMonth' ? 1 : 0;
  const first = new Date(now.getFullYear(), now.getMonth() - back, 1);
  const last = new Date(now.getFullYear(), now.getMonth() - back + 1, 0);
  return { choice, from: dayText(first), to: dayText(last) };
}

/** Which of the typed dates is wrong, and why (a message key). */
export interface PeriodProblem {
  readonly field: 'from' | 'to';
  readonly problem: 'period.noDate' | 'period.toBeforeFrom' | 'period.outOfRange';
}

/** Dates typed: the period, or what is wrong with them. */
export function typedPeriod(from: string, to: string): Period | PeriodProblem {
  if (!dayStart(from)) return { field: 'from', problem: 'period.noDate' };
  const end = dayStart(to) && dayStart(to, 1);
  if (!end) return { field: 'to', problem: 'period.noDate' };
  // What the merchant API takes: days of 1970 on (the first from the epoch, periodInstants), up to a next day it can still write.
  if (from < '1970-01-01') return { field: 'from', problem: 'period.outOfRange' };
  if (end.getFullYear() > 9999) return { field: 'to', problem: 'period.outOfRange' };
  if (to < from) return { field: 'to', problem: 'period.toBeforeFrom' };
  return { choice: 'custom', from, to };
}

// Built once per language: the period is written on every render, and a formatter costs far more than a format.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The period's days as the page's language writes a range ("Oct 1 – 31, 2026"). */
export function periodText({ from, to }: Pick<Period, 'from' | 'to'>, lang: string): string {
  let format = dayFormats.get(lang);
  if (!format) dayFormats.set(lang, (format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' })));
  const [start, end] = [dayStart(from)!, dayStart(to)!];
  return from === to ? format.format(start) : format.formatRange(start, end);
}

/** The browser's time zone, as the merchant API takes it: the days are its days. */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The zone as shown to the reader: the city's own name, Kyiv since 2022, where the runtime's time
 * zone data still gives the old Europe/Kiev (an alias of it in newer data). Requests keep the
 * runtime's name (timeZone()): the companion takes either.
 */
export const shownTimeZone = (zone: string = timeZone()): string => (zone === 'Europe/Kiev' ? 'Europe/Kyiv' : zone);

export interface PeriodControlState {
  readonly period: Period | undefined;
  /** Dates is pressed: its form shows (with the period's days, or this month's). */
  readonly editing: boolean;
  readonly problem?: { readonly field: 'from' | 'to'; readonly text: string } | undefined;
  readonly lang: string;
}

export interface PeriodHandlers {
  choose(choice: PeriodChoice): void;
  /** The dates form, sent. */
  typed(from: string, to: string): void;
}

const CHOICES: readonly { readonly choice: PeriodChoice; readonly key: Parameters<typeof t>[0] }[] = [
  { choice: 'any', key: 'period.any' },
  { choice: 'today', key: 'period.today' },
  { choice: 'thisMonth', key: 'period.thisMonth' },
  { choice: 'lastMonth', key: 'period.lastMonth' },
  { choice: 'custom', key: 'period.custom' },
];

/** The choices as the filters are pressed, the days they stand for, and the dates form when Dates is pressed. */
export function periodControl({ period, editing, problem, lang }: PeriodControlState, handlers: PeriodHandlers): TemplateResult {
  const pressed: PeriodChoice = editing ? 'custom' : (period?.choice ?? 'any');
  const shown = period ?? presetPeriod('thisMonth');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    handlers.typed(String(form.get('from') ?? ''), String(form.get('to') ?? ''));
  };
  // "false", not left out: Chromium reads an empty required date field as invalid before it is
  // touched, and the page judges these itself (no setCustomValidity to hide).
  const invalid = (field: 'from' | 'to') => (problem?.field === field ? 'true' : 'false');
  return html`<div class="order-period">
    <div class="segmented" role="group" aria-label=${t('period.label')} aria-describedby="order-period-days">
      ${CHOICES.map(({ choice, key }) => html`<button type="button" aria-pressed=${pressed === choice ? 'true' : 'false'} @click=${() => handlers.choose(choice)}>${t(key)}</button>`)}
    </div>
    <p id="order-period-days" class="muted order-period__days">${period
      ? t('period.days', { days: periodText(period, lang), zone: shownTimeZone() })
      : t('period.anyDays')}</p>
    ${editing
      ? html`<form class="order-period__dates" @submit=${submit} aria-label=${t('period.custom')} novalidate>
          <div class="field">
            <label for="period-from">${t('period.from')}</label>
            <input id="period-from" name="from" type="date" required .value=${shown.from} aria-invalid=${invalid('from')} aria-describedby="period-problem">
          </div>
          <div class="field">
            <label for="period-to">${t('period.to')}</label>
            <input id="period-to" name="to" type="date" required .value=${shown.to} aria-invalid=${invalid('to')} aria-describedby="period-problem">
          </div>
          <button type="submit" class="button button--small">${t('period.show')}</button>
          <p id="period-problem" class="field__error order-period__problem" role="alert">${problem ? problem.text : nothing}</p>
        </form>`
      : nothing}
  </div>`;
}
