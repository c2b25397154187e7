/**
 * The back office on a phone — an iPhone's 390 × 844 CSS px, an Android's 360 × 740: the page
 * never scrolls sideways (the sign-in form, the overview, the orders, an order, its dialogs); the
 * period's money reads whole as it is, each currency's figures under it, where the four columns
 * were cut off at the screen's edge; a table too wide for the screen scrolls in its own box; and
 * what is tapped is at least 40 px each way.
 */
import type { Locator, Page } from '@playwright/test';
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

/** How far the page reaches past the screen's right edge: 0 when it does not scroll sideways. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Where an element can be read whole: "in view" as the page is; "in its box" once the box that
 * clips it — a table's wrapper, scrolling sideways (overflow-x auto or scroll, wider inside than
 * out) — scrolls to it; else what cuts it off.
 */
const readable = (element: Locator) =>
  element.evaluate((target) => {
    let box: Element | null = target.parentElement;
    while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
    const whole = () => {
      const shown = target.getBoundingClientRect();
      const clip = box?.getBoundingClientRect();
      return shown.width > 0 && shown.left >= Math.max(0, clip?.left ?? 0) - 0.5 && shown.right <= Math.min(window.innerWidth, clip?.right ?? Infinity) + 0.5;
    };
    if (whole()) return 'in view';
    if (!box || box === document.documentElement || box === document.body) return 'cut off by the screen';
    const { overflowX } = getComputedStyle(box);
    const scrolls = (overflowX === 'auto' || overflowX === 'scroll') && box.scrollWidth > box.clientWidth;
    if (!scrolls) return `cut off by ${box.tagName.toLowerCase()}.${box.className} (overflow-x: ${overflowX}, ${box.scrollWidth} px in ${box.clientWidth})`;
    const from = box.scrollLeft;
    target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const revealed = whole();
    box.scrollLeft = from;
    return revealed ? 'in its box' : `not reached by scrolling ${box.tagName.toLowerCase()}.${box.className}`;
  });

/** What can be tapped in `within` and shows, yet is under 40 px high or wide: 'button "Sign out" 97×36'. */
const smallTargets = (within: Locator) =>
  within.evaluate((root) =>
    [...root.querySelectorAll('button, select, summary, input:not([type=checkbox], [type=radio]), .orders-table a')].flatMap((target) => {
      const { width, height } = target.getBoundingClientRect();
      if (width === 0 || !target.checkVisibility({ visibilityProperty: true }) || (width >= 39.5 && height >= 39.5)) return [];
      return [`${target.tagName.toLowerCase()} "${(target.textContent ?? '').trim().replace(/\s+/gu, ' ').slice(0, 30)}" ${Math.round(width)}×${Math.round(height)}`];
    }),
  );

/** The dialog's box against the screen: it fits when every side is on it. */
const fits = (dialog: Locator) =>
  dialog.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  });

