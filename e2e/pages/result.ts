/** The result page the customer lands on after paying, 3-D Secure or the gateway's page. */
import { expect } from '@playwright/test';
import type { APIRequestContext, Locator, Page } from '@playwright/test';

export const HEADINGS = {
  success: 'Thank you — your payment went through',
  failure: 'The payment did not go through',
  pending: 'Confirming your payment…',
  open: 'Your order is not paid yet',
} as const;

export class Result {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
  }

  async expectOutcome(outcome: keyof typeof HEADINGS): Promise<void> {
    await expect(this.page).toHaveURL(/\/result\?/);
    await expect(this.heading).toHaveText(HEADINGS[outcome]);
  }

  /** The order the page shows (the retry's id after a failed first attempt). */
  async orderId(): Promise<string> {
    // The facts list starts with the order: its first definition.
    return (await this.page.getByRole('definition').first().textContent())!.trim();
  }
}

/**
 * A session of UAH 420.00 on its result page, the 3-D Secure test card typed in its form, ready to
 * pay: the form.
 */
export async function challengedCard(page: Page, request: APIRequestContext, stack: { readonly shop: string; readonly token: string }): Promise<Locator> {
  const opened = await request.post(`${stack.shop}/api/checkout/sessions`, {
    headers: { Authorization: `Bearer ${stack.token}` },
    data: { amount: 42000, currency: 'UAH', description: 'Order 1042', customer: { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com', phone: '+380671234567' } },
  });
  const { id } = (await opened.json()) as { id: string };
  await page.goto(`/result?checkout_session=${encodeURIComponent(id)}`);
  const form = page.locator('pay-form');
  await form.getByLabel('Card number').fill('4000 0000 0000 3220');
  await form.getByLabel('Expiry date').fill(`12/${String(new Date().getFullYear() + 3).slice(2)}`);
  await form.getByLabel('Security code').fill('123');
  return form;
}

/**
 * That card paid, the bank's page not loaded (answered 204, which leaves the page as the customer
 * left it, as a return into the back/forward cache finds it; Chromium's headless shell keeps no
 * page there): the challenge's address.
 */
export async function leftForTheBank(page: Page, request: APIRequestContext, stack: { readonly shop: string; readonly token: string }): Promise<string> {
  const form = await challengedCard(page, request, stack);
  await page.route(/\/3ds\//, (route) => route.fulfill({ status: 204 }));
  const challenge = page.waitForRequest(/\/3ds\//);
  await form.getByRole('button', { name: /^Pay / }).click();
  return (await challenge).url();
}
