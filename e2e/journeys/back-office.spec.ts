/**
 * The back office as the merchant uses it: it follows payments live (server-sent events) while
 * they happen in the shop, it opens only with the admin token, and the shop's pages never see
 * that token.
 */
import { randomUUID } from 'node:crypto';
import type { Locator } from '@playwright/test';
import { toWireAmount } from '@payform/gateway/wire';
import { TEST_PROJECT_DEFAULTS } from '../../server/gateway/test-project.js';
import { webhookForm } from '../../server/gateway/webhook.js';
import { expectNoAxeViolations } from '../a11y.js';
import { expect, test } from '../fixtures.js';
import { BackOffice, paidOrder } from '../pages/back-office.js';
import { Checkout } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

test('live: a payment made in the shop appears, pending then paid, without reloading', async ({ context, page, stack }) => {
  const backOffice = new BackOffice(page, stack.token);
  await backOffice.open();
  // The journeys ask for reduced motion: the live dot shows, and nothing moves, its pulsing ring included.
  await expect(page.locator('.live--live')).toBeVisible();
  expect(await page.evaluate(() => document.getAnimations().map((animation) => `${animation.constructor.name} ${(animation.effect as KeyframeEffect | null)?.pseudoElement ?? ''}`))).toEqual([]);
  const kpiTotal = page.getByRole('region', { name: 'Payments' }).getByRole('definition').first();
  const before = Number(await kpiTotal.textContent());

  const shopper = await context.newPage();
  const checkout = new Checkout(shopper);
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  // The sandbox's slow card: pending at first, paid by the gateway's webhook a few seconds later.
  await checkout.pay('4000 0000 0000 0119');

  await expect(backOffice.row(orderId)).toContainText('Pending');
  // Heard too, not only seen flashing: a polite line for the changes of a few seconds.
  await expect(backOffice.announcement).toHaveText(new RegExp(`^Order ${orderId}: (Pending|Success)\\.$`));
  await expect(backOffice.row(orderId)).toContainText('Success', { timeout: 20_000 });
  await expect(kpiTotal).toHaveText(String(before + 1));
  await backOffice.select(orderId);
  await expect(backOffice.events.filter({ hasText: 'Success' })).toContainText('applied');
  await new Result(shopper).expectOutcome('success');
});

test('live: a feed that comes back reads everything again, whatever it missed meanwhile', async ({ page, request, backOffice, stack }) => {
  // Every stream answers as a restarted instance, or another behind the balancer, would: ready,
  // none of the changes the page missed (it numbers its own anew), and then it drops.
  await page.route('**/api/changes/stream', (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'event: ready\ndata: {"last_seq":0}\n\n' }));
  await page.goto(`/admin#token=${stack.token}`);
  await expect(backOffice.orders).toBeVisible();
  const orderId = await paidOrder(request, stack);
  // No change of it ever comes: the feed coming back is what reads it.
  await expect(backOffice.row(orderId)).toContainText('Success');
});

test('balances of every account and terminal, the unreadable terminal flagged; the figures follow the payments', async ({ context, page, backOffice }) => {
  await backOffice.open();
  const balances = page.getByRole('region', { name: 'Balances' });
  await expect(balances).toContainText('Settlement account');
  await expect(balances).toContainText('E-commerce terminal');
  await expect(balances.getByText('Unavailable', { exact: true })).toBeVisible();
  await expect(balances).toContainText('temporarily unavailable');
  // When they were read, and read again on demand: payouts move them with no payment.
  await expect(balances.getByText(/^As of \d{1,2}:\d{2}:\d{2}/)).toBeVisible();
  const reread = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/api/balances/accounts'));
  await balances.getByRole('button', { name: 'Refresh' }).click();
  expect((await reread).status()).toBe(200);

  // The worker's ledger has other tests' payments too: count what this one adds.
  const payments = page.getByRole('region', { name: 'Payments' });
  await expect(payments.getByRole('img', { name: 'Payments per hour, last 24 hours' })).toBeVisible();
  const figure = (index: number) => payments.getByRole('definition').nth(index);
  const before = await Promise.all([0, 1, 2].map(async (index) => Number(await figure(index).textContent())));

  const shopper = new Checkout(await context.newPage());
  await shopper.open();
  await shopper.continueToPayment();
  await shopper.pay('4000 0000 0000 0002');
  await expect(shopper.message).toContainText('declined');
  await shopper.pay('4242 4242 4242 4242');
  await new Result(shopper.page).expectOutcome('success');

  await expect(figure(0)).toHaveText(String(before[0]! + 2));
  await expect(figure(1)).toHaveText(String(before[1]! + 1));
  await expect(figure(2)).toHaveText(String(before[2]! + 1));
  await payments.getByText('Show the numbers').click();
  // A header row and at least one day's row, shown.
  await expect(payments.getByRole('table').getByRole('row').nth(1)).toBeVisible();
});

