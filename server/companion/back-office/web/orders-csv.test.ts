// The list's "Download CSV": the file of what the list is filtered by, every page of it; and
// beside it the journal of money moved over the list's days.
import { afterEach, describe, expect, it } from 'vitest';
import { listQuery } from './order-list.js';
import { periodQuery } from './order-period.js';
import { exportPath, journalPath, spreadsheetDecimalMark } from './orders-csv.js';

const runZone = process.env.TZ;
afterEach(() => {
  if (runZone === undefined) delete process.env.TZ;
  else process.env.TZ = runZone;
});

describe('the orders list as a CSV file', () => {
  it('asks the export for the filters the list is read with, without its paging', () => {
    const read = listQuery({ kind: 'payments', filter: 'success', search: { email: 'olena@example.com' } });
    read.set('limit', '50');
    read.set('cursor', 'after-51');
    expect(exportPath(read)).toBe('/api/exports/orders?kind=payments&status=success&email=olena%40example.com');
    expect(exportPath(listQuery({ kind: 'verifications', filter: 'held' }))).toBe('/api/exports/orders?kind=verifications&held=true');
    expect(exportPath(listQuery({ kind: 'payments', filter: 'all', search: { amount: '1010', currency: 'UAH' } }))).toBe('/api/exports/orders?kind=payments&amount=1010&currency=UAH');
  });
});

describe('the files for the accountant’s spreadsheet', () => {
  it('asks for decimal commas where the browser’s language writes them, as its spreadsheet reads numbers', () => {
    expect(['uk-UA', 'de-DE', 'de-AT', 'fr-FR', 'en-US', 'en-GB', 'ja-JP'].map((locale) => spreadsheetDecimalMark(locale))).toEqual(['comma', 'comma', 'comma', 'comma', 'point', 'point', 'point']);
    const read = listQuery({ kind: 'payments', filter: 'success' });
    expect(exportPath(read, { decimalMark: 'comma' })).toBe('/api/exports/orders?kind=payments&status=success&decimal_mark=comma');
    expect(exportPath(read, { decimalMark: 'point' })).toBe('/api/exports/orders?kind=payments&status=success');
    expect(new URL(journalPath(undefined, { decimalMark: 'comma' }), 'https://shop.example').searchParams.get('decimal_mark')).toBe('comma');
    expect(journalPath(undefined, { decimalMark: 'point' })).not.toContain('decimal_mark');
  });

  it('asks for each row’s local date and time in the zone the period’s days are in', () => {
    const read = listQuery({ kind: 'payments', filter: 'all' });
    expect(exportPath(read, { timeZone: 'Europe/Kyiv' })).toBe('/api/exports/orders?kind=payments&time_zone=Europe%2FKyiv');
    const october = { choice: 'lastMonth', from: '2026-10-01', to: '2026-10-31' } as const;
    expect(new URL(journalPath(october, { decimalMark: 'comma', timeZone: 'Europe/Berlin' }), 'https://shop.example').searchParams.get('time_zone')).toBe('Europe/Berlin');
  });
});

describe('the journal of money moved as a CSV file', () => {
  it('asks for the instants the list’s period has, each end at its own offset', () => {
    process.env.TZ = 'Europe/Kyiv';
    const october = { choice: 'lastMonth', from: '2026-10-01', to: '2026-10-31' } as const;
    const path = new URL(journalPath(october), 'https://shop.example');
    expect(path.pathname).toBe('/api/exports/movements');
    expect(Object.fromEntries(path.searchParams)).toEqual({ from: '2026-10-01T00:00:00+03:00', to: '2026-11-01T00:00:00+02:00' });
    // The orders’ file of the same period asks for the very same instants.
    const { created_from: from, created_to: to } = periodQuery(october);
    expect([path.searchParams.get('from'), path.searchParams.get('to')]).toEqual([from, to]);
  });

  it('asks for a single day from its midnight to the next', () => {
    process.env.TZ = 'America/New_York';
    expect(journalPath({ choice: 'today', from: '2026-11-01', to: '2026-11-01' })).toBe('/api/exports/movements?from=2026-11-01T00%3A00%3A00-04%3A00&to=2026-11-02T00%3A00%3A00-05%3A00');
  });

  it('is every movement up to now for any time, not the route’s last 30 days', () => {
    const path = new URL(journalPath(undefined), 'https://shop.example');
    expect(Object.fromEntries(path.searchParams)).toEqual({ from: '1970-01-01T00:00:00Z' });
  });

  it('takes none of the list’s other filters: the journal is the books’, whatever Find shows', () => {
    process.env.TZ = 'Europe/Kyiv';
    const period = { choice: 'custom', from: '2026-11-03', to: '2026-11-03' } as const;
    expect(new URL(journalPath(period), 'https://shop.example').searchParams.size).toBe(2);
  });
});
