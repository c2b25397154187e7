/**
 * What a design-minded merchant saw in the shop and the back office, and each one's fix: on a
 * phone the back office's states in one column at the rows' end (a long one under its amount
 * started the line instead); in the right-to-left preview the success rate and the shop's prices
 * as the language writes them ("% 82", "грн 420,00" before); the day's receipts form a row of one
 * height (the date input stood taller than its neighbours); a wrapped filter group a rounded box,
 * not an oval; the customer's phone on one line; and, with the browser's text twice as large,
 * the shop's products within the screen, and the checkout and the result page too (on a phone
 * they scrolled sideways by 198 px: the form and the summary as wide as their widest content, the
 * test cards' numbers on one line, the result's heading beside its icon). Right to left, the
 * refund dialog's heading read "· Повернути", the order's id below; and the chart's "Show the
 * numbers" was a 22 px target on a tablet or a laptop (WCAG 2.5.8 asks for 24).
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';
import { ESPRESSO } from '../pages/checkout.js';

const PHONE = { width: 375, height: 740 };

/** The browser's text at twice its size: every rem doubles, as a reader's larger default font does. */
const largeText = (page: Page) => page.evaluate(() => document.documentElement.style.setProperty('font-size', '200%'));

test('on a phone the back office lists every state at the rows’ end, in Ukrainian too', async ({ page, request, stack, backOffice }) => {
  // A partly captured auth: its amount says what was asked on a second line, and "Списано
  // частково" is the widest state, which found no room beside it.
  const auth = await paidOrder(request, stack, 'auth', { amount: 60_000 });
  const captured = await request.post(`${stack.shop}/api/orders/${auth}/capture`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 30_000 } });
  expect(captured.status()).toBe(200);
  await paidOrder(request, stack, 'purchase', { amount: 1_500 });
  await page.setViewportSize(PHONE);
  await backOffice.open();
  for (const language of ['en', 'uk']) {
    await page.getByRole('combobox', { name: /^(Language|Мова)$/ }).selectOption(language);
    const rows = page.locator('.orders-table tbody tr');
    await expect(rows.filter({ hasText: auth })).toBeVisible();
    const ends = await rows.evaluateAll((rows) =>
      rows.map((row) => {
        // A state and a mark beside it ("Refunded", "Held" for review): the pair ends the row.
        const badges = [...row.querySelectorAll('td:nth-of-type(2) .badge')].map((badge) => badge.getBoundingClientRect());
        const amount = row.querySelector('td:nth-of-type(1)')!.getBoundingClientRect();
        const padding = parseFloat(getComputedStyle(row).paddingInlineEnd);
        return {
          row: row.textContent?.replace(/\s+/g, ' ').trim(),
          fromEnd: Math.abs(Math.round(row.getBoundingClientRect().right - padding - badges.at(-1)!.right)),
          startsLine: badges[0]!.left <= amount.left + 0.5,
        };
      }),
    );
    expect(ends.length, language).toBeGreaterThanOrEqual(2);
    for (const { row, ...end } of ends) expect(end, `${language}: each state at its row's end, none at a line's start (${row})`).toEqual({ fromEnd: 0, startsLine: false });
  }
});

