/**
 * Where the keyboard's focus goes in the back office when what it was on waits or goes away: the
 * sign-in form, a dialog's refusal, a webhook re-send, an unmatched event marked reviewed (an operation that takes
 * its own button away: two-step.spec.ts's void).
 */
import { randomUUID } from 'node:crypto';
import { TEST_PROJECT_DEFAULTS } from '../../server/gateway/test-project.js';
import { webhookForm } from '../../server/gateway/webhook.js';
import { expect, test } from '../fixtures.js';
import { paidOrder } from '../pages/back-office.js';

test('signing in by keyboard: a wrong token is said with what to do, the token is checked once however often Enter is pressed, and the focus goes on to the back office', async ({ page, stack }) => {
  await page.goto('/admin');
  const token = page.getByLabel('Admin token');
  await expect(token).toBeFocused();
  await page.keyboard.type('not-the-token-at-all');
  await page.keyboard.press('Enter');
  await expect(token).toHaveAccessibleDescription('That token was not accepted: paste the companion’s current PAYFORM_ADMIN_TOKEN, whole and without quotes.');
  await expect(token).toBeFocused();
  // The focus stayed in the field, so nothing reads its description again: the reason is a live region's.
  await expect(page.locator('[aria-live=polite]').filter({ hasText: 'That token was not accepted' })).toHaveCount(1);

  // The check of the token held on its way, so that Enter is pressed again while it is checked.
  const checks: string[] = [];
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route((url) => url.pathname === '/api/stats' && url.search === '', async (route) => {
    checks.push(route.request().headers().authorization ?? '');
    await held;
    await route.continue();
  });
  await token.fill(stack.token);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Checking the token…' })).toBeVisible();
  await page.keyboard.press('Enter');
  answer();
  await expect(page.getByRole('heading', { name: 'Back office', level: 1 })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  expect(checks).toEqual([`Bearer ${stack.token}`]);
});

test('a refusal in a dialog takes the focus', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  // The feed never answers: had it told the page of the refund made elsewhere first, the dialog
  // would say its refund no longer applies instead of sending it (a race a loaded machine lost).
  await page.route('**/api/changes/stream', () => undefined);
  await page.goto(`/admin?${new URLSearchParams({ order: orderId })}#token=${stack.token}`);
  await expect(backOffice.detailHeading).toHaveText(orderId);
  // Refunded through the API while the dialog is open: the refund asked for here is refused.
  await backOffice.actionButton('Refund').click();
  await expect(backOffice.dialog).toContainText('Up to UAH 15.00');
  const elsewhere = await request.post(`${stack.shop}/api/orders/${orderId}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: {} });
  expect(elsewhere.status()).toBe(200);
  await backOffice.dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  const refusal = backOffice.dialog.getByRole('alert');
  await expect(refusal).toContainText('Not done:');
  await expect(refusal).toBeFocused();
});

test('a webhook re-send leaves the focus on its button', async ({ request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  await backOffice.open(orderId);
  const resend = backOffice.actionButton('Re-send webhook');
  await resend.click();
  await backOffice.dialog.getByRole('button', { name: 'Re-send', exact: true }).click();
  await expect(backOffice.detail.locator('p.notice')).toHaveText(`Order ${orderId}: the gateway will send its webhook again.`);
  await expect(resend).toBeFocused();
});

test('an unmatched event marked reviewed hands the focus to the next one, and past the panel when it was the last', async ({ page, request, stack, backOffice }) => {
  const report = async (orderId: string) => {
    const event = {
      payment_id: randomUUID(), pos_id: TEST_PROJECT_DEFAULTS.posId, mode: 'direct', method: 'purchase',
      order_id: orderId, amount: 12.5, currency: 'UAH', status: 'success', status_code: '1000', created_at: '2030-01-15T09:30:00.000',
    };
    const answer = await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(event, TEST_PROJECT_DEFAULTS.apiSecret) } });
    expect(await answer.json()).toMatchObject({ received: true, outcome: 'unmatched' });
  };
  const first = `elsewhere-${randomUUID().slice(0, 8)}`;
  const second = `elsewhere-${randomUUID().slice(0, 8)}`;
  await report(first);
  await report(second);
  await backOffice.open();
  const unmatched = page.getByRole('region', { name: 'Unmatched gateway events' });
  // (The id in the button's name is isolated, U+2068…U+2069, and so is the name around it: the name holds it.)
  const review = (orderId: string) => unmatched.getByRole('button', { name: `Mark as reviewed: the event for order \u2068${orderId}\u2069` });
  await expect(review(first)).toBeVisible();

  await review(second).click();
  await expect(review(second)).toHaveCount(0);
  await expect(review(first)).toBeFocused();
  await review(first).click();
  await expect(unmatched).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Orders', level: 2 })).toBeFocused();
});

test('an Enter pressed twice on Refund opens the dialog and refunds nothing until it is read', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  await backOffice.open(orderId);
  const refunds: string[] = [];
  page.on('request', (sent) => void (sent.method() === 'POST' && sent.url().endsWith('/refund') && refunds.push(sent.url())));
  // The field starts at all there is: a bounced or habitual second Enter would refund it all unseen.
  await backOffice.actionButton('Refund').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(backOffice.dialog.getByLabel('Amount (UAH)')).toBeFocused();
  // Past the bounce, read: the same Enter refunds.
  await page.waitForTimeout(800);
  expect(refunds).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(backOffice.detail.locator('p.notice')).toHaveText('Refund of UAH 15.00: done.');
  // Seen on the order, heard once: from the page's live region, not from the notice too.
  await expect(backOffice.detail.getByRole('status')).toHaveCount(0);
  expect(refunds).toHaveLength(1);
});

test('an amount typed at once after Enter opened the dialog is refunded by the next Enter, not dropped as a bounce', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  await backOffice.open(orderId);
  // A quick hand: Enter on Refund, "5", Enter — well within the bounce, but typed, so meant.
  await backOffice.actionButton('Refund').focus();
  await page.keyboard.press('Enter');
  await expect(backOffice.dialog.getByLabel('Amount (UAH)')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await expect(backOffice.detail.locator('p.notice')).toHaveText('Refund of UAH 5.00: done.', { timeout: 3_000 });
});

test('the live feed leaves the focus on the order and the action it was on, or near it when the action goes', async ({ page, request, stack, backOffice }) => {
  const listed = await paidOrder(request, stack);
  const auth = await paidOrder(request, stack, 'auth');
  await backOffice.open(auth);
  // A payment made elsewhere goes to the top of the list: the focused link keeps its order.
  const link = backOffice.orders.getByRole('link', { name: listed, exact: true });
  await link.focus();
  const newer = await paidOrder(request, stack);
  await expect(backOffice.orders.getByRole('link', { name: newer, exact: true })).toBeVisible();
  await expect(page.locator(':focus')).toHaveText(listed);
  // Captured elsewhere: Void goes from the actions, and the focus stays among them.
  await backOffice.actionButton('Void').focus();
  const captured = await request.post(`${stack.shop}/api/orders/${auth}/capture`, { headers: { Authorization: `Bearer ${stack.token}` }, data: {} });
  expect(captured.status()).toBe(200);
  await expect(backOffice.actionButton('Void')).toHaveCount(0);
  await expect(backOffice.detail.getByRole('group', { name: 'Actions' }).getByRole('button').first()).toBeFocused();
});

test('the focus shows on every control, the pressed filter included, and in forced colours too', async ({ page, backOffice }) => {
  await backOffice.open();
  // A screen reader lists the groups by name: no two alike.
  const groups = await page
    .getByRole('group')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? document.getElementById(element.getAttribute('aria-labelledby') ?? '')?.textContent ?? null));
  expect(new Set(groups).size, groups.join(', ')).toBe(groups.length);
  const all = backOffice.orders.getByRole('group', { name: 'Show' }).last().getByRole('button', { name: 'All', exact: true });
  await expect(all).toHaveAttribute('aria-pressed', 'true');
  await all.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(all).toBeFocused();
  const ring = (locator: typeof all) => locator.evaluate((element) => ({ shadow: getComputedStyle(element).boxShadow, outline: `${getComputedStyle(element).outlineStyle} ${getComputedStyle(element).outlineWidth}` }));
  // The ring, not only the pressed one's shadow.
  expect((await ring(all)).shadow).toContain('0px 0px 0px 5px');
  // Forced colours drop the ring: a painted outline shows the focus instead.
  await page.emulateMedia({ forcedColors: 'active' });
  const pending = backOffice.orders.getByRole('button', { name: 'Pending', exact: true });
  await pending.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  expect(await ring(pending)).toEqual({ shadow: 'none', outline: 'solid 2px' });
});