test('the back office opens only with the admin token, and the shop never sees it', async ({ page, stack, checkout }) => {
  const authorised: string[] = [];
  page.on('request', (request) => {
    if (request.headers().authorization) authorised.push(new URL(request.url()).pathname);
  });

  await page.goto('/admin');
  const token = page.getByLabel('Admin token');
  await token.fill('not-the-token-at-all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(token).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('That token was not accepted: paste the companion’s current PAYFORM_ADMIN_TOKEN')).toBeVisible();
  expect((await page.request.get('/api/orders')).status()).toBe(401);

  // Pasted with its scheme, as it stands in a curl line: the token is what follows.
  await token.fill(`Bearer ${stack.token}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Back office', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  expect(authorised.every((path) => path.startsWith('/api/'))).toBe(true);

  // Signing out forgets it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Admin token')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Admin token')).toBeVisible();

  // A link whose token the companion no longer takes (PAYFORM_ADMIN_TOKEN changed): refused once,
  // not by every view's request (they would use up the wrong-token limit), and said on the form.
  const refusals: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 401) refusals.push(new URL(response.url()).pathname);
  });
  await page.goto('/admin?from=an-old-link#token=a-token-the-companion-had-before');
  await expect(page.getByText('The companion no longer accepts the token this page had')).toBeVisible();
  await expect(page.getByLabel('Admin token')).toBeFocused();
  expect(refusals).toEqual(['/api/stats']);

  // The shop's pages: no request carries it, and nothing served to them contains it.
  authorised.length = 0;
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (new URL(response.url()).origin === new URL(stack.shop).origin) bodies.push(await response.text().catch(() => ''));
  });
  await checkout.open();
  await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');
  expect(authorised).toEqual([]);
  expect(bodies.length).toBeGreaterThan(5);
  expect(bodies.some((body) => body.includes(stack.token))).toBe(false);
});

test('a payment the gateway reports for an order the shop does not know is shown for a person to look at', async ({ page, request, stack, backOffice }) => {
  const listed = page.waitForResponse((response) => response.url().includes('/api/webhook-events'));
  await backOffice.open();
  const unmatched = page.getByRole('region', { name: 'Unmatched gateway events' });
  // Only while there are any (every other journey's webhooks match their orders): the list was read, and none shown.
  expect(await (await listed).json()).toMatchObject({ events: [] });
  await expect(unmatched).toHaveCount(0);

  // Another shop on the same gateway project: a genuine, correctly signed event for its order.
  const orderId = `elsewhere-${Date.now().toString(36)}`;
  const event = {
    payment_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', pos_id: TEST_PROJECT_DEFAULTS.posId, mode: 'direct', method: 'purchase',
    order_id: orderId, amount: 12.5, currency: 'UAH', status: 'success', status_code: '1000', created_at: '2030-01-15T09:30:00.000',
  };
  const answer = await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(event, TEST_PROJECT_DEFAULTS.apiSecret) } });
  expect(await answer.json()).toMatchObject({ received: true, outcome: 'unmatched' });

  // It changes no order, so the live feed does not mention it: a person opening the back office sees it.
  await page.reload();
  const row = unmatched.getByRole('row').filter({ has: page.getByRole('rowheader', { name: orderId }) });
  await expect(row).toContainText('Purchase');
  await expect(row).toContainText('Success');
  await expect(row).toContainText('12.50');
  await expect(backOffice.row(orderId)).toHaveCount(0);
  await expectNoAxeViolations(page, 'the back office with an unmatched gateway event');
  // On a phone the panel's table scrolls in its own box: the page never scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Looked up at the gateway and settled there: marked reviewed, it leaves the panel (and the operator's gauge).
  // (The id in the button's name is isolated, U+2068…U+2069, and so is the name around it: the name holds it.)
  await row.getByRole('button', { name: `Mark as reviewed: the event for order \u2068${orderId}\u2069` }).click();
  await expect(unmatched).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'The event was marked as reviewed.' })).toBeAttached();
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await expect(unmatched).toHaveCount(0);
});

test('an order the gateway contradicts is marked held, saying why and what to do', async ({ page, request, stack, checkout, backOffice }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');
  const admin = { Authorization: `Bearer ${stack.token}` };
  const { order } = await (await request.get(`${stack.shop}/api/orders/${orderId}`, { headers: admin })).json();

  // A refund made in the gateway's portal, twice what was paid, told by a genuine signed event (in
  // the gateway's decimals: the companion's amounts are minor units).
  const event = {
    operation_id: randomUUID(), payment_id: order.payment_id, pos_id: TEST_PROJECT_DEFAULTS.posId, mode: 'direct', method: 'refund',
    order_id: orderId, amount: toWireAmount(order.amount * 2, order.currency), currency: order.currency, status: 'success', status_code: '1004', created_at: '2030-01-15T09:30:00.000',
  };
  const answer = await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(event, TEST_PROJECT_DEFAULTS.apiSecret) } });
  expect(await answer.json()).toMatchObject({ received: true, outcome: 'applied' });
  // And later a third of it again, in another refund: a second report, kept beside the first.
  const further = { ...event, operation_id: randomUUID(), amount: toWireAmount(order.amount, order.currency), created_at: '2030-01-16T09:30:00.000' };
  const again = await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(further, TEST_PROJECT_DEFAULTS.apiSecret) } });
  expect(await again.json()).toMatchObject({ received: true, outcome: 'applied' });

  // A success for this order with other figures: not applied, and said so beside the order it contradicts.
  const contradicting = { ...event, operation_id: undefined, method: 'purchase', amount: toWireAmount(order.amount - 100, order.currency), status_code: '1000' };
  const contradicted = await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(contradicting, TEST_PROJECT_DEFAULTS.apiSecret) } });
  expect(await contradicted.json()).toMatchObject({ received: true, outcome: 'unmatched' });
  // A further charge of the card (a subscription set up at the gateway): another transaction, told as one.
  const transaction = randomUUID();
  const recurring = { ...contradicting, transaction_id: transaction, amount: toWireAmount(9_000, order.currency), recurring: { id: 'subscription-1', status: 'active' } };
  const charged = await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(recurring, TEST_PROJECT_DEFAULTS.apiSecret) } });
  expect(await charged.json()).toMatchObject({ received: true, outcome: 'unmatched' });

  await backOffice.open();
  await expect(backOffice.row(orderId)).toContainText('Held');
  // Held orders apart: the one just paid and not contradicted is not among them.
  const other = await paidOrder(request, stack);
  await expect(backOffice.row(other)).toBeVisible();
  await backOffice.orders.getByRole('button', { name: 'Held', exact: true }).click();
  await expect(backOffice.row(other)).toHaveCount(0);
  await expect(backOffice.row(orderId)).toContainText('Held');
  // The gateway's events that contradict it lead to it from their panel.
  await page.getByRole('region', { name: 'Unmatched gateway events' }).getByRole('link', { name: orderId }).first().click();
  const notice = backOffice.detail.locator('.held');
  await expect(notice).toContainText('Held for review: do not fulfil');
  // The money as the back office writes it in English (the espresso's UAH 420.00 twice, then thrice), written out: not
  // by the function that renders it, which a test through it could not catch going wrong.
  expect(order).toMatchObject({ amount: 42_000, currency: 'UAH' });
  await expect(notice).toContainText('Refunds at the gateway add up to UAH 840.00, more than was paid.');
  await expect(notice).toContainText(/Then, .+:\s*Refunds at the gateway add up to UAH\s1,260\.00, more than was paid\./);
  await expect(notice).toContainText(`The gateway reports a further charge of this order’s card (success, UAH 90.00; transaction ${transaction}): a recurring charge, not this order’s payment`);
  await expect(notice).toContainText('Settle it with the customer');
  // Refunded past what was paid: less than nothing kept, as the CSV's net counts it (420.00 paid, 1,260.00 refunded).
  await expect(backOffice.status).toHaveText('Refunded');
  await expect(backOffice.detail.locator('.order-detail__amount strong')).toContainText(/[-−]UAH\s840\.00/);
  // The success paid short and the further charge.
  await expect(backOffice.events.filter({ hasText: 'not applied: contradicts this order' })).toHaveCount(2);
  // Each table of the detail is named by its heading, as the orders list's is by its caption.
  for (const name of ['Operations', 'Webhook events']) await expect(backOffice.detail.getByRole('table', { name, exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'the back office with a held order');

  // Settled with the customer: said how. A report that comes while the dialog is open is read first.
  await notice.getByRole('button', { name: 'Mark settled…' }).click();
  const dialog = page.getByRole('dialog', { name: `Mark settled · ${orderId}` });
  const note = dialog.getByRole('textbox', { name: 'How it was settled' });
  await dialog.getByRole('button', { name: 'Mark settled' }).click();
  expect(await note.evaluate((field: HTMLTextAreaElement) => field.validationMessage)).toBe('Say how the order was settled.');
  await expectNoAxeViolations(page, 'the dialog that marks a held order settled');
  const third = { ...event, operation_id: randomUUID(), amount: toWireAmount(order.amount / 2, order.currency), created_at: '2030-01-17T09:30:00.000' };
  expect(await (await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(third, TEST_PROJECT_DEFAULTS.apiSecret) } })).json()).toMatchObject({ outcome: 'applied' });
  await note.fill('Refunded twice in the portal by mistake; the customer paid it back by bank transfer.');
  const closing = await dialog.elementHandle();
  await dialog.getByRole('button', { name: 'Mark settled' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(backOffice.detail.getByText(/^The gateway reported again on order .+ since it was opened: read the new report above/)).toBeVisible();
  await expect(notice).toContainText(/Then, .+:\s*Refunds at the gateway add up to UAH\s1,470\.00, more than was paid\./);
  await expect(backOffice.row(orderId)).toContainText('Held');

  // The focus is on the order's notice, the new report in it, and the note written waits in the dialog opened anew.
  await expect(notice).toBeFocused();
  // The dialog's own close event comes a task after the page closed it, at times after the order
  // was read again and the focus placed (a busy browser): it leaves the focus where it is.
  await closing!.dispatchEvent('close');
  await expect(notice).toBeFocused();
  await notice.getByRole('button', { name: 'Mark settled…' }).click();
  await expect(note).toHaveValue('Refunded twice in the portal by mistake; the customer paid it back by bank transfer.');
  await note.fill('Refunded three times in the portal by mistake; the customer paid it back by bank transfer.');
  await dialog.getByRole('button', { name: 'Mark settled' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `Order ${orderId} is settled: it is no longer held.` })).toBeAttached();
  await expect(notice).toContainText('How: Refunded three times in the portal by mistake');
  await expect(notice).toContainText('Refunds at the gateway add up to UAH 840.00, more than was paid.');
  await expect(notice.getByRole('button', { name: 'Mark settled…' })).toHaveCount(0);
  // Its button gone with the hold, the focus is on what the order now says: settled, when and how.
  await expect(notice).toBeFocused();
  // No longer among the held orders, in the page or the API.
  await expect(backOffice.row(orderId)).toHaveCount(0);
  const held = await (await request.get(`${stack.shop}/api/orders?held=true`, { headers: admin })).json();
  expect(held.orders.map((listed: { order_id: string }) => listed.order_id)).not.toContain(orderId);

  // Another refund in the portal: held again, the settlement said where it came among the reports.
  const fourth = { ...event, operation_id: randomUUID(), amount: toWireAmount(order.amount / 2, order.currency), created_at: '2030-01-18T09:30:00.000' };
  expect(await (await request.post(`${stack.shop}/webhooks/gateway`, { form: { ...webhookForm(fourth, TEST_PROJECT_DEFAULTS.apiSecret) } })).json()).toMatchObject({ outcome: 'applied' });
  await expect(notice).toContainText('Held for review: do not fulfil');
  await expect(notice).toContainText(/Settled .+ \(“Refunded three times in the portal by mistake; the customer paid it back by bank transfer\.”\), then the gateway reported again:/);
  await expect(notice).toContainText(/Refunds at the gateway add up to UAH\s1,680\.00, more than was paid\./);
  await expect(notice.getByRole('button', { name: 'Mark settled…' })).toBeVisible();
});

test('the list says what each order came to: refunded, in part, voided, captured for less', async ({ page, request, stack, backOffice }) => {
  const operate = async (orderId: string, action: string, data: Record<string, unknown> = {}) => {
    const answer = await request.post(`${stack.shop}/api/orders/${orderId}/${action}`, { headers: { Authorization: `Bearer ${stack.token}` }, data });
    expect(answer.status()).toBe(200);
  };
  const refunded = await paidOrder(request, stack);
  await operate(refunded, 'refund');
  const partly = await paidOrder(request, stack);
  await operate(partly, 'refund', { amount: 550 });
  const voided = await paidOrder(request, stack, 'auth');
  await operate(voided, 'void');
  const capturedLess = await paidOrder(request, stack, 'auth');
  await operate(capturedLess, 'capture', { amount: 1050 });
  const kept = await paidOrder(request, stack);

  await backOffice.open();
  const shown = { [refunded]: ['Refunded', 'UAH 0.00 was UAH 15.00'], [partly]: ['Partly refunded', 'UAH 9.50 was UAH 15.00'], [voided]: ['Voided', 'UAH 0.00 was UAH 15.00'], [capturedLess]: ['Partly captured', 'UAH 10.50 was UAH 15.00'], [kept]: ['Success', 'UAH 15.00'] };
  for (const [orderId, [state, amount]] of Object.entries(shown)) {
    await expect(backOffice.listed(orderId).state).toHaveText(state!);
    await expect(backOffice.listed(orderId).amount).toHaveText(amount!);
  }
  // The order says the same when opened.
  await backOffice.select(refunded);
  await expect(backOffice.status).toHaveText('Refunded');
  await expectNoAxeViolations(page, 'the back office listing refunded and voided orders');
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expectNoAxeViolations(page, 'the back office listing refunded and voided orders, dark');

  // In Ukrainian, in its own words and money.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  const row = (orderId: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: orderId, exact: true }) }).getByRole('cell');
  await expect(row(refunded).nth(1)).toHaveText('Повернуто');
  await expect(row(refunded).nth(0)).toHaveText('0,00 грн було 15,00 грн');
  await expect(row(voided).nth(1)).toHaveText('Резерв скасовано');
  await expect(row(partly).nth(1)).toHaveText('Частково повернуто');
  // The open order's webhooks too: their kind and what they did, not the gateway's codes.
  const webhooks = page.locator('section[aria-labelledby="events-heading"]');
  await expect(webhooks.getByRole('rowheader').first()).toHaveText(/^(Покупка|Повернення)/);
  await expect(webhooks).toContainText('застосовано');

  // On a phone the list still fits: its table scrolls in its own box.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(row(partly).nth(0)).toHaveText('9,50 грн було 15,00 грн');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
});

test('any order by its id, and older orders a click away', async ({ page, request, stack, backOffice }) => {
  const paid: string[] = [];
  for (let order = 0; order < 51; order += 1) paid.push(await paidOrder(request, stack));
  await backOffice.open();
  // A page of fifty, newest first: the oldest of these is on the next.
  await expect(backOffice.row(paid[50]!)).toBeVisible();
  await expect(backOffice.row(paid[0]!)).toHaveCount(0);
  await backOffice.orders.getByRole('button', { name: 'Show older orders' }).click();
  await expect(backOffice.row(paid[0]!)).toBeVisible();
  await expect(backOffice.row(paid[50]!)).toBeVisible();

  // A customer on the phone reads out their order id.
  const find = page.getByRole('search').getByRole('searchbox', { name: 'Find an order' });
  await find.fill(' no-such-order ');
  await find.press('Enter');
  await expect(backOffice.detail.getByRole('alert')).toHaveText(/^\W*No order \W*no-such-order\W*\. Find opens an order by its id/u);
  // Then something else: the answer to the first question goes, from the address too.
  await find.fill('nobody-here@example.com');
  await find.press('Enter');
  await expect(backOffice.orders).toContainText('Orders matching nobody-here@example.com');
  await expect(backOffice.detail.getByRole('alert')).toHaveCount(0);
  expect(new URL(page.url()).searchParams.has('order')).toBe(false);
  await find.fill(paid[7]!);
  await page.getByRole('search').getByRole('button', { name: 'Open' }).click();
  await expect(backOffice.detailHeading).toHaveText(paid[7]!);
  await expect(backOffice.detailHeading).toBeFocused();
});

test('a webhook re-send is said on the order, once for a double click; an open refund follows one made elsewhere', async ({ page, request, stack, backOffice }) => {
  const orderId = await paidOrder(request, stack);
  await backOffice.open(orderId);
  const resends: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith('/resend-webhook')) resends.push(sent.url());
  });
  await backOffice.actionButton('Re-send webhook').click();
  await backOffice.dialog.getByRole('button', { name: 'Re-send', exact: true }).dblclick();
  await expect(backOffice.dialog).toBeHidden();
  await expect(backOffice.detail.locator('p.notice')).toHaveText(`Order ${orderId}: the gateway will send its webhook again.`);
  expect(resends).toHaveLength(1);

  // The refund dialog is open at UAH 15.00 when someone else refunds UAH 10.00 through the API.
  const refund = backOffice.actionButton('Refund');
  await refund.click();
  await expect(backOffice.dialog).toContainText('Up to UAH 15.00');
  const elsewhere = await request.post(`${stack.shop}/api/orders/${orderId}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 1000 } });
  expect(elsewhere.status()).toBe(200);
  await expect(backOffice.dialog).toContainText('Up to UAH 5.00');
  // The field shows what Enter sends: all that is left, followed as it changes while untouched.
  const amount = backOffice.dialog.getByLabel(/^Amount/);
  await expect(amount).toHaveValue('5.00');
  // Emptied, Enter sends nothing (to the API an absent amount is all that is left).
  const refunds: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().endsWith('/refund')) refunds.push(sent.url());
  });
  await amount.fill('');
  await amount.press('Enter');
  expect(await amount.evaluate((input: HTMLInputElement) => input.validationMessage.replace(/\s/g, ' '))).toBe('\u2068Write the amount: all that is left is \u2068UAH 5.00\u2069.\u2069');
  expect(refunds).toEqual([]);
  // Closed, focus is back on the button that opened it.
  await backOffice.dialog.getByRole('button', { name: 'Close' }).click();
  await expect(refund).toBeFocused();
});