test('right to left, the success rate and the shop’s prices read as the language writes them', async ({ page, request, stack, backOffice }) => {
  await paidOrder(request, stack, 'purchase');
  await backOffice.open();
  await page.getByRole('button', { name: 'RTL' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const rate = page.locator('.kpis div').filter({ hasText: 'Success rate' }).locator('dd');
  await expect(rate).toHaveText(/^\d+%$/u);
  expect(await backOffice.misread(rate), 'the success rate').toEqual([]);

  // The back office is on the shop's origin: the cart goes in its storage here, and the checkout
  // opens straight away (Checkout.open would load the shop's page first to reach that storage).
  await page.evaluate((cart) => localStorage.setItem('kavarnia:cart', JSON.stringify(cart)), [{ product: ESPRESSO.product, quantity: 2 }]);
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await page.getByRole('button', { name: 'RTL' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const summary = page.getByRole('region', { name: 'Ваше замовлення' });
  await expect(summary).toContainText('840,00');
  expect(await backOffice.misread(summary.locator('.summary__lines li > span:last-child, .summary__total strong')), 'the checkout’s prices').toEqual([]);
  await page.goto('/');
  const cart = page.getByRole('region', { name: 'Ваш кошик' });
  await expect(cart).toContainText('840,00');
  expect(await backOffice.misread(page.locator('.product__price, .cart__price, .cart__total strong')), 'the shop’s prices').toEqual([]);
});

test('the back office’s controls line up: the receipts row one height, a wrapped filter group a rounded box', async ({ page, backOffice }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await backOffice.open();
  const form = page.locator('.receipts__form');
  const boxes = await form.locator('input, select, button').evaluateAll((controls) => controls.map((control) => control.getBoundingClientRect()).map(({ top, height }) => ({ top: Math.round(top), height: Math.round(height) })));
  expect(boxes).toHaveLength(4);
  for (const box of boxes) expect(box, 'the day, the format, the kind of payment and the button').toEqual(boxes[0]);

  await page.setViewportSize(PHONE);
  const groups = page.locator('.segmented');
  await expect(groups.first()).toBeVisible();
  const corners = await groups.evaluateAll((elements) =>
    elements.map((group) => {
      const button = group.querySelector('button')!.getBoundingClientRect();
      const style = getComputedStyle(group);
      // Half the height of one line of filters, padding and border included: a pill's radius.
      const pill = button.height / 2 + parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth);
      return { radius: parseFloat(style.borderStartStartRadius), pill: Math.ceil(pill) + 1, lines: Math.round(group.getBoundingClientRect().height / button.height) };
    }),
  );
  expect(corners.some((corner) => corner.lines > 1), 'a group wraps on a phone').toBe(true);
  for (const corner of corners) expect(corner.radius, 'a group’s corners').toBeLessThanOrEqual(corner.pill);
});

test('on a phone the checkout keeps the customer’s phone on one line', async ({ page, checkout }) => {
  await page.setViewportSize(PHONE);
  await checkout.open([{ product: ESPRESSO.product, quantity: 1 }]);
  await checkout.continueToPayment();
  const phone = page.locator('.details-summary [dir=ltr]').last();
  await expect(phone).toContainText('+380');
  expect(await phone.evaluate((element) => element.getClientRects().length), 'the phone number’s lines').toBe(1);
});

test('with text twice as large on a phone, the shop’s products stay within the screen', async ({ page, shop }) => {
  await page.setViewportSize(PHONE);
  await shop.open();
  await largeText(page);
  const products = page.locator('.product-grid > li');
  await expect(products.first()).toBeVisible();
  const right = await products.evaluateAll((items) => Math.max(...items.map((item) => item.getBoundingClientRect().right)));
  expect(right, 'the products’ right edge').toBeLessThanOrEqual(PHONE.width);
});

/**
 * How far the page scrolls sideways (`scrollWidth` past `innerWidth`; 0 when it fits), said with
 * what stands past the screen's right edge.
 */
async function expectNoSideways(page: Page, what: string): Promise<void> {
  const { overflow, past } = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    past: [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 6)
      .map((element) => `${element.localName}${typeof element.className === 'string' && element.className.trim() ? `.${element.className.trim().split(/\s+/u).join('.')}` : ''} (${Math.round(element.getBoundingClientRect().right)} px)`),
  }));
  expect(overflow, `${what} scrolls sideways; past the screen: ${past.join(', ')}`).toBeLessThanOrEqual(0);
}

test('with text twice as large on a phone, the checkout and the result page do not scroll sideways', async ({ page, checkout }) => {
  await page.setViewportSize(PHONE);
  await checkout.open([{ product: ESPRESSO.product, quantity: 1 }]);
  await largeText(page);
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toBeVisible();
  // The words themselves twice as large, not only what is sized in rem: at 16 px they fitted by not growing.
  expect(await page.locator('body').evaluate((body) => getComputedStyle(body).fontSize), 'the checkout’s text').toBe('32px');
  await expectNoSideways(page, 'the checkout’s details');

  await checkout.continueToPayment();
  await expectNoSideways(page, 'the checkout’s payment');

  await checkout.pay('4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/result\?/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you — your payment went through');
  await largeText(page);
  await expectNoSideways(page, 'the result page');
});

