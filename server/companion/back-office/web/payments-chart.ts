/**
 * Payments over time, drawn by hand in SVG: per hour (or day) a bar of succeeded payments with
 * the failed and in-flight ones stacked on it, and the success rate as a line on its own scale.
 * The numbers are also a table for whoever cannot see the picture.
 */
import { html, nothing, svg } from 'lit';
import type { TemplateResult } from 'lit';
import type { Stats } from './admin-api.js';
import { t } from './i18n.js';
import { isolated, isolatedText } from './bidi-isolation.js';
import { displayLocale, formatCount, formatPercent } from './locale.js';
import { scrollRegion } from './scroll-region.js';

const WIDTH = 720;
const HEIGHT = 260;
// Room on the left for a scale's longest short count ("40 тис.").
const PLOT = { left: 46, right: 44, top: 14, bottom: 28 };

/** The top of the count scale: a round even number at or above `count` (4, 6, 8, 10, 20, 40 …), so the middle tick is whole too. */
export function niceCeiling(count: number): number {
  if (count <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(count));
  return [1, 2, 4, 6, 8, 10].map((factor) => factor * power).find((top) => top >= count && top % 2 === 0)!;
}

/** `days`: the period the figures are of, when it is not the last 24 hours or 30 days. */
export function paymentsChart(stats: Stats, days?: string): TemplateResult {
  const n = stats.buckets.length;
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const top = niceCeiling(Math.max(...stats.buckets.map((b) => b.succeeded + b.failed + b.in_flight), 0));
  const slot = plotWidth / Math.max(n, 1);
  const bar = Math.max(2, slot * 0.62);
  const y = (count: number) => PLOT.top + plotHeight - (count / top) * plotHeight;
  const yRate = (rate: number) => PLOT.top + plotHeight - rate * plotHeight;
  const x = (index: number) => PLOT.left + slot * index + (slot - bar) / 2;
  const label = new Intl.DateTimeFormat(displayLocale(), stats.bucket === 'hour' ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { day: 'numeric', month: 'short' });
  const every = stats.bucket === 'hour' ? 4 : 5;
  const rated = stats.buckets.flatMap((b, i) => (b.success_rate === null ? [] : [[x(i) + bar / 2, yRate(b.success_rate)] as const]));
  const { totals } = stats;
  const percent = (rate: number | null) => (rate === null ? '—' : isolatedText(formatPercent(rate)));

  const title = days === undefined ? t(stats.bucket === 'hour' ? 'chart.titleHours' : 'chart.titleDays') : t(stats.bucket === 'hour' ? 'chart.titleHoursOf' : 'chart.titleDaysOf', { days });

  return html`<figure class="chart">
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc">
      <title id="chart-title">${title}</title>
      <desc id="chart-desc">${t('chart.desc', { total: formatCount(totals.total), succeeded: formatCount(totals.succeeded), failed: formatCount(totals.failed), rate: percent(totals.success_rate) })}</desc>
      ${[0, 0.5, 1].map(
        (part) => svg`<line class="chart__grid" x1=${PLOT.left} x2=${WIDTH - PLOT.right} y1=${y(top * part)} y2=${y(top * part)}/>
          <text class="chart__axis" x=${PLOT.left - 6} y=${y(top * part) + 4} text-anchor="end">${formatCount(top * part, true)}</text>
          <text class="chart__axis" x=${WIDTH - PLOT.right + 6} y=${yRate(part) + 4}>${formatPercent(part)}</text>`,
      )}
      ${stats.buckets.map((b, i) => {
        const stack = [
          ['chart__succeeded', b.succeeded],
          ['chart__failed', b.failed],
          ['chart__in-flight', b.in_flight],
        ] as const;
        let base = 0;
        return svg`<g>${stack.map(([kind, count]) => {
          if (count === 0) return nothing;
          const from = base;
          base += count;
          return svg`<rect class=${kind} x=${x(i)} width=${bar} y=${y(base)} height=${y(from) - y(base)} rx="2"/>`;
        })}${i % every === 0 ? svg`<text class="chart__axis" x=${x(i) + bar / 2} y=${HEIGHT - 8} text-anchor="middle">${label.format(new Date(b.start))}</text>` : nothing}</g>`;
      })}
      ${rated.length > 1 ? svg`<polyline class="chart__rate" points=${rated.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}/>` : nothing}
      ${rated.map(([px, py]) => svg`<circle class="chart__rate-point" cx=${px.toFixed(1)} cy=${py.toFixed(1)} r="3.5"/>`)}
    </svg>
    <figcaption class="chart__legend">
      <span><i class="swatch swatch--succeeded"></i>${t('stats.succeeded')}</span>
      <span><i class="swatch swatch--failed"></i>${t('stats.failed')}</span>
      <span><i class="swatch swatch--in-flight"></i>${t('stats.inFlight')}</span>
      <span><i class="swatch swatch--rate"></i>${t('stats.rate')}</span>
    </figcaption>
    <details class="chart__table">
      <summary>${t('chart.table')}</summary>
      ${scrollRegion(title, html`<table>
        <thead><tr><th scope="col">${t('chart.when')}</th><th scope="col">${t('stats.succeeded')}</th><th scope="col">${t('stats.failed')}</th><th scope="col">${t('stats.inFlight')}</th><th scope="col">${t('stats.rate')}</th></tr></thead>
        <tbody>${stats.buckets
          .filter((b) => b.total > 0)
          .map((b) => html`<tr><th scope="row">${label.format(new Date(b.start))}</th><td>${formatCount(b.succeeded)}</td><td>${formatCount(b.failed)}</td><td>${formatCount(b.in_flight)}</td><td>${b.success_rate === null ? '—' : isolated(formatPercent(b.success_rate))}</td></tr>`)}</tbody>
      </table>`)}
    </details>
  </figure>`;
}