test('on a phone 320 px wide: nothing scrolls sideways, each order stacks, and a picked order comes into view with focus', async ({ page, request, stack, checkout, backOffice }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await checkout.pay('4242 4242 4242 4242');
  await new Result(page).expectOutcome('success');
  // The list's widest rows: an amount with what was asked under it, a hold's long badge.
  const refunded = await paidOrder(request, stack);
  expect((await request.post(`${stack.shop}/api/orders/${refunded}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 500 } })).status()).toBe(200);
  const held = await paidOrder(request, stack, 'auth');
  // Balances in the tens of millions, whatever ran before: an amount too long to share a line.
  // Refunded in part, its order's heading says what was asked too.
  const millions = await paidOrder(request, stack, 'purchase', { amount: 9_876_543_210 });
  expect((await request.post(`${stack.shop}/api/orders/${millions}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 500 } })).status()).toBe(200);
  await page.setViewportSize({ width: 320, height: 740 });
  await backOffice.open();
  await expect(backOffice.listed(refunded).amount).toHaveText('UAH 10.00 was UAH 15.00');
  await expect(backOffice.listed(held).state).toHaveText('Awaiting capture');
  // The page is as wide as the screen (WCAG 1.4.10), and the orders need no sideways scroll in their box either.
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  expect(await pageWidth()).toBeLessThanOrEqual(320);
  const list = backOffice.orders.getByRole('region', { name: 'Orders: table' });
  expect(await list.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);
  const rightmost = (cells: Element[]) => Math.max(...cells.map((cell) => cell.getBoundingClientRect().right));
  expect(await backOffice.orders.locator('tbody th, tbody td').evaluateAll(rightmost)).toBeLessThanOrEqual(320);
  // The detail is far below the list on a phone: picking an order takes the reader there.
  await backOffice.row(orderId).getByRole('link', { name: orderId, exact: true }).press('Enter');
  await expect(backOffice.detailHeading).toHaveText(orderId);
  await expect(backOffice.detailHeading).toBeFocused();
  await expect(backOffice.detailHeading).toBeInViewport();
  // The order's webhooks stack as the orders do, nothing to scroll sideways; a dialog fits the screen.
  expect(await pageWidth()).toBeLessThanOrEqual(320);
  for (const box of await backOffice.detail.locator('.table-scroll').all()) expect(await box.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  // The order's heading and its amount in the millions, what was asked under it, stay inside the
  // panel, in English and in Ukrainian: how far the heading's boxes reach past it.
  await backOffice.row(millions).getByRole('link', { name: millions, exact: true }).click();
  await expect(backOffice.detailHeading).toHaveText(millions);
  const head = backOffice.detail.locator('.order-detail__head');
  const pastHeading = () =>
    head.evaluate((header) => {
      const { left, right } = header.getBoundingClientRect();
      return Math.max(0, ...[...header.querySelectorAll('*')].map((box) => Math.max(box.getBoundingClientRect().right - right, left - box.getBoundingClientRect().left)));
    });
  await expect(head).toContainText('UAH 98,765,427.10 was UAH 98,765,432.10');
  expect(await pastHeading(), 'in English').toBeLessThanOrEqual(0);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await expect(head).toContainText('98 765 427,10 грн було 98 765 432,10 грн');
  expect(await pastHeading(), 'in Ukrainian').toBeLessThanOrEqual(0);
  expect(await backOffice.detail.evaluate((panel) => panel.scrollWidth - panel.clientWidth)).toBeLessThanOrEqual(0);
  expect(await pageWidth()).toBeLessThanOrEqual(320);
  await page.getByRole('combobox', { name: 'Мова' }).selectOption('en');
  await backOffice.actionButton('Refund').click();
  expect(await backOffice.dialog.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)).toBeLessThanOrEqual(0);
  expect(await pageWidth()).toBeLessThanOrEqual(320);
});