test('right to left, the refund dialog’s heading reads its action, then the order’s id, isolated', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'purchase');
  await page.setViewportSize(PHONE);
  await backOffice.open(orderId);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await page.getByRole('button', { name: 'RTL' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await backOffice.detail.getByRole('group', { name: 'Дії' }).getByRole('button', { name: 'Повернути', exact: true }).click();
  const heading = backOffice.dialog.getByRole('heading', { level: 2 });
  await expect(heading).toHaveText(`Повернути · ${orderId}`);
  // The id alone in its own run, read as written whatever surrounds it.
  await expect(heading.locator('bdi')).toHaveText(orderId);
  // Line by line, the words, then the separator beside them, then the id: not "· Повернути" with the id below.
  expect(await backOffice.misread(heading), 'the dialog’s heading').toEqual([]);
  // And at a width where it all fits on one line: still the action first.
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await backOffice.misread(heading), 'the dialog’s heading on one line').toEqual([]);
});

test('the chart’s “Show the numbers” is a target at least 24 px tall on a tablet and a laptop', async ({ page, request, stack, backOffice }) => {
  await paidOrder(request, stack, 'purchase');
  await page.setViewportSize({ width: 820, height: 1180 });
  await backOffice.open();
  // One page, resized: the toggle's size is the stylesheet's at each width.
  for (const viewport of [{ width: 820, height: 1180 }, { width: 1280, height: 900 }]) {
    await page.setViewportSize(viewport);
    const toggle = page.getByRole('region', { name: 'Payments' }).locator('.chart__table summary');
    await expect(toggle).toHaveText('Show the numbers');
    const box = (await toggle.boundingBox())!;
    expect(box.height, `${viewport.width} px: the toggle’s height`).toBeGreaterThanOrEqual(24);
  }
});

/**
 * The browser's own text size (Chrome's "Font size") twice as large: unlike the page's root font
 * (`largeText`), it also sizes what a media query's em measures, so a layout that changes at a
 * width in px, which no text size moves, is caught too.
 */
async function largeBrowserText(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
}

test('with the browser’s own text size twice as large on a laptop, the checkout keeps room for the card form', async ({ page, checkout }) => {
  await largeBrowserText(page);
  await page.setViewportSize({ width: 1024, height: 768 });
  await checkout.open([{ product: ESPRESSO.product, quantity: 1 }]);
  await checkout.continueToPayment();
  const heading = checkout.payment.getByRole('heading', { name: 'Payment', exact: true });
  const { column, clipped } = await heading.evaluate((element) => ({
    column: Math.round(element.closest('.checkout-main')!.getBoundingClientRect().width),
    clipped: element.scrollWidth > element.clientWidth,
  }));
  // The width the widget is built to fit (WCAG 1.4.10's 320 px); it had 112 px beside a 768 px summary.
  expect(column, 'the payment column’s width').toBeGreaterThanOrEqual(320);
  expect(clipped, 'the Payment heading clipped').toBe(false);
  // The card form's words twice as large too, as the headings around it: the shop had set them at 16 px.
  expect(await checkout.cardNumber.evaluate((element) => getComputedStyle(element).fontSize), 'the card number’s text').toBe('32px');
  await checkout.pay('4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/result\?/);
});

test('with the browser’s own text size twice as large on a laptop, the back office does not scroll sideways nor its figures overlap', async ({ page, request, stack, backOffice }) => {
  await paidOrder(request, stack, 'purchase');
  await largeBrowserText(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await backOffice.open();
  // Its words twice as large, as its headings and tiles (in rem) are: not kept at 16 px.
  expect(await page.locator('body').evaluate((body) => getComputedStyle(body).fontSize), 'the back office’s text').toBe('32px');
  await expectNoSideways(page, 'the back office');
  // Each figure's label within its tile: four tiles beside each other on 392 px ran into each other.
  const spilt = await page.locator('.kpis > *').evaluateAll((tiles) => tiles.filter((tile) => tile.scrollWidth > tile.clientWidth).map((tile) => tile.textContent!.trim()));
  expect(spilt, 'figures wider than their tiles').toEqual([]);
});
