/**
 * Helpers for the sandbox's in-process tests: a fresh sandbox with a frozen clock per test,
 * requests with the test project's credentials through `app.request()`, and valid wire requests
 * to change one field of.
 */
import { fingerprint } from '../../gateway/test/samples.js';
import { TEST_SUB_MERCHANTS } from '@payform/gateway/testing';
import type { TestCard } from '@payform/gateway/testing';
import { statusCodeInfo, authHeaderValue } from '@payform/gateway/wire';
import type { StatusCode } from '@payform/gateway/wire';
import { createSandbox } from '../app.js';
import type { SandboxApp } from '../app.js';
import type { Project, SandboxConfig } from '../config.js';

export const START = new Date('2026-03-02T10:00:00.000Z');


export const [SUB_A, SUB_B, SUB_C] = TEST_SUB_MERCHANTS.map((merchant) => merchant.id) as [string, string, string];

/** Catches the webhooks an in-process sandbox sends (its `fetch`), answering `status`. */
export class WebhookInbox {
  readonly received: { url: string; data: string; signature: string; event: Record<string, unknown> }[] = [];
  status = 200;

  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const form = new URLSearchParams(String(init?.body ?? ''));
    const data = form.get('data') ?? '';
    const event = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as Record<string, unknown>;
    this.received.push({ url: String(input), data, signature: form.get('signature') ?? '', event });
    return new Response(this.status === 204 ? null : 'ok', { status: this.status });
  };

  /** The events received for an order, oldest first. */
  events(orderId: string): Record<string, unknown>[] {
    return this.received.filter((entry) => entry.event.order_id === orderId).map((entry) => entry.event);
  }
}

export interface TestSandbox {
  readonly app: SandboxApp;
  readonly project: Project;
  readonly inbox: WebhookInbox;
  /** Runs webhook deliveries that are due and waits for them. */
  deliver(): Promise<void>;
  /** A request with both authentication headers (unless overridden). */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** POST and read the JSON answer, expecting `status`. */
  postJson<T = Record<string, unknown>>(path: string, body: unknown, status?: number): Promise<T>;
  getJson<T = Record<string, unknown>>(path: string, status?: number): Promise<T>;
  /** A control-plane request (no credentials), with a JSON body when one is given. */
  control(method: string, path: string, body?: unknown): Promise<Response>;
  /** Control plane: move the clock on. */
  advance(ms: number): Promise<void>;
}

export function testSandbox(config: SandboxConfig = {}): TestSandbox {
  const inbox = new WebhookInbox();
  const app = createSandbox({ startTime: START, frozenClock: true, fetch: inbox.fetch, ...config });
  const project = app.sandbox.gateway.defaultProject;
  const headers = {
    'X-API-AUTH': authHeaderValue(project.apiKey, project.apiSecret),
    'X-API-KEY': project.endpointsKey,
  };
  const call: TestSandbox['call'] = async (method, path, options = {}) =>
    app.request(path, {
      method,
      headers: { ...headers, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : typeof options.body === 'string' || options.body instanceof Uint8Array ? (options.body as BodyInit) : JSON.stringify(options.body),
    });
  const expectJson = async <T>(response: Response, status: number): Promise<T> => {
    const text = await response.text();
    if (response.status !== status) throw new Error(`expected HTTP ${status}, got ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  const control: TestSandbox['control'] = async (method, path, body) => app.request(path, controlRequest(method, body));
  return {
    app,
    project,
    inbox,
    deliver: async () => {
      app.sandbox.gateway.scheduler.runDue();
      await app.sandbox.gateway.webhooks.settle();
    },
    call,
    post: (path, body, extra) => call('POST', path, { body, headers: extra }),
    get: (path, extra) => call('GET', path, { headers: extra }),
    postJson: async (path, body, status = 200) => expectJson(await call('POST', path, { body }), status),
    getJson: async (path, status = 200) => expectJson(await call('GET', path), status),
    control,
    advance: async (ms) => {
      const response = await control('POST', '/_sandbox/clock', { advance_ms: ms });
      if (response.status !== 200) throw new Error(`clock: HTTP ${response.status}`);
    },
  };
}

/** A control-plane request: commands (POST, PUT) are JSON even when they carry nothing. */
export function controlRequest(method: string, body?: unknown): RequestInit {
  const command = body ?? (method === 'POST' || method === 'PUT' ? {} : undefined);
  return command === undefined ? { method } : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(command) };
}

let orderSequence = 0;
/** A fresh order id per call, so tests never collide. */
export function newOrderId(prefix = 'order'): string {
  orderSequence += 1;
  return `${prefix}-${orderSequence}`;
}

/** The payer's side of a direct payment: a test card (with a code of its length), customer, browser. */
export function payerFields(card = '4242424242424242') {
  return {
    cc_number: card,
    exp_month: 12,
    exp_year: 2030,
    card_cvv: card.startsWith('37') ? '1234' : '123',
    customer_fname: 'Olena',
    customer_lname: 'Koval',
    customer_email: 'olena@example.com',
    customer_phone: '+380501234567',
    customer_ip: '203.0.113.7',
    browser_fingerprint: fingerprint,
  };
}

/** What a test card leads to: its code for a purchase; an auth's success is 1002. */
export function expectedOutcome(card: TestCard, method: 'purchase' | 'auth'): { status: string; status_code: string } {
  const code: StatusCode = method === 'auth' && card.statusCode === '1000' ? '1002' : card.statusCode;
  return { status: statusCodeInfo[code].status, status_code: code };
}

/** A direct payment with full card data; `card` picks the test card number. */
export function directPayment(project: Project, overrides: Record<string, unknown> = {}, card = '4242424242424242') {
  return {
    pos_id: project.posId,
    mode: 'direct',
    method: 'purchase',
    amount: 10.1,
    currency: 'UAH',
    description: 'Order at the test shop',
    order_id: newOrderId(),
    order_3ds_bypass: 'supported',
    ...payerFields(card),
    server_url: 'https://shop.example/webhooks/gateway',
    result_url: 'https://shop.example/checkout/return/1',
    ...overrides,
  };
}

export function hostedPayment(project: Project, overrides: Record<string, unknown> = {}) {
  return {
    pos_id: project.posId,
    mode: 'hosted',
    method: 'purchase',
    amount: 250,
    currency: 'UAH',
    description: 'Hosted order',
    order_id: newOrderId('hosted'),
    order_3ds_bypass: 'supported',
    customer_email: 'olena@example.com',
    customer_phone: '+380501234567',
    customer_lang: 'UK',
    result_url: 'https://shop.example/checkout/return/2',
    server_url: 'https://shop.example/webhooks/gateway',
    ...overrides,
  };
}