for (const [phone, viewport] of [
  ['an iPhone, 390 × 844', { width: 390, height: 844 }],
  ['an Android phone, 360 × 740', { width: 360, height: 740 }],
] as const) {
  test(`on ${phone} the back office reads whole without the page scrolling sideways, its money too`, async ({ page, request, stack, backOffice }) => {
    // Amounts in the hundreds of millions, refunded in part: the money table's widest figures.
    const purchase = await paidOrder(request, stack, 'purchase', { amount: 9_876_543_210 });
    const refunded = await request.post(`${stack.shop}/api/orders/${purchase}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 123_456_789 } });
    expect(refunded.status()).toBe(200);
    const auth = await paidOrder(request, stack, 'auth', { amount: 123_456_789 });
    await paidOrder(request, stack, 'purchase', { amount: 250_000, currency: 'EUR' });
    await page.setViewportSize(viewport);

    // Signing in.
    await page.goto('/admin');
    await page.getByLabel('Admin token').fill(stack.token);
    expect(await sideways(page), 'the sign-in form').toBeLessThanOrEqual(0);
    expect(await smallTargets(page.locator('body')), 'the sign-in form').toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();

    // The overview: the period's money, each figure and the table's name whole on the screen.
    const payments = page.getByRole('region', { name: 'Payments' });
    const money = payments.getByRole('table', { name: /^Money of the payments created in the period/ });
    await expect(money.getByRole('rowheader', { name: 'EUR', exact: true })).toBeVisible();
    expect(await sideways(page), 'the overview').toBeLessThanOrEqual(0);
    const figures = money.getByRole('cell');
    expect(await figures.count()).toBeGreaterThanOrEqual(6);
    for (const figure of await figures.all()) expect(await readable(figure), `${await figure.textContent()}`).toBe('in view');
    for (const heading of await money.getByRole('rowheader').all()) expect(await readable(heading)).toBe('in view');
    expect(await readable(money.locator('caption')), 'the table’s name').toBe('in view');
    for (const balance of await page.locator('.balance__amount').all()) expect(await readable(balance), `${await balance.textContent()}`).toBe('in view');
    // Stacked, the money is still a table axe finds nothing wrong with.
    await expectNoAxeViolations(page, `the overview on ${phone}`);

    // The chart's numbers: a table wider than the phone, scrolling in its own box, not the page.
    await payments.getByText('Show the numbers').click();
    const numbers = payments.locator('.chart__table table');
    await expect(numbers).toBeVisible();
    const scroller = payments.locator('.chart__table .table-scroll');
    expect(await scroller.evaluate((box) => ({ overflowX: getComputedStyle(box).overflowX, scrolls: box.scrollWidth > box.clientWidth }))).toEqual({ overflowX: 'auto', scrolls: true });
    for (const cell of await numbers.locator('tr > :last-child').all()) expect(await readable(cell)).toMatch(/^in (view|its box)$/);
    expect(await sideways(page), 'the overview with the chart’s numbers').toBeLessThanOrEqual(0);
    // A keyboard scrolls it too: the box is a stop of its own, named (nothing in it takes focus).
    await expect(payments.getByRole('region', { name: /^Payments per hour, .+: table$/ })).toHaveAttribute('tabindex', '0');
    await expectNoAxeViolations(page, `the chart’s numbers on ${phone}`);
    expect(await smallTargets(page.locator('body')), 'the overview and the orders').toEqual([]);

    // The orders list, over a period: each order's figures on the screen.
    await backOffice.orders.getByRole('button', { name: 'This month' }).click();
    await expect(backOffice.row(auth)).toBeVisible();
    expect(await sideways(page), 'the orders list').toBeLessThanOrEqual(0);
    for (const orderId of [purchase, auth]) {
      const { amount, state } = backOffice.listed(orderId);
      expect(await readable(amount), orderId).toBe('in view');
      expect(await readable(state), orderId).toBe('in view');
    }
    expect(await smallTargets(backOffice.orders), 'the orders list').toEqual([]);

    // An order, and its capture dialog.
    await backOffice.select(auth);
    expect(await sideways(page), 'an order').toBeLessThanOrEqual(0);
    for (const amount of await backOffice.detail.locator('.order-detail__amount strong, .totals dd').all()) expect(await readable(amount), `${await amount.textContent()}`).toBe('in view');
    expect(await smallTargets(backOffice.detail), 'an order').toEqual([]);
    await backOffice.actionButton('Capture').click();
    await expect(backOffice.dialog).toBeVisible();
    expect(await fits(backOffice.dialog), 'the capture dialog').toBe(true);
    expect(await sideways(page), 'the capture dialog').toBeLessThanOrEqual(0);
    expect(await smallTargets(backOffice.dialog), 'the capture dialog').toEqual([]);
    await backOffice.dialog.getByRole('button', { name: 'Close' }).click();
    await expect(backOffice.dialog).toBeHidden();

    // The refund dialog of the order refunded in part.
    await backOffice.select(purchase);
    expect(await sideways(page), 'a refunded order').toBeLessThanOrEqual(0);
    await backOffice.actionButton('Refund').click();
    await expect(backOffice.dialog).toBeVisible();
    expect(await fits(backOffice.dialog), 'the refund dialog').toBe(true);
    expect(await sideways(page), 'the refund dialog').toBeLessThanOrEqual(0);
    expect(await smallTargets(backOffice.dialog), 'the refund dialog').toEqual([]);
    await expect(backOffice.dialog.getByRole('button', { name: 'Refund', exact: true })).toBeInViewport({ ratio: 1 });
  });
}
