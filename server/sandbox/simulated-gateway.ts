/**
 * The sandbox's world: its projects, clock, orders, card tokens, webhook sender and faults. The
 * payment and operation rules (payments.ts, operations.ts) act on it; the HTTP layer reads it.
 * What changes state and sends webhooks takes its `cause`: the recorded request that set the
 * change going (RequestId), which each webhook names; undefined when none did.
 */
import { SandboxClock, Scheduler } from './clock.js';
import type { Project, ResolvedConfig } from './config.js';
import { FaultInjector } from './faults.js';
import { RequestLog } from './inspector/request-log.js';
import type { RequestId } from './inspector/request-log.js';
import type { Operation, Order, Payment } from './state/records.js';
import { SandboxStore } from './state/store.js';
import { CardVault } from './state/tokens.js';
import { WidgetTokens } from './state/widget-tokens.js';
import { operationEvent, paymentEvent } from './views.js';
import { WebhookSender } from './webhook-sender.js';
import type { Delivery } from './webhook-sender.js';

export class SimulatedGateway {
  readonly config: ResolvedConfig;
  readonly clock: SandboxClock;
  readonly scheduler: Scheduler;
  readonly store = new SandboxStore();
  readonly vault = new CardVault();
  readonly widgetTokens = new WidgetTokens();
  /** The last requests answered, masked, for the inspector (GET /_sandbox/requests). */
  readonly requests = new RequestLog();
  readonly faults: FaultInjector;
  readonly webhooks: WebhookSender;
  readonly #projectsByPos: ReadonlyMap<string, Project>;
  readonly #projectsByKey: ReadonlyMap<string, Project>;

  constructor(config: ResolvedConfig) {
    this.config = config;
    this.clock = new SandboxClock({ start: config.startTime, frozen: config.frozenClock });
    this.scheduler = new Scheduler(this.clock, (error) => config.log(`sandbox task failed: ${String(error)}`));
    this.faults = new FaultInjector(config.faultSeed);
    this.webhooks = new WebhookSender({
      settings: config.webhooks,
      clock: this.clock,
      scheduler: this.scheduler,
      fetch: config.fetch,
      faults: () => this.faults.webhooks,
      log: config.log,
    });
    this.#projectsByPos = new Map(config.projects.map((project) => [project.posId, project]));
    this.#projectsByKey = new Map(config.projects.map((project) => [project.apiKey, project]));
  }

  /** The first configured project: the control plane's default. */
  get defaultProject(): Project {
    return this.config.projects[0] as Project;
  }

  project(posId: string): Project | undefined {
    return this.#projectsByPos.get(posId);
  }

  projectByApiKey(apiKey: string): Project | undefined {
    return this.#projectsByKey.get(apiKey);
  }

  /** The project whose card tokenizer a widget key (X-Widget-Id) opens. */
  projectByWidgetKey(widgetKey: string): Project | undefined {
    return this.config.projects.find((project) => project.widgetKey === widgetKey);
  }

  /** The project an order belongs to; orders only exist for configured projects. */
  projectOf(order: Order): Project {
    const project = this.project(order.posId);
    if (!project) throw new Error(`order of unknown project ${order.posId}`);
    return project;
  }

  /** Webhook for the payment's current status, to its server_url (none without one). */
  notifyPayment(cause: RequestId | undefined, order: Order, payment: Payment = order.payment, reason: Delivery['reason'] = 'status_change'): Delivery[] {
    const target = payment.details.server_url;
    if (!target) return [];
    const event = paymentEvent(payment, reason === 'resend' || payment !== order.payment ? order.recurring : undefined);
    return this.webhooks.send({ target, event, apiSecret: this.projectOf(order).apiSecret, reason, cause });
  }

  /** Webhook for an operation, to its own server_url or else the payment's. */
  notifyOperation(cause: RequestId | undefined, order: Order, operation: Operation, reason: Delivery['reason'] = 'status_change'): Delivery[] {
    const target = operation.serverUrl ?? order.payment.details.server_url;
    if (!target) return [];
    return this.webhooks.send({ target, event: operationEvent(operation), apiSecret: this.projectOf(order).apiSecret, reason, cause });
  }

  /** The validation_url preflight of a payment: true when the merchant answers 2xx. */
  async confirmWithMerchant(cause: RequestId | undefined, order: Order, target: string): Promise<boolean> {
    const event = paymentEvent(order.payment);
    return this.webhooks.preflight({ target, event, apiSecret: this.projectOf(order).apiSecret, reason: 'validation', cause });
  }

  /** Forgets every order, token, delivery, recorded request, fault and clock change. */
  reset(): void {
    this.store.clear();
    this.requests.clear();
    this.vault.clear();
    this.widgetTokens.clear();
    this.webhooks.clear();
    this.faults.clear();
    this.scheduler.clear();
    this.clock.reset();
  }

  /** Stops every timer so the process can exit; waits for webhook attempts under way. */
  async stop(): Promise<void> {
    this.scheduler.stop();
    await this.webhooks.settle();
  }
}