test('on a laptop the orders fit their panel, long ids, millions and long names too, in English and Ukrainian, right to left, today and earlier; so do the order’s tables', async ({ page, request, stack, backOffice }) => {
  const operate = async (orderId: string, action: string, data: Record<string, unknown>) => {
    const answer = await request.post(`${stack.shop}/api/orders/${orderId}/${action}`, { headers: { Authorization: `Bearer ${stack.token}` }, data });
    expect(answer.status()).toBe(200);
  };
  // The widest rows there are: the longest ids a shop may give (28 characters), millions that came
  // to less than was asked, a payment awaiting capture, a customer with a long name and address.
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const id = (prefix: string) => `${prefix}-${tag}-${'0'.repeat(28)}`.slice(0, 28);
  const customer = { fname: 'Oleksandra-Mariia', lname: 'Kovalenko-Shevchenko', email: 'oleksandra.kovalenko-shevchenko@department.example.com.ua' };
  const refunded = await paidOrder(request, stack, 'purchase', { orderId: id('ORD-2030'), amount: 9_876_543_210, customer });
  await operate(refunded, 'refund', { amount: 500 });
  await paidOrder(request, stack, 'auth', { orderId: id('shop.order_auth'), amount: 7_654_321_098 });
  const captured = await paidOrder(request, stack, 'auth', { orderId: id('WEB_capture'), amount: 7_654_321_098 });
  await operate(captured, 'capture', { amount: 6_543_210_987, comment: 'Two of the three crates were in stock; the third is on its way' });
  // The companion's own id, 20 characters: on one line at 1280 px.
  const own = await paidOrder(request, stack);

  await page.setViewportSize({ width: 1280, height: 720 });
  await backOffice.open(captured);
  await expect(backOffice.listed(refunded).state).toHaveText('Partly refunded');
  await expect(backOffice.listed(refunded).amount).toHaveText('UAH 98,765,427.10 was UAH 98,765,432.10');
  const list = page.locator('.orders .table-scroll');
  const sideways = (box: Locator) => box.evaluate((element) => element.scrollWidth - element.clientWidth);
  const fits = async (where: string) => {
    // A table still, not the phone's stacked rows, and nothing to scroll sideways to: not in its box, not on the page.
    expect(await list.locator('table').evaluate((table) => getComputedStyle(table).display), where).toBe('table');
    expect(await sideways(list), `the orders, ${where}`).toBeLessThanOrEqual(0);
    for (const box of await backOffice.detail.locator('.table-scroll').all()) expect(await sideways(box), `the order's ${await box.getAttribute('aria-label')}, ${where}`).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), `the page, ${where}`).toBeLessThanOrEqual(0);
  };
  await expect(backOffice.operations).toContainText('UAH 65,432,109.87');
  await fits('1280 px');
  expect(await backOffice.row(own).getByRole('link').evaluate((link) => link.getClientRects().length)).toBe(1);
  // Whatever the lines they take, an id is one word to read and copy, and the customer's address is there in full.
  await backOffice.select(refunded);
  await expect(backOffice.detail).toContainText(customer.email);
  await fits('1280 px, an order with a long e-mail address');
  for (const width of [1024, 1152, 1440]) {
    await page.setViewportSize({ width, height: 720 });
    await fits(`${width} px`);
  }

  // In Ukrainian, right to left, and on a later day, when every row says its date too. (Beside
  // the order, from 1101 to 1250 px, the list in Ukrainian scrolled sideways by up to 93 px.)
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  const cells = (orderId: string) => page.locator('.orders').getByRole('row').filter({ has: page.getByRole('link', { name: orderId, exact: true }) }).getByRole('cell');
  await expect(cells(refunded).nth(1)).toHaveText('Частково повернуто');
  for (const width of [1152, 1280]) {
    await page.setViewportSize({ width, height: 720 });
    await fits(`${width} px in Ukrainian`);
  }
  await page.getByRole('button', { name: 'RTL' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await fits('1280 px in Ukrainian, right to left');
  // Amounts and times read as their languages write them, not reordered around the right-to-left
  // text ("грн 98 765 427,10", "PM 4:49").
  await expect(backOffice.values).not.toHaveCount(0);
  expect(await backOffice.misread(), 'in Ukrainian, right to left').toEqual([]);
  await page.getByRole('combobox', { name: 'Мова' }).selectOption('en');
  await expect(cells(refunded).nth(1)).toHaveText('Partly refunded');
  expect(await backOffice.misread(), 'in English, right to left').toEqual([]);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('uk');
  await page.clock.setFixedTime(new Date(Date.now() + 2 * 86_400_000));
  await page.reload();
  await expect(page.locator('.live--live')).toBeVisible();
  await expect(cells(own).nth(2)).toContainText(/\d{4}/);
  await page.locator('.orders').getByRole('link', { name: captured, exact: true }).click();
  await expect(backOffice.detailHeading).toHaveText(captured);
  expect(await backOffice.misread(), 'in Ukrainian, right to left, dated').toEqual([]);
  for (const width of [1152, 1250, 1280, 1440]) {
    await page.setViewportSize({ width, height: 720 });
    await fits(`${width} px in Ukrainian, dated`);
  }
});

