/**
 * A bad day at the gateway, made with the sandbox's fault controls: whatever happens, the
 * customer reads a clear message and is never charged twice — the gateway ends up with at most
 * one successful payment for the checkout, and the card form never sends a second one while
 * the first is undecided.
 */
import { expect, test } from '../fixtures.js';
import type { SandboxControl } from '../fixtures.js';
import { Result } from '../pages/result.js';

const CREATE = { method: 'POST', path: '/api/v1/payment' };

/** Every payment the gateway holds for the checkout's attempts (`<order>`, `<order>:2` …). */
async function gatewayPayments(sandbox: SandboxControl, orderId: string, attempts = 3) {
  const ids = [orderId, ...Array.from({ length: attempts - 1 }, (_, i) => `${orderId}:${i + 2}`)];
  return (await Promise.all(ids.map((id) => sandbox.order(id)))).flat().filter((entry) => entry.method === 'purchase');
}

test('the answer is lost after the gateway charged: the customer sees the payment succeed, charged once', async ({ page, checkout, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await sandbox.faults({ drop_connection: true, phase: 'after', scope: CREATE, times: 1 });
  await checkout.pay('4242 4242 4242 4242');

  await new Result(page).expectOutcome('success');
  expect(await gatewayPayments(sandbox, orderId)).toEqual([expect.objectContaining({ order_id: orderId, status: 'success' })]);
});

test('a gateway slower than the timeout: processing, then confirming, then paid once by the webhook', async ({ page, checkout, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await sandbox.faults({ latency_ms: 8_000, scope: CREATE, times: 1 });
  await checkout.pay('4242 4242 4242 4242');

  await expect(checkout.message).toHaveText('Processing payment…');
  // While the payment is in flight the button is disabled: no second click, no second payment.
  await expect(checkout.card.getByRole('button', { name: 'Processing payment…' })).toBeDisabled();
  // The companion gives up waiting (5 s in these stacks) and the widget keeps checking.
  await expect(checkout.message).toHaveText('Confirming your payment…', { timeout: 15_000 });
  await expect(checkout.payButton).toHaveCount(0);

  await new Result(page).expectOutcome('success');
  expect(await gatewayPayments(sandbox, orderId)).toEqual([expect.objectContaining({ order_id: orderId, status: 'success' })]);
});

test('the gateway refuses for a moment: a clear message, and the retry is charged once', async ({ page, checkout, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await sandbox.faults({ error_rate: 1, error_status: 429, scope: CREATE, times: 1 });
  await checkout.pay('4242 4242 4242 4242');

  await expect(checkout.message).toHaveText('Something went wrong. Please try again in a moment.');
  await expect(checkout.payButton).toBeEnabled();
  expect(await gatewayPayments(sandbox, orderId)).toEqual([]);

  await checkout.payButton.click();
  const result = new Result(page);
  await result.expectOutcome('success');
  expect(await result.orderId()).toBe(`${orderId}:2`);
  expect(await gatewayPayments(sandbox, orderId)).toEqual([expect.objectContaining({ order_id: `${orderId}:2`, status: 'success' })]);
});

test('the gateway is down: the customer is told the payment is being confirmed and cannot pay twice', async ({ page, checkout, sandbox }) => {
  await checkout.open();
  const orderId = await checkout.continueToPayment();
  await sandbox.faults({ error_rate: 1, error_status: 503 });
  await checkout.pay('4242 4242 4242 4242');

  await expect(checkout.message).toHaveText('Confirming your payment…', { timeout: 20_000 });
  await expect(checkout.payButton).toHaveCount(0);
  await expect(checkout.cardNumber).toHaveCount(0);

  // Whatever the page does, the companion holds the attempt open: a second pay request gets the first one back.
  const session = await page.locator('pay-form').getAttribute('session');
  const again = await page.request.post(`/api/checkout/sessions/${session}/pay`, {
    data: {
      card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvv: '123' },
      fingerprint: {
        browserColorDepth: '24', browserScreenHeight: '900', browserScreenWidth: '1280', browserJavaEnabled: 'false',
        browserLanguage: 'en-GB', browserTimeZone: 'Europe/Kyiv', browserTimeZoneOffset: '-120',
      },
    },
  });
  expect(await again.json()).toMatchObject({ status: 'pending', order_id: orderId });

  await sandbox.clearFaults();
  expect(await gatewayPayments(sandbox, orderId)).toEqual([]);
});
