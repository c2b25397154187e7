/** The shop's front page: products and the cart beside them. */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

export class Shop {
  readonly cart: Locator;

  constructor(readonly page: Page) {
    this.cart = page.getByRole('region', { name: 'Your cart' });
  }

  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.page.getByRole('heading', { level: 1 })).toBeVisible();
  }

  addButton(product: string): Locator {
    return this.page.getByRole('button', { name: `Add to cart: ${product}` });
  }

  async add(product: string, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) await this.addButton(product).click();
  }

  async goToCheckout(): Promise<void> {
    await this.cart.getByRole('link', { name: 'Go to checkout' }).click();
    await expect(this.page).toHaveURL(/\/checkout$/);
  }
}
