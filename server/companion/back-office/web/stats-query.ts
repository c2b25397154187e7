/**
 * What the Payments figures ask of GET /api/stats: hours for a day or two, else days, each day
 * from a midnight of the browser's time zone — the zone the period's days are in —, so a month
 * the clocks change in has one bar per calendar day (its 23- or 25-hour day too).
 */
import type { MoneyDating, Stats } from './admin-api.js';
import { periodInstants, withOffset } from './order-period.js';
import type { Period } from './order-period.js';

const HOURLY_UP_TO_MS = 2 * 25 * 3_600_000;

/**
 * `zone`: the browser's (timeZone()). Undefined: the offset the period starts with, fixed, for a
 * companion whose time zone data lacks the browser's zone (it answers 400 naming time_zone);
 * days after a clock change then start an hour off.
 */
export function statsQuery(period: Period | undefined, bucket: 'hour' | 'day', zone: string | undefined): URLSearchParams {
  const instants = period && periodInstants(period);
  const edges: Record<string, string> = zone === undefined ? { utc_offset_minutes: String(Math.round(-(instants?.from ?? new Date()).getTimezoneOffset())) } : { time_zone: zone };
  if (!instants) return new URLSearchParams({ bucket, ...edges });
  const hourly = instants.to.getTime() - instants.from.getTime() <= HOURLY_UP_TO_MS;
  return new URLSearchParams({ bucket: hourly ? 'hour' : 'day', from: withOffset(instants.from), to: withOffset(instants.to), ...edges });
}

/**
 * What the money table asks of GET /api/stats/money: the instants the counts were just read for
 * (their answer's `from` and `to`), dated as the reader chose — by the order, or by when the
 * money moved.
 */
export function moneyQuery(counted: Pick<Stats, 'from' | 'to'>, datedBy: MoneyDating): URLSearchParams {
  return new URLSearchParams({ from: counted.from, to: counted.to, dated_by: datedBy });
}
