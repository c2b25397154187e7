/**
 * What an operator's Prometheus scrapes from the companion (`GET /metrics`, see
 * docs/reliability.md "Watching it"): counters of what this instance did since it started, and
 * gauges of what waits in the ledger — shared by every instance on the database, so alert on
 * their max, not their sum. A registry of its own per companion: two in one process (tests,
 * a merchant's blue/green) never mix their counts.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { GatewayCallRecord } from '@payform/gateway';
import { ABANDONED_CODES, gatewayAnswered } from '../../ledger/index.js';
import type { Ledger, Payment } from '../../ledger/index.js';
import { notTheGateway, provesEndpointsKey, TROUBLES } from './gateway-trouble.js';
import type { Trouble } from './gateway-trouble.js';

/** Gateway latency buckets (seconds): a payment answers in tens of ms; the client's timeout is 30 s. */
const GATEWAY_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * How long a scrape waits for the ledger's backlog (a read of milliseconds when it answers). A
 * database whose packets are lost keeps a read until the connect or statement deadline (5 s,
 * 6 s, more when raised for reports): a scrape that waits that long fails at Prometheus's
 * scrape_timeout, every series goes stale, and the alerts on them resolve while it is away.
 */
const BACKLOG_READ_MS = 2_000;

/**
 * How long a payment waiting for the gateway may go without news — no webhook, no answer, no
 * reconciliation read — before reconciliation counts as stalled. A working reconciler reads each
 * one every stalePaymentAfterMs (60 s) plus a pass (15 s); a sweep that throws, a gateway refusing
 * or not answering its reads, or no reconciler started leaves them unread.
 */
const RECONCILIATION_OVERDUE_MS = 15 * 60_000;

interface Backlog extends Awaited<ReturnType<Ledger['backlog']>> {
  readonly reconciliationOverdue: boolean;
}

/**
 * The process's own series (memory, heap, event-loop delay, open files, garbage collection): one
 * registry a process, made at its first scrape — a companion nobody scrapes keeps no event-loop
 * monitor running, and companions sharing a process (tests, a blue/green switch) share its monitor,
 * which prom-client cannot stop, rather than leave one behind each.
 */
let processRegistry: Registry | undefined;
const processSeries = (): Registry => {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
};

