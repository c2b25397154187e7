/**
 * The back office: orders, one order's detail with its actions, operations and webhooks, and the
 * operation dialog. Signed in through the address's fragment, as the link `npm start` prints.
 * And `paidOrder`: an order paid through the companion's API, for the back office to show.
 */
import { expect } from '@playwright/test';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { sealedCardToken } from '../../widget/card/tokenize.js';

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

  /** Opens the action's dialog, fills it (no amount given: the one it starts at, all that is left) and confirms. */
  async perform(action: Action, fill: { amount?: string; shares?: Record<string, string>; comment?: string; receipt?: string } = {}): Promise<void> {
    await this.actionButton(action).click();
    await expect(this.dialog).toBeVisible();
    if (fill.amount !== undefined) await this.dialog.getByLabel(/^Amount/).fill(fill.amount);
    for (const [seller, amount] of Object.entries(fill.shares ?? {})) await this.dialog.getByLabel(seller, { exact: true }).fill(amount);
    if (fill.comment) await this.dialog.getByLabel(/^Comment/).fill(fill.comment);
    if (fill.receipt) await this.dialog.getByLabel('Refund receipt to the customer').selectOption({ label: fill.receipt });
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

  /**
   * What shows a value written as one run — an amount, a time, an order's id — alone: the list's
   * ids, amounts and times, the open order's id, amount and totals, its operations' amounts and
   * times, its webhooks' times.
   */
  get values(): Locator {
    return this.page.locator(
      [
        '.orders-table tbody th a, #detail-heading',
        '.orders-table tbody td:is(:nth-of-type(1), :nth-of-type(3))',
        '.order-detail__amount strong, .totals dd',
        '.operations-table tbody td:is(:nth-of-type(1), :nth-of-type(4))',
        '.events-table tbody td:nth-of-type(1)',
      ].join(', '),
    );
  }

  /**
   * The texts of `values` that do not read left to right, as the page's languages write them:
   * on a line, each character right of the one before. In the right-to-left preview a time alone
   * in its cell read "PM 4:49", an id "shop-1042" for "1042-shop", the bidi algorithm reordering
   * their parts.
   */
  misread(values: Locator = this.values): Promise<string[]> {
    return values.evaluateAll((elements) =>
      elements.flatMap((element) => {
        const glyphs: DOMRect[] = [];
        const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = texts.nextNode(); node; node = texts.nextNode()) {
          for (let i = 0; i < node.textContent!.length; i += 1) {
            if (/\s/u.test(node.textContent![i]!)) continue;
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const glyph = range.getBoundingClientRect();
            if (glyph.width > 0) glyphs.push(glyph);
          }
        }
        const backwards = glyphs.some((glyph, i) => {
          const before = glyphs[i - 1];
          const sameLine = before !== undefined && glyph.top < before.bottom - 2 && before.top < glyph.bottom - 2;
          return sameLine && glyph.left < before.left - 0.5;
        });
        return backwards ? [element.textContent!.replace(/\s+/gu, ' ').trim()] : [];
      }),
    );
  }

  /** What the back office announced last (operations done, declined, re-sent). */
  get announcement(): Locator {
    return this.page.locator('main > [role=status][aria-live=polite]');
  }
}

let customers = 0;

/** What a paid order may be made of besides its method: the shop's own id, the amount (minor units), the customer. */
export interface PaidOrderOptions {
  readonly orderId?: string;
  readonly amount?: number;
  /** UAH unless said. */
  readonly currency?: string;
  readonly customer?: { readonly fname: string; readonly lname: string; readonly email: string };
  /** 'Tea' unless said. */
  readonly description?: string;
}

/** A paid order made through the companion's API, as a shop's server and the widget would: its order id. */
export async function paidOrder(request: APIRequestContext, stack: { readonly shop: string; readonly token: string }, method: 'purchase' | 'auth' = 'purchase', options: PaidOrderOptions = {}): Promise<string> {
  const { answer, orderId } = await payThroughApi(request, stack, method, options, '4242424242424242');
  expect(answer).toMatchObject({ status: 'success', order_id: orderId });
  return orderId;
}

/** An order whose payment waits for the customer's 3-D Secure challenge, not answered yet: its order id and the gateway's payment id. */
export async function challengedOrder(request: APIRequestContext, stack: { readonly shop: string; readonly token: string }, options: PaidOrderOptions = {}): Promise<{ orderId: string; paymentId: string }> {
  const { answer, orderId } = await payThroughApi(request, stack, 'purchase', options, '4000000000003220');
  expect(answer).toMatchObject({ status: 'redirect', order_id: orderId, payment_id: expect.any(String) });
  return { orderId, paymentId: (answer as { payment_id: string }).payment_id };
}

/** A session opened and paid with `cardNumber` through the companion's API: the pay answer. */
async function payThroughApi(
  request: APIRequestContext,
  stack: { readonly shop: string; readonly token: string },
  method: 'purchase' | 'auth',
  { orderId, amount = 1500, currency = 'UAH', customer = { fname: 'Olena', lname: 'Kovalenko', email: 'olena@example.com' }, description = 'Tea' }: PaidOrderOptions,
  cardNumber: string,
): Promise<{ answer: unknown; orderId: string }> {
  const opened = await request.post(`${stack.shop}/api/checkout/sessions`, {
    headers: { Authorization: `Bearer ${stack.token}` },
    data: { amount, currency, description, method, ...(orderId ? { order_id: orderId } : {}) },
  });
  const session = await opened.json();
  // The demo's companion takes no card data: the card goes to the tokenizer the session names, as the widget sends it.
  const { tokenizer } = await (await request.get(`${stack.shop}/api/checkout/sessions/${session.id}`)).json();
  const token = await sealedCardToken({ url: tokenizer.url, widgetKey: tokenizer.widget_key }, { number: cardNumber, expMonth: 12, expYear: new Date().getFullYear() + 3, cvv: '123' });
  const paid = await request.post(`${stack.shop}/api/checkout/sessions/${session.id}/pay`, {
    // Each its own customer (the stacks trust X-Forwarded-For): one address paying fifty times is card testing.
    headers: { 'X-Forwarded-For': `192.0.2.${(customers += 1) % 250}` },
    data: {
      card: { token },
      customer: { ...customer, phone: '+380501234567' },
      fingerprint: {
        browserColorDepth: '24', browserScreenHeight: '900', browserScreenWidth: '1280', browserJavaEnabled: 'false',
        browserLanguage: 'en-GB', browserTimeZone: 'Europe/Kyiv', browserTimeZoneOffset: '-120',
      },
    },
  });
  return { answer: await paid.json(), orderId: session.order_id };
}

/** 123456 → /UAH\s1,234\.56/: an English page's amount, written out here, not by the function the page renders with. */
export const englishUah = (minor: number): RegExp =>
  new RegExp(`^${minor < 0 ? '-' : ''}UAH\\s${Math.floor(Math.abs(minor) / 100).toLocaleString('en-GB')}\\.${String(Math.abs(minor) % 100).padStart(2, '0')}$`);
