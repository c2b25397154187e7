/**
 * The gateway's webhooks arrive twice over and out of order (the sandbox's fault controls):
 * the back office still shows each event and each operation once, and no state moves back —
 * a late "pending" after "success" changes nothing.
 */
import { expect, test } from '../fixtures.js';
import type { Delivery, SandboxControl } from '../fixtures.js';
import { CUP } from '../pages/checkout.js';
import { Result } from '../pages/result.js';

/** Waits until the sandbox has delivered every webhook of the order (each answered 2xx), `count` of them at least. */
async function allDelivered(sandbox: SandboxControl, orderId: string, count: number): Promise<Delivery[]> {
  let deliveries: Delivery[] = [];
  await expect
    .poll(async () => {
      deliveries = await sandbox.webhooks(orderId);
      return deliveries.length >= count && deliveries.every((delivery) => delivery.attempts.some((attempt) => (attempt.http_status ?? 0) < 300 && (attempt.http_status ?? 0) >= 200));
    }, { timeout: 20_000 })
    .toBe(true);
  return deliveries;
}

test('duplicated and reordered webhooks: each operation once, no state regressed', async ({ page, checkout, sandboxPages, sandbox, backOffice }) => {
  await sandbox.faults({ webhook_duplicates: 2, webhook_reorder: true });

  // Hosted with the 3-D Secure card: the payment goes pending, then success — two webhooks, sent in reverse.
  await checkout.open([{ product: CUP.product, quantity: 1 }]);
  const orderId = await checkout.continueToPayment();
  await checkout.hostedButton.click();
  await sandboxPages.payOnHostedPage('4000 0000 0000 3220');
  await sandboxPages.completeChallenge();
  await new Result(page).expectOutcome('success');

  const payments = await allDelivered(sandbox, orderId, 6);
  const originals = payments.filter((delivery) => !delivery.duplicate_of);
  expect(originals.map((delivery) => delivery.event_status).sort()).toEqual(['pending', 'success']);
  expect(payments.filter((delivery) => delivery.duplicate_of)).toHaveLength(4);
  // Reordered: the companion heard "success" before "pending".
  const firstTried = (status: string) => originals.find((delivery) => delivery.event_status === status)!.attempts[0]!.at;
  expect(firstTried('success') < firstTried('pending')).toBe(true);

  await backOffice.open(orderId);
  await expect(backOffice.status).toHaveText('Success');
  await expect(backOffice.events).toHaveCount(2);
  await expect(backOffice.events.filter({ hasText: 'Pending' })).toContainText('stale');
  await expect(backOffice.events.filter({ hasText: 'Success' })).toContainText('applied');

  await backOffice.performed('Refund', { amount: '100' });
  await backOffice.performed('Refund', { amount: '50' });
  await allDelivered(sandbox, orderId, 12);
  await page.reload();
  await expect(backOffice.detailHeading).toHaveText(orderId);

  await expect(backOffice.operations).toHaveCount(2);
  await expect(backOffice.operations.filter({ hasText: 'UAH 100.00' })).toHaveCount(1);
  await expect(backOffice.operations.filter({ hasText: 'UAH 50.00' })).toHaveCount(1);
  await expect(backOffice.events).toHaveCount(4);
  await expect(backOffice.status).toHaveText('Partly refunded');
  await expect(backOffice.detail.getByText('Refunded', { exact: true }).locator('..')).toContainText('UAH 150.00');
  await expect(backOffice.listed(orderId).state).toHaveText('Partly refunded');

  // A re-send asked from the back office comes (three times over) and is recognised: still four events.
  await backOffice.actionButton('Re-send webhook').click();
  await backOffice.dialog.getByRole('button', { name: 'Re-send', exact: true }).click();
  await expect(backOffice.detail.locator('p.notice')).toHaveText(`Order ${orderId}: the gateway will send its webhook again.`);
  await allDelivered(sandbox, orderId, 15);
  await page.reload();
  await expect(backOffice.detailHeading).toHaveText(orderId);
  await expect(backOffice.events).toHaveCount(4);
  await expect(backOffice.operations).toHaveCount(2);
});
