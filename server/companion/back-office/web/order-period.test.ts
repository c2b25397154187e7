// The orders list's period: whole days of the browser's time zone, each end with its own offset.
// Each case sets the zone it is about (Node reads TZ again when it changes), whatever zone the run is in.
import { afterEach, describe, expect, it } from 'vitest';
import { listQuery } from './order-list.js';
import { exportPath } from './orders-csv.js';
import { dayStart, periodQuery, presetPeriod, shownTimeZone, timeZone, typedPeriod, withOffset } from './order-period.js';

const runZone = process.env.TZ;
const inZone = (zone: string) => {
  process.env.TZ = zone;
  expect(new Date(2026, 6, 1).getTimezoneOffset()).not.toBe(new Date(2026, 0, 1).getTimezoneOffset());
};
afterEach(() => {
  if (runZone === undefined) delete process.env.TZ;
  else process.env.TZ = runZone;
});
/** The days `from` to `to` as the list asks for them: created_from and created_to (whichever choice named the days). */
const sentAs = (from: string, to: string): [string | undefined, string | undefined] => {
  const { created_from: start, created_to: end } = periodQuery({ choice: 'custom', from, to });
  return [start, end];
};

describe('the orders list’s period', () => {
  it('is a Kyiv month from its first midnight to the next month’s, each at its own offset', () => {
    inZone('Europe/Kyiv');
    // The clocks go back on the last Sunday of October: October starts at +03:00 and ends at +02:00.
    expect(sentAs('2026-10-01', '2026-10-31')).toEqual(['2026-10-01T00:00:00+03:00', '2026-11-01T00:00:00+02:00']);
    // And forward on the last Sunday of March.
    expect(sentAs('2026-03-01', '2026-03-31')).toEqual(['2026-03-01T00:00:00+02:00', '2026-04-01T00:00:00+03:00']);
    // The day the clocks go back has 25 hours: it still ends at the next midnight.
    const [from, to] = sentAs('2026-10-25', '2026-10-25');
    expect(Date.parse(to!) - Date.parse(from!)).toBe(25 * 3_600_000);
    // An order at 22:30 UTC on 31 October is November's in Kyiv.
    expect(Date.parse('2026-10-31T22:30:00Z')).toBeGreaterThanOrEqual(Date.parse(sentAs('2026-11-01', '2026-11-30')[0]!));
  });

  it('is a New York month at its own offsets, the year’s end rolling over', () => {
    inZone('America/New_York');
    expect(sentAs('2026-11-01', '2026-11-30')).toEqual(['2026-11-01T00:00:00-04:00', '2026-12-01T00:00:00-05:00']);
    expect(sentAs('2026-12-01', '2026-12-31')).toEqual(['2026-12-01T00:00:00-05:00', '2027-01-01T00:00:00-05:00']);
  });

  it('starts a day whose midnight the clocks skip at its first hour', () => {
    inZone('America/Santiago');
    // Chile moves its clocks forward at midnight on the first Sunday of September (2026-09-06).
    expect(sentAs('2026-09-06', '2026-09-06')).toEqual(['2026-09-06T01:00:00-03:00', '2026-09-07T00:00:00-03:00']);
  });

  it('writes each end as the instant it is, in any zone', () => {
    for (const zone of ['Europe/Kyiv', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC']) {
      process.env.TZ = zone;
      for (const day of ['2026-01-01', '2026-03-29', '2026-10-25', '2026-02-28', '2024-02-29']) {
        const start = dayStart(day)!;
        expect(Date.parse(withOffset(start))).toBe(start.getTime());
        expect(withOffset(start).slice(0, 10)).toBe(day);
      }
    }
  });

  it('stands for today, this calendar month and the one before, across a year’s end and a leap February', () => {
    inZone('Europe/Kyiv');
    const newYear = new Date(2027, 0, 1, 0, 30);
    expect(presetPeriod('today', newYear)).toEqual({ choice: 'today', from: '2027-01-01', to: '2027-01-01' });
    expect(presetPeriod('thisMonth', newYear)).toEqual({ choice: 'thisMonth', from: '2027-01-01', to: '2027-01-31' });
    expect(presetPeriod('lastMonth', newYear)).toEqual({ choice: 'lastMonth', from: '2026-12-01', to: '2026-12-31' });
    expect(presetPeriod('lastMonth', new Date(2024, 2, 31, 23, 59))).toEqual({ choice: 'lastMonth', from: '2024-02-01', to: '2024-02-29' });
    expect(presetPeriod('thisMonth', new Date(2026, 10, 30, 23, 59))).toEqual({ choice: 'thisMonth', from: '2026-11-01', to: '2026-11-30' });
  });

  it('takes typed dates, naming the field that is wrong', () => {
    expect(typedPeriod('2026-10-01', '2026-10-31')).toEqual({ choice: 'custom', from: '2026-10-01', to: '2026-10-31' });
    expect(typedPeriod('', '2026-10-31')).toEqual({ field: 'from', problem: 'period.noDate' });
    expect(typedPeriod('2026-10-01', '2026-02-31')).toEqual({ field: 'to', problem: 'period.noDate' });
    expect(typedPeriod('2026-10-02', '2026-10-01')).toEqual({ field: 'to', problem: 'period.toBeforeFrom' });
    // Days the merchant API cannot be asked for: before 1970, and a last day whose next one is past 9999.
    expect(typedPeriod('1969-12-31', '1970-01-05')).toEqual({ field: 'from', problem: 'period.outOfRange' });
    expect(typedPeriod('0099-01-01', '2026-01-05')).toEqual({ field: 'from', problem: 'period.outOfRange' });
    expect(typedPeriod('2026-01-01', '9999-12-31')).toEqual({ field: 'to', problem: 'period.outOfRange' });
    expect(typedPeriod('1970-01-02', '9999-12-30')).toMatchObject({ choice: 'custom' });
    // 1 January 1970 east of UTC: its first hours are before what the API counts from, the rest asked for.
    inZone('Europe/Kyiv');
    expect(typedPeriod('1970-01-01', '1970-01-01')).toMatchObject({ choice: 'custom' });
    expect(periodQuery({ choice: 'custom', from: '1970-01-01', to: '1970-01-01' }).created_from).toBe('1970-01-01T03:00:00+03:00');
    // West of UTC, 31 December 1969 ends after the epoch, yet is no day of 1970.
    inZone('America/New_York');
    expect(typedPeriod('1969-12-31', '1970-01-02')).toEqual({ field: 'from', problem: 'period.outOfRange' });
    expect(periodQuery(undefined)).toEqual({});
  });

  it('names Kyiv’s zone Europe/Kyiv to the reader, where the runtime’s time zone data still says Europe/Kiev', () => {
    inZone('Europe/Kyiv');
    // This runtime’s name for it, whichever: what the requests keep.
    expect(timeZone()).toMatch(/^Europe\/(Kyiv|Kiev)$/);
    expect(shownTimeZone()).toBe('Europe/Kyiv');
    expect(shownTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(shownTimeZone('Europe/Kyiv')).toBe('Europe/Kyiv');
    expect(shownTimeZone('America/New_York')).toBe('America/New_York');
  });

  it('is sent with the list’s filters, and Download CSV asks for the same days', () => {
    inZone('Europe/Kyiv');
    const period = { choice: 'custom', from: '2026-10-01', to: '2026-10-31' } as const;
    const { created_from: from, created_to: to } = periodQuery(period);
    const read = listQuery({ kind: 'payments', filter: 'success', period });
    expect(read.get('created_from')).toBe(from);
    expect(read.get('created_to')).toBe(to);
    read.set('limit', '50');
    expect(exportPath(read)).toBe(`/api/exports/orders?kind=payments&status=success&created_from=${encodeURIComponent(from!)}&created_to=${encodeURIComponent(to!)}`);
  });
});
