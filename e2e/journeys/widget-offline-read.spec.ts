/**
 * The connection is down as the checkout reads its session — an element shown while offline, or
 * a page the back/forward cache kept, shown again by Back while offline: the customer is told
 * they are offline, and the element reads the session by itself once the connection is back,
 * without a click, reading it once.
 */
import { expect, test } from '../fixtures.js';
import { leftForTheBank } from '../pages/result.js';

const OFFLINE = 'You are offline. This checkout will load once you are back online.';

test('a checkout shown offline loads by itself once the connection is back', async ({ page, context, checkout }) => {
  await checkout.open();
  await checkout.continueToPayment();
  const session = (await page.locator('pay-form').getAttribute('session'))!;
  const reads: string[] = [];
  page.on('request', (request) => request.method() === 'GET' && request.url().split('?')[0]!.endsWith(`/api/checkout/sessions/${session}`) && reads.push(request.url()));

  await context.setOffline(true);
  // Another element of the session shows while the connection is down (a framework rendered the checkout anew).
  await page.evaluate((id) => document.body.append(Object.assign(document.createElement('pay-form'), { id: 'offline', session: id })), session);
  const offline = page.locator('#offline');
  await expect(offline.locator('[part="message"]')).toHaveText(OFFLINE);

  const before = reads.length;
  await context.setOffline(false);
  await expect(offline.getByLabel('Card number')).toBeVisible();
  await expect(offline.locator('[part="message"]')).toHaveText('');
  // Read once, by the element that could not: the others had read it.
  await expect.poll(() => reads.length - before).toBe(1);
});

test('Back into a page the browser kept whole, while offline: the payment shows once the connection is back', async ({ page, context, request, stack }) => {
  // As widget-back-forward.spec.ts: the page shown again as the cache shows it.
  await leftForTheBank(page, request, stack);
  const form = page.locator('pay-form');
  const message = form.locator('[part="message"]');
  await expect(message).toHaveText('Taking you to your bank to confirm the payment…');

  await context.setOffline(true);
  await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
  await expect(message).toHaveText(OFFLINE);

  await context.setOffline(false);
  // No click: the session is read again, pending on its challenge, which is offered.
  await expect(message).toHaveText('Your bank is waiting for you to confirm the payment.');
  await expect(form.getByRole('button', { name: 'Continue with your bank' })).toBeVisible();
  await expect(form.getByLabel('Card number')).toHaveCount(0);
});
