/**
 * The journeys' fixtures. Each worker has its own stack (serve-stacks.ts); before every test
 * its sandbox is reset — no orders, tokens, webhook log or faults left from the test before —
 * and the test gets a fresh browser context (empty cart, no cookies: a new customer) with its
 * own client address. Page objects for the shop, the checkout, the sandbox's pages and the
 * back office come ready to use.
 */
import { test as base, expect } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { TEST_PROJECT_DEFAULTS } from '../server/gateway/test-project.js';
import { everyDelivery } from '../server/sandbox/testing/webhook-pages.js';
import type { WebhooksPage } from '../server/sandbox/testing/webhook-pages.js';
import { BackOffice } from './pages/back-office.js';
import { Checkout } from './pages/checkout.js';
import { SandboxPages } from './pages/sandbox-pages.js';
import { Shop } from './pages/shop.js';

export interface Stack {
  /** The shop and the companion, e.g. http://127.0.0.1:40123 (no trailing slash). */
  readonly shop: string;
  readonly sandbox: string;
  readonly token: string;
}

/** The sandbox's control plane (docs/sandbox.md). */
export class SandboxControl {
  constructor(
    private readonly request: APIRequestContext,
    readonly url: string,
  ) {}

  async reset(): Promise<void> {
    expect((await this.request.post(`${this.url}/_sandbox/reset`, { data: {} })).ok()).toBe(true);
  }

  async faults(faults: Record<string, unknown>): Promise<void> {
    expect((await this.request.put(`${this.url}/_sandbox/faults`, { data: faults })).ok()).toBe(true);
  }

  async clearFaults(): Promise<void> {
    expect((await this.request.delete(`${this.url}/_sandbox/faults`)).ok()).toBe(true);
  }

  /** Every webhook delivery the sandbox made, optionally of one order. */
  async webhooks(orderId?: string): Promise<Delivery[]> {
    return everyDelivery(async (path) => {
      const response = await this.request.get(this.url + path);
      expect(response.ok()).toBe(true);
      return (await response.json()) as WebhooksPage<Delivery>;
    }, orderId ? `order_id=${encodeURIComponent(orderId)}` : '');
  }

  /** A full refund made at the gateway behind the companion's back, as in the gateway's own portal. */
  async refundBehind(orderId: string, currency: string): Promise<void> {
    const response = await this.request.post(`${this.url}/api/v1/refund`, { headers: GATEWAY_HEADERS, data: { pos_id: POS_ID, order_id: orderId, order_currency: currency } });
    expect(response.ok()).toBe(true);
  }

  /** The order as the gateway knows it (its state read with the test project's credentials). */
  async order(orderId: string): Promise<GatewayTransaction[]> {
    const response = await this.request.get(`${this.url}/api/v1/pos/${POS_ID}/orders/${encodeURIComponent(orderId)}`, { headers: GATEWAY_HEADERS });
    if (response.status() === 404) return [];
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as GatewayTransaction[] | { transactions?: GatewayTransaction[] };
    return Array.isArray(body) ? body : (body.transactions ?? []);
  }
}

export interface Delivery {
  readonly id: string;
  readonly order_id: string;
  readonly method: string;
  readonly event_status: string;
  readonly duplicate_of?: string;
  readonly status: string;
  readonly created_at: string;
  readonly attempts: { readonly at: string; readonly http_status?: number }[];
  readonly event: { readonly operation_id?: string; readonly status?: string; readonly method?: string };
}

export interface GatewayTransaction {
  readonly method: string;
  readonly status: string;
  readonly amount: number;
  readonly order_id: string;
  readonly operation_id?: string;
}

// The sandbox's default test project, as a merchant's server would send them.
const POS_ID = TEST_PROJECT_DEFAULTS.posId;
const GATEWAY_HEADERS = {
  'X-API-AUTH': `CPAY ${TEST_PROJECT_DEFAULTS.apiKey}:${TEST_PROJECT_DEFAULTS.apiSecret}`,
  'X-API-KEY': TEST_PROJECT_DEFAULTS.endpointsKey,
};

function stacks(): Stack[] {
  const encoded = process.env.PAYFORM_E2E_STACKS;
  if (!encoded) throw new Error('PAYFORM_E2E_STACKS is not set: run the journeys with `npm run test:e2e` (playwright.config.ts starts the stacks)');
  return JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Stack[];
}

let clients = 0;

export const test = base.extend<
  { sandbox: SandboxControl; shop: Shop; checkout: Checkout; sandboxPages: SandboxPages; backOffice: BackOffice },
  { stack: Stack }
>({
  stack: [
    // Playwright reads the fixtures a fixture needs from its first parameter's pattern: this one needs none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const all = stacks();
      const stack = all[workerInfo.parallelIndex % all.length];
      if (!stack) throw new Error('no e2e stack for this worker');
      await use(stack);
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ stack }, use) => use(stack.shop),
  // A client address of its own per test (the stacks trust X-Forwarded-For), so pay rate limits never carry over.
  // eslint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, use, testInfo) => {
    clients += 1;
    await use({ 'X-Forwarded-For': `198.51.${100 + testInfo.parallelIndex}.${clients % 250}` });
  },
  sandbox: [
    async ({ stack, playwright }, use) => {
      // A connection per call: the sandbox closes idle ones after Node's 5 s, and a call made just
      // then on a kept-alive connection would find it hung up (seen in CI between a test's first and last call).
      const request = await playwright.request.newContext({ extraHTTPHeaders: { Connection: 'close' } });
      const control = new SandboxControl(request, stack.sandbox);
      await control.reset();
      await use(control);
      await request.dispose();
    },
    { auto: true },
  ],
  shop: async ({ page }, use) => use(new Shop(page)),
  checkout: async ({ page }, use) => use(new Checkout(page)),
  sandboxPages: async ({ page }, use) => use(new SandboxPages(page)),
  backOffice: async ({ page, stack }, use) => use(new BackOffice(page, stack.token)),
});

export { expect };
