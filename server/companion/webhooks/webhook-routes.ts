/**
 * `POST /webhooks/gateway` — the `server_url` the gateway posts events to. The signature is
 * checked on the raw `data` field before anything else is read; a forged or tampered post is
 * refused with 401 and leaves no trace. A genuine event is stored once (its identity is the
 * hash of `data`), applied forward-only in the same transaction, and answered 200 — a
 * duplicate too, so the gateway stops resending it.
 *
 * What follows a change (the saved card, the feed, the merchant's `onPaymentEvent`) runs once
 * per change, after it is committed. The answer waits for it only so long: a slow hook must not
 * hold the gateway's acknowledgement until it times out and resends.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { parseWebhookData, readWebhookEvent, verifyWebhook, WebhookPayloadError } from '@payform/gateway';
import type { WebhookEvent } from '@payform/gateway';
import type { CompanionEnv } from '../context.js';
import { formFields } from '../http/form-fields.js';
import { waitAtMost } from '../http/in-flight.js';
import type { InFlight } from '../http/in-flight.js';
import { clientAddress } from '../http/client-address.js';
import { ApiProblem } from '../http/problem.js';
import type { EventIngest, GatewayEvent } from '../../ledger/index.js';
import type { Logger } from '../log/logger.js';
import { gatewayEvent, storedBody, unreadableEvent } from '../payments/gateway-facts.js';
import type { PaymentReactions } from '../payments/reactions.js';

export const WebhookReceipt = z.object({
  received: z.literal(true),
  duplicate: z.boolean().describe('This exact event was stored before'),
  outcome: z.enum(['applied', 'stale', 'parked', 'unmatched']),
});
export type WebhookReceipt = z.output<typeof WebhookReceipt>;

/** Longest the acknowledgement waits for the reactions; they carry on after it, tracked for shutdown. */
const REACTIONS_WAIT_MS = 2_000;

const FORM_FIELDS = ['data', 'signature'] as const;

/** How often, at most, refused signatures are logged: a wrong secret refuses every delivery. */
const REFUSALS_LOGGED_EVERY_MS = 60_000;

/** A line said at once, then at most once every `everyMs`, with how many went unsaid meanwhile. */
function throttled<A extends unknown[]>(everyMs: number, say: (log: Logger, unsaid: number, ...args: A) => void): (log: Logger, now: number, ...args: A) => void {
  let quietUntil = 0;
  let unsaid = 0;
  return (log, now, ...args) => {
    if (now < quietUntil) return void unsaid++;
    say(log, unsaid, ...args);
    unsaid = 0;
    quietUntil = now + everyMs;
  };
}

/**
 * The first wrong signature at once, then at most one line a minute saying how many more came
 * meanwhile: a rotated secret, or someone probing the route, would otherwise fill the log.
 */
const signatureRefusals = () =>
  throttled(REFUSALS_LOGGED_EVERY_MS, (log, unsaid, client: string | undefined) =>
    // The sender's address tells the gateway's own servers from someone probing the route.
    log.warn(
      'refused a webhook with a wrong signature: the gateway signs with the project’s API secret, PAYFORM_GATEWAY_API_SECRET (or the gatewayApiSecret option); if every webhook is refused, check it; ' +
        'just after a rotation, give the secret before it as PAYFORM_GATEWAY_API_SECRET_PREVIOUS while the gateway retries older events',
      { client: client ?? 'unknown', ...(unsaid ? { refused_since_last_line: unsaid } : {}) },
    ),
  );

/** The API secret webhooks are signed with, and while it is rotated the one before it. */
export interface WebhookSecrets {
  readonly current: string;
  readonly previous?: string | undefined;
}

/** How often, at most, webhooks taken by the previous secret are said: the gateway may retry for days. */
const PREVIOUS_LOGGED_EVERY_MS = 3_600_000;

/** Says webhooks signed with the previous secret are taken: the operator removes it once none come. */
const previousSecretTaken = () =>
  throttled(PREVIOUS_LOGGED_EVERY_MS, (log, unsaid) =>
    log.info(
      'took a webhook signed with the previous API secret (PAYFORM_GATEWAY_API_SECRET_PREVIOUS): the gateway still retries events sent before the rotation; remove the variable once this line has not come for a day',
      unsaid ? { taken_since_last_line: unsaid } : {},
    ),
  );