test('right to left, an order’s id, the gateway’s words and the amounts inside sentences each read as written', async ({ page, request, stack, backOffice }) => {
  // An id that starts with its digits: not isolated, right to left, "1042-shop-…" read "shop-…-1042".
  const orderId = await paidOrder(request, stack, 'purchase', { orderId: `1042-shop-${randomUUID().slice(0, 8)}` });
  const refunded = await request.post(`${stack.shop}/api/orders/${orderId}/refund`, { headers: { Authorization: `Bearer ${stack.token}` }, data: { amount: 550 } });
  expect(refunded.status()).toBe(200);
  await backOffice.open(orderId);
  await page.getByRole('button', { name: 'RTL' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(backOffice.listed(orderId).amount).toHaveText('UAH 9.50 was UAH 15.00');

  // The id, in the list and as the open order's heading, reads as written.
  expect(await backOffice.misread(backOffice.row(orderId).getByRole('link').or(backOffice.detailHeading)), 'the order’s id, right to left').toEqual([]);
  expect(await backOffice.misread(), 'right to left').toEqual([]);
  // The catalogs' languages both run left to right: their sentences read as written around an
  // amount isolated or not (and "was UAH 15.00" is among the values above). A right-to-left
  // language's sentence needs the amount isolated in it ("was {amount}", "Up to {limit}"), and
  // the sentence isolated as a whole. So are the gateway's words, shown as received.
  await expect(backOffice.listed(orderId).amount.locator('.amount-asked > bdi > bdi')).toHaveText('UAH 15.00');
  await expect(backOffice.detail.locator('.order-detail__amount .amount-asked > bdi > bdi')).toHaveText('UAH 15.00');
  await expect(backOffice.detail.locator('.facts dd .muted > bdi')).not.toHaveText('');
  await expect(backOffice.operations.locator('.operation-details > bdi').first()).not.toHaveText('');
  await backOffice.actionButton('Refund').click();
  await expect(backOffice.dialog.locator('#operation-title bdi')).toHaveText(orderId);
  await expect(backOffice.dialog.locator('p.muted > bdi > bdi')).toHaveText('UAH 9.50');
  await expect(backOffice.dialog.locator('.field__hint > bdi > bdi')).toHaveText('UAH 9.50');
  expect(await backOffice.misread(backOffice.dialog.locator('p.muted, .field__hint')), 'the refund’s limit, right to left').toEqual([]);
});

test.describe('in a Ukrainian browser', () => {
  test.use({ locale: 'uk-UA' });

  test('the back office speaks Ukrainian until another language is chosen', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Вхід до бек-офісу' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'uk');
    // Another preference changed saves no language: the browser's is no choice, and is followed still.
    await page.getByRole('button', { name: 'Темна тема' }).click();
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('payform:back-office:preferences') ?? '{}'));
    expect(saved).toMatchObject({ theme: 'dark' });
    expect(saved).not.toHaveProperty('lang');
  });
});
