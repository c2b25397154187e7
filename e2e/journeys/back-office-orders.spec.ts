/**
 * The back office's list of orders when its requests are slow or fail: older orders asked for
 * twice while they load come once, a list that could not be read says so (never "no orders
 * yet"), and the answer for a filter left behind does not replace the one chosen after it.
 */
import type { Route } from '@playwright/test';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

/** The list's requests (`/api/orders?…`), not one order's (`/api/orders/:id`). */
const LIST = /\/api\/orders\?/;

test('older orders asked for again while they load come once, and the first of them takes the focus, to the last page', async ({ page, request, stack, backOffice }) => {
  const paid: string[] = [];
  for (let order = 0; order < 51; order += 1) paid.push(await paidOrder(request, stack));
  // Counted in the page as each request is made: a second one would be made by the second click itself.
  await page.addInitScript(() => {
    const fetch = window.fetch.bind(window);
    const counted = window as unknown as { olderAsked: number };
    counted.olderAsked = 0;
    window.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('cursor=')) counted.olderAsked += 1;
      return fetch(input, init);
    };
  });
  let asked!: () => void;
  const askedOnce = new Promise<void>((resolve) => (asked = resolve));
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route(/\/api\/orders\?.*cursor=/, async (route) => {
    asked();
    await answered;
    await route.continue();
  }, { times: 1 });

  await backOffice.open();
  const rows = backOffice.orders.locator('tbody tr');
  await expect(rows).toHaveCount(50);
  // On a phone, in Ukrainian, the button's label is wider than the screen: it wraps, the page stays put.
  await page.setViewportSize({ width: 320, height: 740 });
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await expect(page.getByRole('button', { name: 'Показати давніші замовлення' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.getByRole('combobox', { name: 'Мова' }).selectOption('en');
  const more = backOffice.orders.getByRole('button', { name: 'Show older orders' });
  await more.click();
  await askedOnce;
  // Clicked again while the older orders are on their way (as a double click does): nothing more is asked.
  await more.click({ force: true });
  expect(await page.evaluate(() => (window as unknown as { olderAsked: number }).olderAsked)).toBe(1);
  answer();
  await expect(backOffice.row(paid[0]!)).toBeVisible();
  const listed = await backOffice.orders.locator('tbody th[scope=row] a').allTextContents();
  expect(listed.length).toBeGreaterThan(50);
  expect(new Set(listed).size).toBe(listed.length);
  // The reader goes on from the first order that came: the button may have gone with the last page.
  await expect(rows.nth(50).getByRole('link')).toBeFocused();

  // To the last page (other journeys of this worker made orders too): there the button goes, and the focus does not.
  for (let pages = 0; (await more.count()) > 0; pages += 1) {
    expect(pages).toBeLessThan(50);
    const shown = await rows.count();
    await more.click();
    await expect(rows.nth(shown).getByRole('link')).toBeFocused();
  }
  await expect(more).toHaveCount(0);
  const all = await backOffice.orders.locator('tbody th[scope=row] a').allTextContents();
  expect(new Set(all).size).toBe(all.length);
});

test('a list that cannot be read says so; the filter pressed is the one whose orders show; a late answer for another filter is dropped', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);

  // The first read fails: not "no orders yet", and it can be tried again.
  await page.route(LIST, (route) => route.abort('connectionreset'), { times: 1 });
  await backOffice.open();
  const problem = backOffice.orders.getByRole('alert');
  await expect(problem).toContainText('The orders could not be read');
  await expect(backOffice.orders).not.toContainText('No orders yet');
  await backOffice.orders.getByRole('button', { name: 'Try again' }).click();
  await expect(backOffice.row(orderId)).toBeVisible();
  await expect(problem).toHaveCount(0);

  // "Failed" cannot be read: it says so, and the orders of "All" are not left under it.
  const filter = (name: string) => backOffice.orders.getByRole('button', { name, exact: true });
  await page.route(/\/api\/orders\?.*status=failure/, (route) => route.abort('connectionreset'), { times: 1 });
  await filter('Failed').click();
  await expect(problem).toContainText('The orders could not be read');
  await expect(filter('Failed')).toHaveAttribute('aria-pressed', 'true');
  await expect(filter('All')).toHaveAttribute('aria-pressed', 'false');
  await expect(backOffice.row(orderId)).toHaveCount(0);
  await expect(backOffice.orders).not.toContainText('No orders in this state');
  await filter('All').click();
  await expect(backOffice.row(orderId)).toBeVisible();
  await expect(problem).toHaveCount(0);

  // "Success" is slow to answer, and "Pending" is clicked meanwhile: the success list, no longer
  // wanted, is not waited for, and never replaces the pending one.
  let successAsked!: (route: Route) => void;
  const slow = new Promise<Route>((resolve) => (successAsked = resolve));
  await page.route(/\/api\/orders\?.*status=success/, (route) => successAsked(route), { times: 1 });
  await filter('Success').click();
  const held = await slow;
  const dropped = page.waitForEvent('requestfailed', { predicate: (sent) => sent === held.request(), timeout: 10_000 });
  const pending = page.waitForResponse((response) => LIST.test(response.url()) && response.url().includes('status=pending'));
  await filter('Pending').click();
  await pending;
  await dropped;
  await held.continue().catch(() => undefined);
  await expect(filter('Pending')).toHaveAttribute('aria-pressed', 'true');
  await expect(filter('Success')).toHaveAttribute('aria-pressed', 'false');
  await expect(backOffice.row(orderId)).toHaveCount(0);
  await expect(problem).toHaveCount(0);
});

test('an order that could not be read is shown once a later read works, as when the companion is back after a restart', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  // Its read fails once (the companion down); the list's and the feed's go through.
  await page.route((url) => url.pathname.endsWith(`/api/orders/${orderId}`), (route) => route.abort('connectionrefused'), { times: 1 });
  await backOffice.open();
  await backOffice.row(orderId).getByRole('link').click();
  const problem = backOffice.detail.getByRole('alert');
  await expect(problem).toContainText('did not answer');
  // A change to it comes through the live feed, and the order is read again: shown, the problem gone.
  expect((await request.post(`${stack.shop}/api/orders/${orderId}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 500 } })).status()).toBe(200);
  await expect(backOffice.operations).toHaveCount(1);
  await expect(problem).toHaveCount(0);
});

test('an order says what was sold and the customer’s phone, as a support person confirms it on a call', async ({ request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  await backOffice.open(orderId);
  const facts = backOffice.detail.locator('dl.facts');
  await expect(facts.locator('div', { has: backOffice.detail.page().getByText('What was sold', { exact: true }) }).locator('dd')).toHaveText('Tea');
  await expect(facts).toContainText('+380501234567');
});

test('Back opens the order opened before, then the list alone, and Forward the order again', async ({ page, request, stack, backOffice }) => {
  const first = await paidOrder(request, stack);
  const second = await paidOrder(request, stack);
  await backOffice.open();
  await backOffice.select(first);
  await backOffice.select(second);
  await expect(page).toHaveURL(new RegExp(`[?&]order=${second}`));
  await page.goBack();
  await expect(backOffice.detailHeading).toHaveText(first);
  await page.goBack();
  await expect(page).not.toHaveURL(/[?&]order=/);
  await expect(backOffice.detailHeading).not.toHaveText(first);
  await expect(backOffice.orders).toBeVisible();
  await page.goForward();
  await expect(backOffice.detailHeading).toHaveText(first);
});
