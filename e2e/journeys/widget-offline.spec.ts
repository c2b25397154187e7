/**
 * A customer whose connection drops as the form reads its session (a train's tunnel, a lift) is
 * told to try again, and the developer's console says nothing answered — never that the companion
 * refused the page's own origin because the browser still held the widget's script from its cache.
 */
import { expect, test } from '../fixtures.js';

test('a session read while offline is a dropped connection, not a page set up wrong', async ({ page, context, checkout }) => {
  const said: string[] = [];
  page.on('console', (message) => said.push(message.text()));
  await checkout.open();
  await checkout.continueToPayment();
  const session = await page.locator('pay-form').getAttribute('session');
  // A diagnosis earlier in the page (a stale session's link) has loaded what diagnoses a failure.
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('pay-form'), { id: 'stale', session: 'cs_gone' })));
  await expect(page.locator('#stale [part="message"]')).toHaveText('This payment link is not valid.');

  await context.setOffline(true);
  // Another element of the same session shows while the connection is down: it reads the session.
  await page.evaluate((id) => document.body.append(Object.assign(document.createElement('pay-form'), { id: 'offline', session: id })), session);
  const offline = page.locator('#offline');
  // Said offline, as the browser knows it is (widget-offline-read.spec.ts).
  await expect(offline.locator('[part="message"]')).toHaveText('You are offline. This checkout will load once you are back online.');
  expect(said.filter((text) => text.startsWith('<pay-form>: ')).slice(1)).toEqual([expect.stringMatching(/^<pay-form>: nothing answered at /)]);
  // Once the connection is back the element reads the session again: it was not closed as misconfigured.
  await context.setOffline(false);
  await expect(offline.getByLabel('Card number')).toBeVisible();
});
