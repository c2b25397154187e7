// What the Payments figures ask for: the days of the browser's time zone, by its name, so the
// bars of a month the clocks change in each start at a local midnight. Each case sets the zone
// it is about (Node reads TZ again when it changes), whatever zone the run is in.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { periodText, timeZone } from './order-period.js';
import { moneyQuery, statsQuery } from './stats-query.js';

// As the runtime's time zone data names them (older data: Europe/Kiev, Asia/Katmandu).
const kyiv = expect.stringMatching(/^Europe\/(Kyiv|Kiev)$/);
const kathmandu = expect.stringMatching(/^Asia\/(Kathmandu|Katmandu)$/);

const runZone = process.env.TZ;
afterEach(() => {
  if (runZone === undefined) delete process.env.TZ;
  else process.env.TZ = runZone;
  vi.restoreAllMocks();
});

describe('the figures’ query', () => {
  it('asks for the days of a Kyiv October by the zone’s name, not the offset it starts with', () => {
    process.env.TZ = 'Europe/Kyiv';
    const query = statsQuery({ choice: 'lastMonth', from: '2026-10-01', to: '2026-10-31' }, 'hour', timeZone());
    expect(Object.fromEntries(query)).toEqual({ bucket: 'day', from: '2026-10-01T00:00:00+03:00', to: '2026-11-01T00:00:00+02:00', time_zone: kyiv });
  });

  it('asks for hours for a day, and the zone for the rolling window too', () => {
    process.env.TZ = 'Asia/Kathmandu';
    expect(Object.fromEntries(statsQuery({ choice: 'today', from: '2026-06-02', to: '2026-06-02' }, 'day', timeZone()))).toEqual({
      bucket: 'hour', from: '2026-06-02T00:00:00+05:45', to: '2026-06-03T00:00:00+05:45', time_zone: kathmandu,
    });
    expect(Object.fromEntries(statsQuery(undefined, 'day', timeZone()))).toEqual({ bucket: 'day', time_zone: kathmandu });
  });

  it('falls back to the offset the period starts with for a companion that does not know the zone', () => {
    process.env.TZ = 'Europe/Kyiv';
    const query = statsQuery({ choice: 'lastMonth', from: '2026-10-01', to: '2026-10-31' }, 'day', undefined);
    expect(query.get('utc_offset_minutes')).toBe('180');
    expect(query.has('time_zone')).toBe(false);
  });
});

describe('the money’s query', () => {
  const counted = { from: '2026-09-30T21:00:00.000Z', to: '2026-10-31T22:00:00.000Z' };

  it('asks for the instants the counts were read for, dated by the order unless told otherwise', () => {
    expect(Object.fromEntries(moneyQuery(counted, 'order'))).toEqual({ ...counted, dated_by: 'order' });
  });

  it('asks for the money dated by when it moved, for books closed by period', () => {
    expect(Object.fromEntries(moneyQuery(counted, 'movement'))).toEqual({ ...counted, dated_by: 'movement' });
  });
});

describe('the period’s text', () => {
  it('builds its date format once per language, not at every render', () => {
    const Format = Intl.DateTimeFormat;
    const built: unknown[] = [];
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (lang?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) {
      built.push(lang);
      return new Format(lang, options);
    } as typeof Intl.DateTimeFormat);
    const october = { from: '2026-10-01', to: '2026-10-31' };
    const english = periodText(october, 'en-GB');
    expect(periodText(october, 'en-GB')).toBe(english);
    periodText(october, 'uk');
    periodText(october, 'uk');
    expect(built).toEqual(['en-GB', 'uk']);
  });
});
