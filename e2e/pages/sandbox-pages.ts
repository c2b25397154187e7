/** The sandbox gateway's own pages: the 3-D Secure challenge and the hosted checkout (plain HTML forms). */
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

export class SandboxPages {
  constructor(readonly page: Page) {}

  async completeChallenge(): Promise<void> {
    await expect(this.page).toHaveURL(/\/3ds\//);
    await this.page.getByRole('button', { name: 'Complete authentication' }).click();
  }

  async failChallenge(): Promise<void> {
    await expect(this.page).toHaveURL(/\/3ds\//);
    await this.page.getByRole('button', { name: 'Fail authentication' }).click();
  }

  async payOnHostedPage(number: string, cvv = '123'): Promise<void> {
    await expect(this.page).toHaveURL(/\/checkout\/[^/]+\/form/);
    await this.page.getByLabel('Card number').fill(number);
    await this.page.getByLabel('Month').fill('12');
    await this.page.getByLabel('Year').fill(String(new Date().getFullYear() + 3));
    await this.page.getByLabel('Security code').fill(cvv);
    // A payment's page says "Pay …", a card verification's "Verify card".
    await this.page.getByRole('button', { name: /^(Pay |Verify card$)/ }).click();
  }
}
