/**
 * The checkout page: the shop's details form and options, then `<pay-form>` (card) and
 * `<pay-button>` (the gateway's page). Label and role locators reach into the widget's open
 * shadow root.
 */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

export interface CartLine {
  readonly product: string;
  readonly quantity: number;
}

export interface CheckoutOptions {
  /** `lookup`: "Save my card only", a card verification. */
  readonly method?: 'purchase' | 'auth' | 'lookup';
  readonly split?: boolean;
  readonly remember?: boolean;
}

/** Catalog ids (demo/catalog.ts) of a few products and their prices in UAH, for carts the tests set up. */
export const ESPRESSO = { product: 'house-espresso', name: 'House espresso blend', price: '420.00' } as const;
export const CUP = { product: 'kosiv-cup', name: 'Kosiv hand-painted cup', price: '650.00' } as const;
export const KETTLE = { product: 'gooseneck-kettle', name: 'Gooseneck kettle', price: '2,149.00' } as const;

export const FUTURE_EXPIRY = `12/${String(new Date().getFullYear() + 3).slice(2)}`;

export class Checkout {
  readonly details: Locator;
  readonly payment: Locator;
  readonly card: Locator;
  readonly hosted: Locator;

  constructor(readonly page: Page) {
    this.details = page.getByRole('region', { name: 'Your details' }).or(page.getByRole('form', { name: 'Your details' }));
    this.payment = page.getByRole('region', { name: 'Payment', exact: true });
    this.card = page.getByRole('region', { name: 'Pay by card' });
    this.hosted = page.getByRole('region', { name: 'Pay on the gateway’s secure page' });
  }

  /** Puts `lines` in this browser's cart and opens the checkout (the shop's own page is another journey). */
  async open(lines: readonly CartLine[] = [{ product: ESPRESSO.product, quantity: 1 }]): Promise<void> {
    // The cart goes into the shop origin's storage from its smallest document, the icon: the
    // shop's own page would be drawn for nothing (a quarter of a second of Chromium's CPU).
    await this.page.goto('/favicon.svg');
    await this.page.evaluate((cart) => localStorage.setItem('kavarnia:cart', JSON.stringify(cart)), lines);
    await this.page.goto('/checkout');
    await expect(this.page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  }

  async choose(options: CheckoutOptions): Promise<void> {
    if (options.method === 'auth') await this.page.getByRole('radio', { name: /Reserve now/ }).check();
    if (options.method === 'purchase') await this.page.getByRole('radio', { name: /Charge now/ }).check();
    if (options.method === 'lookup') await this.page.getByRole('radio', { name: /Save my card only/ }).check();
    if (options.split !== undefined) await this.page.getByRole('checkbox', { name: /Split between the makers/ }).setChecked(options.split);
    if (options.remember !== undefined) await this.page.getByRole('checkbox', { name: /Remember my card/ }).setChecked(options.remember);
  }

  /** Sends the details; the card form of a new checkout session appears. Answers the order id it shows. */
  async continueToPayment(): Promise<string> {
    await this.page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(this.cardNumber.or(this.card.getByRole('radio').first())).toBeVisible();
    return this.orderId();
  }

  async orderId(): Promise<string> {
    const text = await this.payment.getByText(/^Order \S+\./).textContent();
    return /^Order (\S+)\./.exec(text ?? '')![1]!;
  }

  get cardNumber(): Locator {
    return this.card.getByLabel('Card number');
  }

  get payButton(): Locator {
    return this.card.getByRole('button', { name: /^Pay / });
  }

  /** The widget's polite live region: processing, declines, errors, success (each field's error is one of its own). */
  get message(): Locator {
    return this.card.getByRole('status').and(this.card.locator('[part="message"]'));
  }

  async fillCard(number: string, expiry = FUTURE_EXPIRY, cvv = number.startsWith('37') ? '1234' : '123'): Promise<void> {
    await this.cardNumber.fill(number);
    await this.card.getByLabel('Expiry date').fill(expiry);
    await this.card.getByLabel('Security code').fill(cvv);
  }

  async pay(number: string, expiry?: string, cvv?: string): Promise<void> {
    await this.fillCard(number, expiry, cvv);
    await this.payButton.click();
  }

  get hostedButton(): Locator {
    return this.hosted.getByRole('button', { name: /^Pay / });
  }
}
