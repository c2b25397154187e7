/**
 * The period's money as books closed by period keep it: dated by when each sale, capture and
 * refund was made rather than by its order, chosen beside the money table and kept while the
 * period changes; and the journal of money moved over the list's period, downloaded beside the
 * orders' CSV by a signed link — its lines add up to the table's figures.
 */
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { englishUah as english, paidOrder } from '../pages/back-office.js';

/** The file's rows as objects of its columns (a quoted cell may hold a comma; none holds a line break). */
async function csvRows(download: Download): Promise<Record<string, string>[]> {
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n').slice(0, -1);
  const cells = (line: string) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell]) => (cell!.startsWith('"') ? cell!.slice(1, -1).replaceAll('""', '"') : cell!));
  const header = cells(lines[0]!);
  expect(header.slice(0, 6)).toEqual(['at', 'kind', 'order_id', 'currency', 'amount', 'amount_decimal']);
  return lines.slice(1).map((line) => Object.fromEntries(cells(line).map((cell, i) => [header[i], cell])));
}

/** Kyiv's day of an instant (the browser's zone, playwright.config.ts), written out here rather than by the page's code. */
const kyivDay = (at: Date | string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));

const download = async (page: Page, press: () => Promise<void>) => (await Promise.all([page.waitForEvent('download'), press()]))[0];

