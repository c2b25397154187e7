/**
 * The back office: orders, one order's detail with its actions, operations and webhooks, and the
 * operation dialog. Signed in through the address's fragment, as the link `npm start` prints.
 */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

export type Action = 'Capture' | 'Split capture' | 'Void' | 'Refund' | 'Split refund' | 'Cancel payment';

export class BackOffice {
  readonly orders: Locator;
  readonly detail: Locator;
  readonly dialog: Locator;

  /** `path`: where the back office is (the demo's `/admin`; a companion mounted under `/payments`: `/payments/admin`). */
  constructor(
    readonly page: Page,
    private readonly token: string,
    private readonly path = '/admin',
  ) {
    this.orders = page.getByRole('region', { name: 'Orders', exact: true });
    this.detail = page.locator('section.order-detail');
    this.dialog = page.getByRole('dialog');
  }

  /** Opens the back office (on one order when given) and waits for the live feed. */
  async open(orderId?: string): Promise<void> {
    await this.page.goto(`${this.path}${orderId ? `?${new URLSearchParams({ order: orderId })}` : ''}#token=${this.token}`);
    await expect(this.page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
    if (orderId) await expect(this.detailHeading).toHaveText(orderId);
  }

  get detailHeading(): Locator {
    return this.detail.getByRole('heading', { level: 2 });
  }

  row(orderId: string): Locator {
    return this.orders.getByRole('row').filter({ has: this.page.getByRole('link', { name: orderId, exact: true }) });
  }

  /**
   * What the list says of an order: its amount cell (what it came to, then what was asked when
   * that differs) and its state (a badge: Success, Refunded, Voided…).
   */
  listed(orderId: string): { readonly amount: Locator; readonly state: Locator } {
    const cells = this.row(orderId).getByRole('cell');
    return { amount: cells.nth(0), state: cells.nth(1) };
  }

  async select(orderId: string): Promise<void> {
    await this.row(orderId).getByRole('link', { name: orderId, exact: true }).click();
    await expect(this.detailHeading).toHaveText(orderId);
  }

  /** The order's state as the detail shows it (the badge beside the amount). */
  get status(): Locator {
    return this.detail.locator('.order-detail__amount .badge:not(.badge--held)');
  }

  actionButton(action: Action | 'Re-send webhook' | 'Receipt (HTML)' | 'Receipt (PDF)'): Locator {
    return this.detail.getByRole('group', { name: 'Actions' }).getByRole('button', { name: action, exact: true });
  }

  /** Opens the action's dialog, fills it (empty amount: all that is left) and confirms. */
  async perform(action: Action, fill: { amount?: string; shares?: Record<string, string>; comment?: string } = {}): Promise<void> {
    await this.actionButton(action).click();
    await expect(this.dialog).toBeVisible();
    if (fill.amount !== undefined) await this.dialog.getByLabel(/^Amount/).fill(fill.amount);
    for (const [seller, amount] of Object.entries(fill.shares ?? {})) await this.dialog.getByLabel(seller, { exact: true }).fill(amount);
    if (fill.comment) await this.dialog.getByLabel(/^Comment/).fill(fill.comment);
    await this.dialog.getByRole('button', { name: action, exact: true }).click();
  }

  /** Performs and waits for the dialog to close (the operation was answered). */
  async performed(action: Action, fill?: Parameters<BackOffice['perform']>[1]): Promise<void> {
    await this.perform(action, fill);
    await expect(this.dialog).toBeHidden();
  }

  /** Rows of the order's operations table (header row excluded). */
  get operations(): Locator {
    return this.detail.getByRole('region', { name: 'Operations', exact: true }).getByRole('row').filter({ has: this.page.getByRole('rowheader') });
  }

  get events(): Locator {
    return this.detail.getByRole('region', { name: 'Webhook events', exact: true }).getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  /** What the back office announced last (operations done, declined, re-sent). */
  get announcement(): Locator {
    return this.page.locator('main > [role=status][aria-live=polite]');
  }
}
