// The list's "Download CSV": the file of what the list is filtered by, every page of it.
import { describe, expect, it } from 'vitest';
import { listQuery } from './order-list.js';
import { exportPath } from './orders-csv.js';

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