test('the period’s money dated by when it moved, and the journal of those days that adds up to it', async ({ page, request, stack, backOffice }) => {
  const admin = { Authorization: `Bearer ${stack.token}` };
  const sold = await paidOrder(request, stack, 'purchase', { amount: 123_456 });
  expect((await request.post(`${stack.shop}/api/orders/${sold}/refund`, { headers: admin, data: { amount: 23_456 } })).status()).toBe(200);
  const auth = await paidOrder(request, stack, 'auth', { amount: 50_000 });
  expect((await request.post(`${stack.shop}/api/orders/${auth}/capture`, { headers: admin, data: { amount: 40_000 } })).status()).toBe(200);
  const created = (await (await request.get(`${stack.shop}/api/orders/${sold}`, { headers: admin })).json()).order.created_at as string;
  // From the day the first order was made to today, in case the run passes a Kyiv midnight.
  const [first, last] = [kyivDay(created), kyivDay(new Date())];

  await backOffice.open();
  const period = backOffice.orders.getByRole('group', { name: 'Period' });
  await period.getByRole('button', { name: 'Dates' }).click();
  await page.getByLabel('From').fill(first);
  await page.getByLabel('To (included)').fill(last);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(backOffice.row(auth)).toBeVisible();

  // Dated by order until told otherwise, the choice named and explained.
  const payments = page.getByRole('region', { name: 'Payments' });
  const dating = payments.getByRole('group', { name: 'Date the money' });
  await expect(dating).toHaveAccessibleDescription(/^By order, a refund made later changes its order’s period; by when it moved, .* stays in the period it was made\.$/);
  await expect(dating.getByRole('button', { name: 'By order' })).toHaveAttribute('aria-pressed', 'true');
  await expect(payments.getByRole('table', { name: /^Money of the payments created in the period/ })).toBeVisible();

  const moneyAsked = (datedBy: string) => page.waitForRequest((sent) => sent.url().includes('/api/stats/money?') && new URL(sent.url()).searchParams.get('dated_by') === datedBy);
  const moved = moneyAsked('movement');
  await dating.getByRole('button', { name: 'By when it moved' }).click();
  const asked = new URL((await moved).url()).searchParams;
  await expect(dating.getByRole('button', { name: 'By when it moved' })).toHaveAttribute('aria-pressed', 'true');
  await expect(dating.getByRole('button', { name: 'By order' })).toHaveAttribute('aria-pressed', 'false');
  const table = payments.getByRole('table', { name: /^Money moved in the period/ });
  await expect(table).toBeVisible();
  await expect(payments.getByText('A refund counts in the period it was made.', { exact: false })).toBeVisible();
  // Heard as well as seen: the figures change away from the button pressed.
  await expect(backOffice.announcement).toHaveText('Money moved in the period');
  // The figures are the companion's dated by movement, for the period's instants.
  const answer = await (await request.get(`${stack.shop}/api/stats/money?${new URLSearchParams({ from: asked.get('from')!, to: asked.get('to')!, dated_by: 'movement' })}`, { headers: admin })).json();
  expect(answer.dated_by).toBe('movement');
  const uah = answer.money.find((entry: { currency: string }) => entry.currency === 'UAH');
  const cells = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'UAH', exact: true }) }).getByRole('cell');
  await expect(cells.nth(0)).toHaveText(english(uah.paid));
  await expect(cells.nth(1)).toHaveText(english(uah.refunded));
  await expect(cells.nth(2)).toHaveText(english(uah.net));
  await expectNoAxeViolations(page, 'the back office with its money dated by when it moved');

  // The journal of the list's days: streamed to disk from a signed link, never with the token.
  const journalButton = backOffice.orders.getByRole('button', { name: 'Download journal of money moved' });
  await expect(journalButton).toHaveAccessibleDescription(/^Created .*, whole days in Europe\/Kyiv\. Download CSV, the journal and the Payments figures take this period\.$/);
  const file = await download(page, () => journalButton.click());
  const link = new URL(file.url());
  expect(`${link.origin}${link.pathname}`).toBe(`${stack.shop}/api/downloads/movements`);
  expect([...link.searchParams.keys()]).toEqual(['from', 'to', 'time_zone', 'expires', 'signature']);
  // The browser's name for it: Chromium's ICU still says Europe/Kiev, which the companion takes.
  expect(link.searchParams.get('time_zone')).toMatch(/^Europe\/(Kyiv|Kiev)$/);
  // The very instants the money table was read for.
  expect(Date.parse(link.searchParams.get('from')!)).toBe(Date.parse(asked.get('from')!));
  expect(Date.parse(link.searchParams.get('to')!)).toBe(Date.parse(asked.get('to')!));
  expect(file.url()).not.toContain(stack.token);
  expect(file.suggestedFilename()).toBe(first === last ? `movements-${first}.csv` : `movements-${first}-to-${last}.csv`);
  const rows = await csvRows(file);
  for (const row of rows) expect(kyivDay(row.at!), row.order_id).toMatch(new RegExp(`^(${first}|${last})$`));
  // Each line's Kyiv date and time beside its instant, for the spreadsheet.
  for (const row of rows) expect(row.at_local!.slice(0, 10), row.order_id).toBe(kyivDay(row.at!));
  const of = (orderId: string) => rows.filter((row) => row.order_id === orderId).map((row) => [row.kind, Number(row.amount), row.amount_decimal]);
  expect(of(sold)).toEqual([['sale', 123_456, '1234.56'], ['refund', -23_456, '-234.56']]);
  // An auth's reserve moves no money: its capture does.
  expect(of(auth)).toEqual([['capture', 40_000, '400.00']]);
  // What the accountant checks: the journal's lines add up to the table's figures.
  const amounts = rows.filter((row) => row.currency === 'UAH').map((row) => Number(row.amount));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  await expect(cells.nth(0)).toHaveText(english(sum(amounts.filter((amount) => amount > 0))));
  await expect(cells.nth(1)).toHaveText(english(-sum(amounts.filter((amount) => amount < 0))));
  await expect(cells.nth(2)).toHaveText(english(sum(amounts)));
  await expect(journalButton).toHaveAttribute('aria-disabled', 'false');

  // The choice is kept while the period changes: Any time's money is dated by movement too, and
  // its journal is every movement there is, not the last 30 days.
  const kept = moneyAsked('movement');
  await period.getByRole('button', { name: 'Any time' }).click();
  await kept;
  await expect(dating.getByRole('button', { name: 'By when it moved' })).toHaveAttribute('aria-pressed', 'true');
  await expect(payments.getByRole('table', { name: /^Money moved in the period/ })).toBeVisible();
  const everything = await download(page, () => journalButton.click());
  expect(new URL(everything.url()).searchParams.get('from')).toBe('1970-01-01T00:00:00Z');
  expect(everything.suggestedFilename()).toBe('movements-from-1970-01-01.csv');
  expect((await csvRows(everything)).filter((row) => row.order_id === sold).map((row) => row.kind)).toEqual(['sale', 'refund']);

  // A refusal is said on the page, named as the journal's, and the button is ready again.
  await page.route((url) => url.pathname.endsWith('/api/exports/movements/link'), (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'ledger_unavailable', message: 'The ledger could not be read' } }) }),
  { times: 1 });
  await journalButton.click();
  // The companion's words isolated in the page's (U+2068 … U+2069): they keep their own direction.
  await expect(backOffice.orders.getByRole('alert')).toHaveText('\u2068The journal of money moved could not be downloaded: \u2068The ledger could not be read\u2069\u2069');
  await expect(journalButton).toHaveText('Download journal of money moved');
  await expect(journalButton).toHaveAttribute('aria-disabled', 'false');

  // Back to order dating; in Ukrainian, in its own words.
  const byOrder = moneyAsked('order');
  await dating.getByRole('button', { name: 'By order' }).click();
  await byOrder;
  await expect(payments.getByRole('table', { name: /^Money of the payments created in the period/ })).toBeVisible();
  await dating.getByRole('button', { name: 'By when it moved' }).click();
  await expect(payments.getByRole('table', { name: /^Money moved in the period/ })).toBeVisible();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  const ukrainian = page.getByRole('region', { name: 'Платежі' });
  await expect(ukrainian.getByRole('group', { name: 'Датувати гроші' }).getByRole('button', { name: 'За рухом грошей' })).toHaveAttribute('aria-pressed', 'true');
  await expect(ukrainian.getByRole('table', { name: /^Рух грошей за період/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Замовлення', exact: true }).getByRole('button', { name: 'Завантажити журнал руху грошей' })).toBeVisible();
  await expectNoAxeViolations(page, 'the back office in Ukrainian with its money dated by when it moved');
});
