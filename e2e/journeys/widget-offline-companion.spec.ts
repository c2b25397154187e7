/**
 * The customer is online, but the companion is away as the checkout reads its session: down,
 * restarting, or a proxy in front of it answering 502 during a deploy. The widget says once that
 * it is trying again, reads the session again by itself, and shows the form once the companion
 * answers; the customer then pays once.
 */
import { expect, test } from '../fixtures.js';
import { Result } from '../pages/result.js';

const TRYING = 'Could not reach the payment service. Trying again…';

test('the companion away as the checkout loads: said once, and the form shows by itself once it is back', async ({ page, checkout, sandbox }) => {
  await checkout.open();
  let away = true;
  let reads = 0;
  // The session's reads find nothing there, then a proxy's 502, by turns, until it is back.
  await page.route(/\/api\/checkout\/sessions\/[^/]+$/, (route) => {
    if (route.request().method() !== 'GET' || !away) return route.fallback();
    return ++reads % 2 ? route.abort('connectionrefused') : route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad Gateway' });
  });
  const texts: string[] = [];
  await page.exposeFunction('said', (text: string) => texts.push(text));
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(checkout.message).toHaveText(TRYING);
  await checkout.message.evaluate((region) => new MutationObserver(() => (window as unknown as { said(text: string): void }).said(region.textContent!)).observe(region, { subtree: true, childList: true, characterData: true }));
  // Read again without a click.
  const before = reads;
  await expect.poll(() => reads).toBeGreaterThan(before + 1);
  away = false;

  await expect(checkout.cardNumber).toBeVisible();
  await expect(checkout.message).toHaveText('');
  // The live region kept its words from one read to the next: said once.
  expect(texts.filter((text) => text === TRYING)).toEqual([]);
  const orderId = await checkout.orderId();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');
  expect(await sandbox.order(orderId)).toEqual([expect.objectContaining({ status: 'success' })]);
});
