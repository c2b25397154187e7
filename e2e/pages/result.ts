/** The result page the customer lands on after paying, 3-D Secure or the gateway's page. */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

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