const WEBHOOK_OUTCOMES = ['applied', 'stale', 'parked', 'unmatched', 'duplicate', 'invalid_signature', 'unreadable'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** The index builds' states worth a series (index-builds.ts): the others are none of them. */
const INDEX_BUILD_STATES = ['building', 'waiting', 'failed'] as const;

/** The backlog gauges are read from the ledger at each scrape: while it cannot be read they keep what was read last, which an alert must not take for news. */
const AS_LAST_READ = '; its last value read while payform_ledger_up is 0';

export class CompanionMetrics {
  readonly registry = new Registry();
  readonly #payments: Counter<'method' | 'outcome'>;
  readonly #gatewayCalls: Histogram<'route' | 'status'>;
  readonly #webhooks: Counter<'outcome'>;
  readonly #replays: Counter;
  readonly #rateLimited: Counter<'route'>;
  readonly #ledgerErrors: Counter<'kind'>;
  readonly #ledgerUp: Gauge;
  readonly #unfinished: Gauge;
  readonly #oldestAge: Gauge;
  readonly #unsettled: Gauge;
  readonly #waitingEvents: Gauge<'outcome'>;
  readonly #credentialsRefused: Gauge;
  readonly #gatewayTrouble: Gauge<'kind'>;
  readonly #reconciliationStalled: Gauge;
  readonly #indexBuild: Gauge<'state'>;
  readonly #discrepancies: Counter;
  readonly #forgotten: Counter;
  readonly #heldOrders: Gauge;
  readonly #declineBurst: Gauge;
  readonly #publicUrlWrong: Gauge;
  readonly #declineCoolDowns: Counter<'by'>;
  /** Whether a decline burst is under way (payments/decline-rate.ts), read at each scrape. */
  #bursting: (() => boolean) | undefined;
  /** Which calls the refusal under way was on: one with the endpoints key may be that key's alone. */
  #refusedOn: 'keyed' | 'keyless' | undefined;
  /** The backlog read under way: a scrape while one is still held joins it rather than start another. */
  #backlogRead: Promise<Backlog> | undefined;

  constructor() {
    const registers = [this.registry];
    this.#payments = new Counter({ name: 'payform_payments_total', help: 'Payments that reached a final status, by method (purchase, auth, lookup) and outcome (success; failure, declined by the gateway; not_sent, ended without its decision, each attempt once though its session then pays again; cancelled, an unpaid hosted payment cancelled)', labelNames: ['method', 'outcome'], registers });
    this.#gatewayCalls = new Histogram({
      name: 'payform_gateway_call_duration_seconds',
      help: 'Each HTTP attempt to the gateway, by route template and status (network, timeout when no answer came; aborted when the caller gave up first; not_gateway when what answered is not the gateway: no such path, a redirect, an HTML page)',
      labelNames: ['route', 'status'],
      buckets: GATEWAY_BUCKETS,
      registers,
    });
    this.#webhooks = new Counter({ name: 'payform_webhooks_received_total', help: 'Webhooks received, by outcome: applied, stale, parked, unmatched, duplicate, invalid_signature, unreadable', labelNames: ['outcome'], registers });
    this.#replays = new Counter({ name: 'payform_idempotent_replays_total', help: 'Merchant API requests answered from an Idempotency-Key’s stored answer', registers });
    this.#rateLimited = new Counter({ name: 'payform_rate_limit_refusals_total', help: 'Requests refused 429 by a rate limit, by route', labelNames: ['route'], registers });
    this.#ledgerErrors = new Counter({ name: 'payform_ledger_errors_total', help: 'Ledger calls that failed: unavailable (the database could not be reached) or failed (a query fault)', labelNames: ['kind'], registers });
    this.#ledgerUp = new Gauge({ name: 'payform_ledger_up', help: '1 when the ledger answered this scrape’s backlog read and no outage is under way (a full disk still reads), else 0', registers });
    this.#unfinished = new Gauge({ name: 'payform_unfinished_payments', help: `Payments in init or pending waiting for the gateway (not those ended as never sent, nor those held for a discrepancy: payform_held_orders): the reconciliation backlog (every instance on the database)${AS_LAST_READ}`, registers });
    this.#oldestAge = new Gauge({ name: 'payform_oldest_unfinished_payment_age_seconds', help: `Age of the oldest payment waiting for the gateway (as payform_unfinished_payments); 0 when there is none${AS_LAST_READ}`, registers });
    this.#unsettled = new Gauge({ name: 'payform_unsettled_operations', help: `Captures, voids and refunds without the gateway’s answer yet${AS_LAST_READ}`, registers });
    this.#heldOrders = new Gauge({ name: 'payform_held_orders', help: `Orders held for a discrepancy no person has settled yet (POST /api/orders/{order_id}/settle-discrepancy): do not fulfil them (every instance on the database)${AS_LAST_READ}`, registers });
    this.#waitingEvents = new Gauge({ name: 'payform_webhook_events_waiting', help: `Webhook events stored and not applied: parked (waiting for their reservation) or unmatched (for a person)${AS_LAST_READ}`, labelNames: ['outcome'], registers });
    this.#credentialsRefused = new Gauge({ name: 'payform_gateway_credentials_refused', help: '1 from a call the gateway refused 401 or 403 until it takes a call with the same credentials again, else 0', registers });
    this.#credentialsRefused.set(0);
    this.#gatewayTrouble = new Gauge({
      name: 'payform_gateway_trouble',
      help: '1 while the gateway fails the companion\'s calls in this way (as the error line of it says, from its first call; failing and busy once they last), until a call is answered, else 0. kind: unreachable, plain http, tls, failing, busy, credentials, endpoints key, elsewhere',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of TROUBLES) this.#gatewayTrouble.set({ kind }, 0);
    this.#reconciliationStalled = new Gauge({
      name: 'payform_reconciliation_stalled',
      help: '1 when a payment waiting for the gateway has had no news (webhook, answer, reconciliation read) for 15 minutes: reconciliation is not reading it (every instance on the database), else 0',
      registers,
    });
    this.#reconciliationStalled.set(0);
    this.#indexBuild = new Gauge({
      name: 'payform_ledger_index_build',
      help: "1 in the state of the indexes an upgrade builds in the background on a large PostgreSQL ledger (building: this instance builds; waiting: another does; failed: tried again later, the error logged), else 0; all 0 once built",
      labelNames: ['state'],
      registers,
    });
    this.#declineBurst = new Gauge({
      name: 'payform_decline_burst',
      help: '1 while declines spike on this instance: 20 or more in the last minute, half or more of the customers\' pay requests decided (saved-card charges aside; card testing spread over client addresses, or an issuer refusing), until both fall below half that; else 0. The warning that begins one names the busiest client networks',
      registers,
    });
    this.#declineBurst.set(0);
    this.#publicUrlWrong = new Gauge({
      name: 'payform_public_url_wrong',
      help: '1 once this instance found that PAYFORM_PUBLIC_URL does not reach it (the gateway\'s webhooks and the customers\' way back from 3-D Secure go elsewhere, or are refused in front of it; its error line says why), until it restarts; else 0',
      registers,
    });
    this.#publicUrlWrong.set(0);
    this.#declineCoolDowns = new Counter({
      name: 'payform_decline_cool_downs_total',
      help: 'Client networks refused pay attempts for a while after their declines, by client (an IPv4 address or IPv6 /64) or network (an IPv6 /48)',
      labelNames: ['by'],
      registers,
    });
    this.#forgotten = new Counter({
      name: 'payform_payments_forgotten_total',
      help: 'Payment attempts the gateway had answered (a payment id, a challenge, a hosted page) and then no longer knew, ended as never sent: each may be paid at the gateway that took it — check it there (its payment_id, or a hosted page’s order_id: its error line names them) before fulfilling it or letting its customer pay again',
      registers,
    });
    this.#discrepancies = new Counter({ name: 'payform_discrepancies_total', help: 'Reports of the gateway that contradict an order (other figures paid, money moved past it), each new one: the payment is held for a person', registers });
    // Every series from start: one born at its first count shows increase() no rise, and an alert
    // on "no webhook accepted" finds no series at all where none ever came.
    for (const kind of ['unavailable', 'failed']) this.#ledgerErrors.inc({ kind }, 0);
    for (const outcome of WEBHOOK_OUTCOMES) this.#webhooks.inc({ outcome }, 0);
    for (const method of ['purchase', 'auth', 'lookup']) for (const outcome of ['success', 'failure', 'not_sent', 'cancelled']) this.#payments.inc({ method, outcome }, 0);
    for (const by of ['client', 'network']) this.#declineCoolDowns.inc({ by }, 0);
    this.#replays.inc(0);
    this.#discrepancies.inc(0);
  }

  /**
   * A payment reached success or failure (each change is reported once, across instances). A
   * failure the gateway gave no code for is one it never decided (every decline has a code):
   * the merchant's trouble, counted apart from what customers were told. One cancelled or
   * expired unpaid (ABANDONED_CODES: a hosted page nobody paid) was abandoned, not declined. One
   * ended as never sent and then given up was counted as it was ended (paymentUnsent): not twice.
   * (A late decision of one ended so — its first send landed — is news, and counted.)
   */
  paymentFinished(payment: Payment): void {
    if (payment.unsentAt !== null && payment.status === 'failure' && payment.statusCode === null) return;
    const outcome = paymentOutcome(payment);
    if (outcome !== undefined) this.#payments.inc({ method: payment.method, outcome });
  }

  /**
   * An attempt reconciliation ended as never sent: the gateway's order state never showed it. Its
   * status stays what it was (its session may pay again), so no change reports it. One the
   * gateway had answered (a payment id, a hosted page, a status: `gatewayAnswered`) it lost:
   * counted apart, for an alert.
   */
  paymentUnsent(payment: Pick<Payment, 'method' | 'paymentId' | 'checkoutUrl' | 'statusCode'>): void {
    this.#payments.inc({ method: payment.method, outcome: 'not_sent' });
    if (gatewayAnswered(payment)) this.paymentForgotten();
  }

  /** A payment the gateway had answered and then no longer knew, found so as it was given up (never ended as never sent before). */
  paymentForgotten(): void {
    this.#forgotten.inc();
  }

  /** A client network's declines cooled it down (checkout/pay-limits.ts): `network` for an IPv6 /48. */
  declineCoolDown(by: 'client' | 'network'): void {
    this.#declineCoolDowns.inc({ by });
  }

  /** What `payform_decline_burst` reads at each scrape: a burst ends when the payments go quiet too. */
  watchDeclineBurst(bursting: () => boolean): void {
    this.#bursting = bursting;
  }

  /** An answer that is not the gateway's counts as `not_gateway`, not as its status: the calls failed, whatever answered 200 or 301. */
  gatewayCall(record: GatewayCallRecord): void {
    const gateway = notTheGateway(record) === undefined;
    const status = gateway ? String(record.outcome) : 'not_gateway';
    this.#gatewayCalls.observe({ route: record.route, status }, record.seconds);
    if (gateway) this.#credentials(record);
  }

  /**
   * The trouble the gateway's error lines say (app.ts's GatewayTrouble), from its first line until
   * a call is answered: the gauge is 1 exactly while the trouble they told of lasts.
   */
  gatewayTrouble(trouble: Trouble | undefined): void {
    for (const kind of TROUBLES) this.#gatewayTrouble.set({ kind }, kind === trouble ? 1 : 0);
  }

  /**
   * A state, not only the calls' counter: a counter's series is born at its first refusal (the
   * check at start, or a shop's one payment), and Prometheus's increase() sees no rise in a
   * series until its second sample — the documented alert missed every first refusal. Ended
   * only by an answer that carried the refused credentials: a balances read does not carry the
   * endpoints key, and a 5xx or 429 may come before the gateway reads any.
   */
  #credentials(record: GatewayCallRecord): void {
    const { outcome } = record;
    // An order-state read carries the endpoints key but is answered without it: no proof of it.
    const endpointsKey = provesEndpointsKey(record);
    if (typeof outcome !== 'number' || outcome >= 500 || outcome === 429) return;
    if (outcome === 401 || outcome === 403) {
      if (this.#refusedOn !== 'keyed') this.#refusedOn = endpointsKey ? 'keyed' : 'keyless';
      this.#credentialsRefused.set(1);
    } else if (this.#refusedOn !== undefined && (endpointsKey || this.#refusedOn === 'keyless')) {
      this.#refusedOn = undefined;
      this.#credentialsRefused.set(0);
    }
  }

  /** The gateway reported what contradicts an order (payments/reactions.ts discrepancyNoted). */
  /** The public URL check found PAYFORM_PUBLIC_URL wrong (public-url-check.ts): kept until a restart, which checks again. */
  publicUrlWrong(): void {
    this.#publicUrlWrong.set(1);
  }

  discrepancyNoted(): void {
    this.#discrepancies.inc();
  }

  webhook(outcome: WebhookOutcome): void {
    this.#webhooks.inc({ outcome });
  }

  idempotentReplay(): void {
    this.#replays.inc();
  }

  rateLimited(route: string): void {
    this.#rateLimited.inc({ route });
  }

  ledgerError(kind: 'unavailable' | 'failed'): void {
    this.#ledgerErrors.inc({ kind });
  }

  /**
   * The Prometheus text, the ledger's gauges read now (left as they were when it cannot be read).
   * `down`: the outage tracker's word — a disk that refuses writes still answers the read.
   */
  async exposition(ledger: Ledger, now: number, down = false): Promise<string> {
    const building = ledger.indexBuilds?.state;
    for (const state of INDEX_BUILD_STATES) this.#indexBuild.set({ state }, state === building ? 1 : 0);
    this.#declineBurst.set(this.#bursting?.() ? 1 : 0);
    try {
      const backlog = await this.#readBacklog(ledger);
      this.#ledgerUp.set(down ? 0 : 1);
      this.#unfinished.set(backlog.unfinishedPayments);
      this.#oldestAge.set(backlog.oldestUnfinishedPaymentAt === undefined ? 0 : Math.max(0, now - backlog.oldestUnfinishedPaymentAt) / 1000);
      this.#unsettled.set(backlog.unsettledOperations);
      this.#waitingEvents.set({ outcome: 'parked' }, backlog.parkedEvents);
      this.#waitingEvents.set({ outcome: 'unmatched' }, backlog.unmatchedEvents);
      this.#heldOrders.set(backlog.heldPayments);
      this.#reconciliationStalled.set(backlog.reconciliationOverdue ? 1 : 0);
    } catch {
      this.#ledgerUp.set(0);
    }
    return Registry.merge([this.registry, processSeries()]).metrics();
  }

  /** The ledger's backlog, or a rejection once BACKLOG_READ_MS pass without it. */
  async #readBacklog(ledger: Ledger): Promise<Backlog> {
    const read = (this.#backlogRead ??= readBacklog(ledger).finally(() => (this.#backlogRead = undefined)));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the ledger did not answer in time')), BACKLOG_READ_MS)));
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A finished payment's outcome as payform_payments_total counts it; undefined while it is not finished. */
export function paymentOutcome(payment: Payment): 'success' | 'failure' | 'not_sent' | 'cancelled' | undefined {
  if (payment.status === 'success') return 'success';
  if (payment.status !== 'failure') return undefined;
  return payment.statusCode === null ? 'not_sent' : ABANDONED_CODES.includes(payment.statusCode) ? 'cancelled' : 'failure';
}

async function readBacklog(ledger: Ledger): Promise<Backlog> {
  const [backlog, overdue] = await Promise.all([ledger.backlog(), ledger.listStalePayments({ quietForMs: RECONCILIATION_OVERDUE_MS, limit: 1 })]);
  return { ...backlog, reconciliationOverdue: overdue.length > 0 };
}
