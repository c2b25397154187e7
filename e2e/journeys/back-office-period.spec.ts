/**
 * A calendar month for the accountant, from the back office: the orders list's period chosen,
 * Download CSV holds that month's orders only, and the Payments money is that month's — the sum
 * of the file's rows. The browser (Europe/Kyiv, playwright.config.ts) is a month ahead, so that
 * the orders made now are "Last month"'s and "This month" has none.
 */
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { englishUah as english, paidOrder } from '../pages/back-office.js';

/**
 * The file's rows as objects of its columns. A quoted cell may hold a comma: the worker's stack
 * lists other tests' orders too, whose descriptions do ("Order #12, 2 items."); none holds a line break.
 */
async function csvRows(download: Download): Promise<Record<string, string>[]> {
  const lines = (await readFile(await download.path())).subarray(3).toString('utf8').split('\r\n').slice(0, -1);
  const cells = (line: string) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell]) => (cell!.startsWith('"') ? cell!.slice(1, -1).replaceAll('""', '"') : cell!));
  const header = cells(lines[0]!);
  return lines.slice(1).map((line) => Object.fromEntries(cells(line).map((cell, i) => [header[i], cell])));
}

/** Kyiv's year and month of an instant, written out here rather than by the page's code. */
const kyivMonth = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv', year: 'numeric', month: '2-digit' }).format(new Date(iso));

const kyivDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));


const download = async (page: Page, press: () => Promise<void>) => (await Promise.all([page.waitForEvent('download'), press()]))[0];

test('a month’s CSV file holds that month’s orders only, and the Payments money is that month’s', async ({ page, request, stack, backOffice }) => {
  const admin = { Authorization: `Bearer ${stack.token}` };
  const refunded = await paidOrder(request, stack, 'purchase', { amount: 123_456 });
  expect((await request.post(`${stack.shop}/api/orders/${refunded}/refund`, { headers: admin, data: { amount: 23_456 } })).status()).toBe(200);
  const auth = await paidOrder(request, stack, 'auth', { amount: 50_000 });
  const made = (await (await request.get(`${stack.shop}/api/orders/${auth}`, { headers: admin })).json()).order.created_at as string;
  const month = kyivMonth(made);
  // The middle of the next month in Kyiv, whatever day this runs.
  const [year, number] = month.split('-').map(Number) as [number, number];
  await page.clock.setFixedTime(new Date(Date.UTC(year, number, 15, 10)));

  await backOffice.open();
  const period = backOffice.orders.getByRole('group', { name: 'Period' });
  await period.getByRole('button', { name: 'Last month' }).click();
  await expect(period.getByRole('button', { name: 'Last month' })).toHaveAttribute('aria-pressed', 'true');
  // Kyiv by its name, also where the browser's time zone data still calls it Europe/Kiev (Debian's Chromium does).
  await expect(backOffice.orders.getByText(/^Created .*, whole days in Europe\/Kyiv\./)).toBeVisible();
  await expect(backOffice.row(refunded)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /[Oo]rders created/ })).toHaveText(/^(More than \d+ orders created .*: the newest are listed|Orders created .*: \d+)\.$/);

  const exported = page.waitForRequest((sent) => sent.url().includes('/api/exports/orders'));
  const file = await download(page, () => backOffice.orders.getByRole('button', { name: 'Download CSV' }).click());
  // The month's first midnight and the next month's, each at Kyiv's offset of its own day.
  const asked = new URL((await exported).url()).searchParams;
  expect(asked.get('created_from')).toMatch(new RegExp(`^${month}-01T00:00:00\\+0[23]:00$`));
  expect(asked.get('created_to')).toMatch(/^\d{4}-\d{2}-01T00:00:00\+0[23]:00$/);
  // Named after the month it holds, its days as Kyiv has them, not after the day it was made.
  expect(file.suggestedFilename()).toMatch(new RegExp(`^orders-${month}-01-to-${month}-(28|29|30|31)\\.csv$`));
  const rows = await csvRows(file);
  expect(rows.map((row) => row.order_id)).toEqual(expect.arrayContaining([refunded, auth]));
  for (const row of rows) expect(kyivMonth(row.created_at!), row.order_id).toBe(month);
  // Every order the API has for those instants: the file is the month, not the rows shown.
  const listed = await (await request.get(`${stack.shop}/api/orders?limit=200&${new URLSearchParams({ created_from: asked.get('created_from')!, created_to: asked.get('created_to')! })}`, { headers: admin })).json();
  expect(rows).toHaveLength(listed.orders.length);

  // The Payments panel follows the list's period: its money is the sum of the file's rows.
  const stats = page.getByRole('region', { name: 'Payments' });
  await expect(stats.getByText(/^Created .*: the orders list’s period\.$/)).toBeVisible();
  const sum = (column: string) => rows.filter((row) => row.currency === 'UAH').reduce((total, row) => total + Number(row[column]), 0);
  const uah = stats.getByRole('table', { name: /^Money of the payments created in the period/ }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'UAH', exact: true }) }).getByRole('cell');
  await expect(uah.nth(0)).toHaveText(english(sum('paid')));
  await expect(uah.nth(1)).toHaveText(english(sum('refunded')));
  await expect(uah.nth(2)).toHaveText(english(sum('net')));
  expect(sum('paid')).toBeGreaterThanOrEqual(123_456);
  await expectNoAxeViolations(page, 'the back office with a month chosen');

  // This month (the browser's) has no order yet: an empty list, a file of its header only, no money.
  await period.getByRole('button', { name: 'This month' }).click();
  await expect(backOffice.orders.getByText(/^No orders created /)).toBeVisible();
  expect(await csvRows(await download(page, () => backOffice.orders.getByRole('button', { name: 'Download CSV' }).click()))).toEqual([]);
  await expect(stats.getByText('No money came in over the period.')).toBeVisible();

  // Dates typed, as an accountant's own period: the last day before the first is refused, naming the field.
  await period.getByRole('button', { name: 'Dates' }).click();
  await expect(page.getByLabel('From')).toBeFocused();
  await page.getByLabel('From').fill(`${month}-02`);
  await page.getByLabel('To (included)').fill(`${month}-01`);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.getByLabel('To (included)')).toBeFocused();
  await expect(page.getByLabel('To (included)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveText('The last day is before the first.');
  await page.getByLabel('From').fill(`${month}-01`);
  await page.getByLabel('To (included)').fill(kyivDay(made));
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(backOffice.row(auth)).toBeVisible();
  await expectNoAxeViolations(page, 'the back office with dates typed');

  // A phone 320 px wide, in Ukrainian: the control wraps rather than push the page sideways.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await expect(page.getByRole('group', { name: 'Період' }).getByRole('button', { name: 'Минулий місяць' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  // Nothing of the list's controls cut off at the panel's edge either (Find's box and hint ran past it).
  const edge = await page.evaluate(() => document.querySelector('section.orders')!.getBoundingClientRect().right);
  for (const part of ['#order-find', '#order-find-hint', '.order-period .segmented', '#order-period-days', '#period-to']) {
    expect(await page.locator(part).evaluate((element) => element.getBoundingClientRect().right), part).toBeLessThanOrEqual(edge);
  }
});
