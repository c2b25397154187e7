/**
 * The back office's screen around the orders, as staff meet it on a laptop and a phone: the
 * focus the keyboard moves is never under the header, the header's switches show what they say,
 * and a panel whose figures could not be read says so and offers to read them again instead of
 * "Loading…" for good.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

/** How far the focused element's top is above the header's bottom (0 or less: in view). */
const underHeader = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement!.getBoundingClientRect();
    return document.querySelector('header.site-header')!.getBoundingClientRect().bottom - focused.top;
  });

test('on a laptop and on a phone 320 px wide, going back up the orders with Shift+Tab never leaves the focus under the header', async ({ page, request, stack, backOffice }) => {
  // More orders than the screen holds, whatever else the worker's ledger has: made once, read at both sizes.
  for (let i = 0; i < 8; i += 1) await paidOrder(request, stack);
  for (const [device, viewport] of [
    ['a laptop', { width: 1280, height: 560 }],
    ['a phone 320 px wide', { width: 320, height: 640 }],
  ] as const) {
    // Opened again at each size, as a page first met there.
    await page.setViewportSize(viewport);
    await backOffice.open();
    const links = backOffice.orders.locator('tbody a');
    await links.last().focus();
    const count = await links.count();
    for (let i = 1; i < Math.min(count, 12); i += 1) {
      await page.keyboard.press('Shift+Tab');
      await expect(links.nth(count - 1 - i), `${device}: link ${i} from the last`).toBeFocused();
      expect(await underHeader(page), `${device}: link ${i} from the last`).toBeLessThanOrEqual(0);
    }
  }
});

test('on a phone 320 px wide the language switch shows the language whole, in English and Ukrainian', async ({ page, backOffice }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await backOffice.open();
  // The width the switch takes where nothing presses on it: as wide as its longest language.
  const squeezedBy = () =>
    page.locator('#language').evaluate((select) => {
      const free = select.cloneNode(true) as HTMLSelectElement;
      free.removeAttribute('id');
      free.style.cssText = 'position: absolute; visibility: hidden; inline-size: auto; min-inline-size: auto';
      select.parentElement!.append(free);
      const missing = free.getBoundingClientRect().width - select.getBoundingClientRect().width;
      free.remove();
      return missing;
    });
  expect(await squeezedBy(), 'in English').toBeLessThanOrEqual(1);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  expect(await squeezedBy(), 'in Ukrainian').toBeLessThanOrEqual(1);
  // The header's tools stay on the screen.
  await expect(page.getByRole('button', { name: 'Вийти' })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test('payments figures that could not be read say so, and Try again reads them', async ({ page, backOffice }) => {
  // The first read of the figures finds no companion (restarting); the next ones do.
  let refused = 0;
  await page.route(/\/api\/stats\?/, (route) => (refused++ === 0 ? route.abort('connectionrefused') : route.continue()));
  await backOffice.open();
  const payments = page.getByRole('region', { name: 'Payments' });
  // In the page's words, not the browser's ("Failed to fetch"); the reason is isolated (U+2068…U+2069) in the sentence.
  await expect(payments.getByRole('alert')).toContainText(/The figures could not be read: \u2068The companion did not answer/);
  await expect(payments).not.toContainText('Loading…');
  await payments.getByRole('button', { name: 'Try again' }).click();
  await expect(payments.getByRole('img', { name: 'Payments per hour, last 24 hours' })).toBeVisible();
  await expect(payments.getByRole('alert')).toHaveCount(0);
  // The button pressed went with the notice: the reader goes on from the panel's heading.
  await expect(payments.getByRole('heading', { name: 'Payments', level: 2 })).toBeFocused();
});

test('balances the gateway does not answer for say so, not "Loading…", and Try again reads them', async ({ page, backOffice, sandbox }) => {
  await sandbox.faults({ error_rate: 1, error_status: 503, scope: { path: '/api/v1/balances' } });
  await backOffice.open();
  const balances = page.getByRole('region', { name: 'Balances' });
  await expect(balances.getByRole('alert')).toContainText('The gateway failed the request (HTTP 503)');
  await expect(balances).not.toContainText('Loading…');
  await sandbox.clearFaults();
  await balances.getByRole('button', { name: 'Try again' }).click();
  await expect(balances).toContainText('Settlement account');
  await expect(balances.getByRole('alert')).toHaveCount(0);
  await expect(balances.getByRole('heading', { name: 'Balances', level: 2 })).toBeFocused();
});

test('a capture dialog left open while the auth is voided elsewhere says the capture no longer applies', async ({ request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'auth');
  await backOffice.open(orderId);
  await backOffice.actionButton('Capture').click();
  await expect(backOffice.dialog).toContainText('Up to UAH 15.00');
  await expect(backOffice.dialog.getByRole('status')).toHaveCount(0);
  // Another person, or the shop's server, voids it meanwhile: the live feed brings the order.
  const voided = await request.post(`${stack.shop}/api/orders/${orderId}/void`, { headers: { Authorization: `Bearer ${stack.token}` }, data: {} });
  expect(voided.status()).toBe(200);
  await expect(backOffice.dialog.getByRole('status')).toHaveText('The order changed since this dialog opened: “Capture” no longer applies to it.');
});

test('what an operation did is said on the order too, not only to a screen reader', async ({ request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack, 'auth');
  await backOffice.open(orderId);
  await backOffice.performed('Void');
  await expect(backOffice.detail.locator('p.notice')).toHaveText('Void of UAH 15.00: done.');
  // Heard once: from the page's live region, the order's notice being none.
  await expect(backOffice.announcement).toHaveText('Void of UAH 15.00: done.');
  await expect(backOffice.detail.getByRole('status')).toHaveCount(0);
});