export function webhookRoutes(secrets: WebhookSecrets, background: InFlight): Hono<CompanionEnv> {
  const webhooks = new Hono<CompanionEnv>();
  const refused = signatureRefusals();
  const byPrevious = previousSecretTaken();
  let unknownOrderSaid = false;

  webhooks.post('/gateway', async (c) => {
    const { ledger, reactions, options, gateway, metrics } = c.get('services');
    const log = c.get('logger');
    // Read as text and decoded as a form, nothing else: `data` must stay exactly as it was signed.
    const { data, signature } = formFields(await c.req.text(), FORM_FIELDS);
    if (!data || !signature) {
      throw ApiProblem.invalid({ ...(data ? {} : { data: 'is required' }), ...(signature ? {} : { signature: 'is required' }) });
    }
    const current = verifyWebhook(data, signature, secrets.current);
    const previous = !current && secrets.previous !== undefined && verifyWebhook(data, signature, secrets.previous);
    if (previous) byPrevious(log, c.get('services').clock());
    if (!current && !previous) {
      // Every webhook fails so if the secret is wrong; a forger's or another project's fails alone.
      refused(log, c.get('services').clock(), clientAddress(c, options.trustProxy));
      metrics.webhook('invalid_signature');
      throw new ApiProblem(401, 'invalid_signature', 'The webhook signature does not match');
    }
    const read = readEvent(data, gateway.posId, options.sandboxOrigin, log, () => metrics.webhook('unreadable'));
    c.set('payformOrderId', read.orderId);
    const ingest = await ledger.ingestEvent(read);
    const outcome = deliveryOutcome(ingest);
    metrics.webhook(outcome);
    if (read.recurring && ingest.isNew && ingest.event.outcome === 'unmatched') {
      // payform records one payment an order: applied, the charge would overwrite the first one's transaction.
      log.warn('a webhook reports a recurring charge, which payform does not record; kept unmatched and its order flagged', {
        order_id: read.orderId,
        transaction_id: read.transactionId,
      });
    }
    const unmatched = ingest.isNew && ingest.event.outcome === 'unmatched' && !read.recurring && !read.unreadable && read.otherPosId === undefined;
    if (unmatched && !unknownOrderSaid && (await ledger.getPayment(ingest.event.orderId)) === undefined) {
      // Once a start: the ledger running is not the one that took the payment (a path or URL
      // misspelt), or the gateway project is another shop's too, where it is expected.
      unknownOrderSaid = true;
      log.warn(
        'a webhook about an order this ledger does not hold was stored unmatched (said once a start; the back office lists them): if this shop took it, this companion runs on another ledger than the one that did, check PAYFORM_DATABASE_URL; an order of another shop on the same gateway project is expected',
        { order_id: ingest.event.orderId },
      );
    }
    log.info('webhook received', {
      order_id: ingest.event.orderId,
      method: ingest.event.method,
      status: ingest.event.status,
      duplicate: !ingest.isNew,
      outcome,
      ...(ingest.isNew ? {} : { stored_outcome: ingest.event.outcome }),
    });
    // Most deliveries change nothing (the pay call's answer recorded the status first): then
    // there is nothing to wait for, nor a timer to set.
    const due = reactionsTo(ingest, reactions);
    if (due.length > 0) {
      const reacting = (async () => {
        for (const react of due) await react();
      })().catch((error: unknown) => log.error('reacting to a webhook failed', { order_id: ingest.event.orderId, err: error }));
      await waitAtMost(background.track(reacting), REACTIONS_WAIT_MS);
    }
    return c.json({ received: true, duplicate: !ingest.isNew, outcome: ingest.event.outcome } satisfies WebhookReceipt);
  });

  return webhooks;
}

/**
 * What this delivery did, as the log and the metric say it: a repeat is `duplicate` unless it
 * moved or flagged something — one stored parked or unmatched is tried again, and may apply now.
 */
function deliveryOutcome(ingest: EventIngest): WebhookReceipt['outcome'] | 'duplicate' {
  return ingest.isNew || ingest.advanced || ingest.flagged ? ingest.event.outcome : 'duplicate';
}

/**
 * What follows an applied event, in this order; nothing for most deliveries. A refund past what
 * was paid flags its payment: the payment's own status did not move then.
 */
function reactionsTo({ advanced, flagged, payment, operation }: EventIngest, reactions: PaymentReactions): Array<() => Promise<void>> {
  const due: Array<() => Promise<void>> = [];
  if (advanced && payment && !operation) due.push(() => reactions.paymentAdvanced(payment, 'webhook'));
  if (flagged && payment) due.push(() => reactions.discrepancyNoted(payment, 'webhook'));
  if (advanced && operation) due.push(() => reactions.operationAdvanced(operation, 'webhook'));
  return due;
}

/**
 * The ledger's view of a signed post. One the companion cannot read is still stored (unmatched,
 * its order flagged) and answered 200: any other answer and the gateway resends it for ever.
 * An event for another point of sale (another shop's, sent here by mistake or on purpose) is
 * kept for a person to see, never applied: the ledger keeps it unmatched.
 */
function readEvent(data: string, posId: string, sandboxOrigin: string | undefined, log: Logger, noteUnreadable: () => void): GatewayEvent {
  let event: WebhookEvent;
  let body: string;
  try {
    // Decoded and parsed once: the body is kept as sent (masked), before the event is read from it.
    const json = parseWebhookData(data);
    body = storedBody(json);
    event = readWebhookEvent(json);
  } catch (error) {
    if (!(error instanceof WebhookPayloadError)) throw error;
    log.error('a signed webhook could not be read; kept unmatched and its order flagged', { err: error });
    noteUnreadable();
    return unreadableEvent(data);
  }
  const otherPosId = event.pos_id != null && event.pos_id.toLowerCase() !== posId.toLowerCase() ? event.pos_id : undefined;
  if (otherPosId !== undefined) log.warn('a webhook names another point of sale; kept unmatched', { order_id: event.order_id, pos_id: otherPosId });
  const read = gatewayEvent(data, event, sandboxOrigin, body);
  // A subscription set up at the gateway: the ledger tells its further charges from re-sends.
  const recurring = 'recurring' in event && event.recurring ? { recurring: true as const } : {};
  return otherPosId === undefined ? { ...read, ...recurring } : { ...read, otherPosId };
}
