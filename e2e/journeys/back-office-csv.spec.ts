/**
 * The orders list's "Download CSV", as a merchant hands their accountant the orders: the file
 * holds every order the list is filtered by (not only the rows shown), each with its money in
 * minor units and decimals, and a customer's text as text, never a formula.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

test('downloads the orders the list is filtered by as a CSV file for the accountant', async ({ page, request, stack, backOffice }) => {
  const email = `csv-${randomUUID().slice(0, 8)}@example.com`;
  const tea = await paidOrder(request, stack, 'purchase', { amount: 123_456, customer: { fname: '=1+2', lname: 'Коваль', email } });
  expect((await request.post(`${stack.shop}/api/orders/${tea}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 456 } })).status()).toBe(200);
  const hotel = await paidOrder(request, stack, 'auth', { amount: 50_000, customer: { fname: 'Olena', lname: 'Koval', email } });
  await paidOrder(request, stack, 'purchase', { amount: 1500 });

  await backOffice.open();
  const find = page.getByRole('search').getByRole('searchbox', { name: 'Find an order' });
  await find.fill(email);
  await find.press('Enter');
  await expect(backOffice.orders.getByRole('row')).toHaveCount(3);

  const [download] = await Promise.all([page.waitForEvent('download'), backOffice.orders.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-all-\d{4}-\d{2}-\d{2}\.csv$/);
  // Streamed to disk by the browser from a signed link (no token in it), never held in the tab as a blob.
  const link = new URL(download.url());
  expect(`${link.origin}${link.pathname}`).toBe(`${stack.shop}/api/downloads/orders`);
  // The customer's e-mail goes sealed: a proxy's access log of the link names nobody.
  expect([...link.searchParams.keys()]).toEqual(['kind', 'time_zone', 'sealed', 'expires', 'signature']);
  expect(decodeURIComponent(download.url())).not.toContain(email);
  expect(download.url()).not.toContain(stack.token);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines.at(-1)).toBe('');
  const header = lines[0]!.split(',').map((name) => name.replaceAll('"', ''));
  expect(header.slice(0, 15)).toEqual(['order_id', 'created_at', 'status', 'method', 'mode', 'description', 'currency', 'amount', 'amount_decimal', 'paid', 'paid_decimal', 'refunded', 'refunded_decimal', 'net', 'net_decimal']);
  // Only this customer's two orders, newest first: the search the list shows.
  const rows = lines.slice(1, -1);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatch(new RegExp(`^"${hotel}",.*,"success","auth","direct","Tea","UAH",50000,500.00,0,0.00,0,0.00,0,0.00,`));
  expect(rows[1]).toMatch(new RegExp(`^"${tea}",.*,"success","purchase","direct","Tea","UAH",123456,1234.56,123456,1234.56,456,4.56,123000,1230.00,`));
  // The customer's name is text in a spreadsheet, not a sum.
  expect(rows[1]).toContain(`"${email}","'=1+2 Коваль"`);
  await expect(backOffice.orders.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
});

test('lists one currency’s orders by its code in Find, and downloads them alone', async ({ page, request, stack, backOffice }) => {
  // The worker's ledger holds other tests' orders, in UAH: this one's are the only dollars.
  const dollars = await paidOrder(request, stack, 'purchase', { amount: 2_000, currency: 'USD' });
  const hryvnias = await paidOrder(request, stack, 'purchase', { amount: 2_000 });

  await backOffice.open();
  const find = page.getByRole('search').getByRole('searchbox', { name: 'Find an order' });
  await find.fill('usd');
  await find.press('Enter');
  await expect(backOffice.orders).toContainText('Orders matching USD');
  await expect(backOffice.row(dollars)).toBeVisible();
  await expect(backOffice.row(hryvnias)).toHaveCount(0);

  const [download] = await Promise.all([page.waitForEvent('download'), backOffice.orders.getByRole('button', { name: 'Download CSV' }).click()]);
  const lines = (await readFile(await download.path())).subarray(3).toString('utf8').split('\r\n').slice(1, -1);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^"[^"]+","[^"]+","\w+","\w+","\w+","[^"]*","USD",/);
  expect(lines.some((line) => line.startsWith(`"${dollars}",`))).toBe(true);
});

test.describe('in a browser set to German, in Berlin', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test('downloads the file its spreadsheet opens: semicolons, figures with a decimal comma, Berlin’s times', async ({ page, request, stack, backOffice }) => {
    const email = `csv-de-${randomUUID().slice(0, 8)}@example.com`;
    const tea = await paidOrder(request, stack, 'purchase', { amount: 123_456, customer: { fname: 'Jürgen', lname: 'Müller', email } });

    await backOffice.open();
    const find = page.getByRole('search').getByRole('searchbox', { name: 'Find an order' });
    await find.fill(email);
    await find.press('Enter');
    await expect(backOffice.orders.getByRole('row')).toHaveCount(2);

    const [download] = await Promise.all([page.waitForEvent('download'), backOffice.orders.getByRole('button', { name: 'Download CSV' }).click()]);
    const asked = new URL(download.url()).searchParams;
    expect([asked.get('decimal_mark'), asked.get('time_zone')]).toEqual(['comma', 'Europe/Berlin']);
    const lines = (await readFile(await download.path())).subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toMatch(/^"order_id";"created_at";"status";.*;"voided";"created_at_local"$/);
    expect(lines[1]).toMatch(new RegExp(`^"${tea}";.*;"UAH";123456;"1234,56";123456;"1234,56";0;"0,00";123456;"1234,56";`));
    // When it was made on Berlin's wall clock, which the spreadsheet reads as a date and time.
    const createdAt = new Date(lines[1]!.split(';')[1]!.replaceAll('"', ''));
    const berlin = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'medium' }).format(createdAt);
    expect(lines[1]!.endsWith(`;${berlin}`)).toBe(true);
  });
});
