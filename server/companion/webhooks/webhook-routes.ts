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
import { decodeWebhook, verifyWebhook, WebhookPayloadError } from '@payform/gateway';
import type { WebhookEvent } from '@payform/gateway';
import type { CompanionEnv } from '../context.js';
import { waitAtMost } from '../http/in-flight.js';
import type { InFlight } from '../http/in-flight.js';
import { ApiProblem } from '../http/problem.js';
import type { GatewayEvent } from '../../ledger/index.js';
import type { Logger } from '../log/logger.js';
import { gatewayEvent, unreadableEvent } from '../payments/gateway-facts.js';

export const WebhookReceipt = z.object({
  received: z.literal(true),
  duplicate: z.boolean().describe('This exact event was stored before'),
  outcome: z.enum(['applied', 'stale', 'parked', 'unmatched']),
});
export type WebhookReceipt = z.output<typeof WebhookReceipt>;

/** Longest the acknowledgement waits for the reactions; they carry on after it, tracked for shutdown. */
const REACTIONS_WAIT_MS = 2_000;

export function webhookRoutes(apiSecret: string, background: InFlight): Hono<CompanionEnv> {
  const webhooks = new Hono<CompanionEnv>();

  webhooks.post('/gateway', async (c) => {
    const { ledger, reactions, options, gateway, metrics } = c.get('services');
    const log = c.get('logger');
    // Read as text and split by hand: `data` must stay exactly as it was signed.
    const form = new URLSearchParams(await c.req.text());
    const data = form.get('data');
    const signature = form.get('signature');
    if (!data || !signature) {
      throw ApiProblem.invalid({ ...(data ? {} : { data: 'is required' }), ...(signature ? {} : { signature: 'is required' }) });
    }
    if (!verifyWebhook(data, signature, apiSecret)) {
      log.warn('refused a webhook with a wrong signature');
      metrics.webhook('invalid_signature');
      throw new ApiProblem(401, 'invalid_signature', 'The webhook signature does not match');
    }
    const ingest = await ledger.ingestEvent(readEvent(data, gateway.posId, options.sandboxOrigin, log, () => metrics.webhook('unreadable')));
    metrics.webhook(ingest.isNew ? ingest.event.outcome : 'duplicate');
    log.info('webhook received', {
      order_id: ingest.event.orderId,
      method: ingest.event.method,
      status: ingest.event.status,
      duplicate: !ingest.isNew,
      outcome: ingest.event.outcome,
    });
    // Most deliveries change nothing (the pay call's answer recorded the status first): then
    // there is nothing to wait for, nor a timer to set.
    if ((ingest.advanced || ingest.flagged) && (ingest.payment || ingest.operation)) {
      const reacting = (async () => {
        // A refund past what was paid flags its payment: the payment's status did not move.
        if (ingest.advanced && ingest.payment && !ingest.operation) await reactions.paymentAdvanced(ingest.payment, 'webhook');
        if (ingest.flagged && ingest.payment) await reactions.discrepancyNoted(ingest.payment, 'webhook');
        if (ingest.advanced && ingest.operation) await reactions.operationAdvanced(ingest.operation, 'webhook');
      })().catch((error: unknown) => log.error('reacting to a webhook failed', { order_id: ingest.event.orderId, err: error }));
      await waitAtMost(background.track(reacting), REACTIONS_WAIT_MS);
    }
    return c.json({ received: true, duplicate: !ingest.isNew, outcome: ingest.event.outcome } satisfies WebhookReceipt);
  });

  return webhooks;
}

/**
 * The ledger's view of a signed post. One the companion cannot read is still stored (unmatched,
 * its order flagged) and answered 200: any other answer and the gateway resends it for ever.
 * An event for another point of sale (another shop's, sent here by mistake or on purpose) is
 * kept for a person to see, never applied: the ledger keeps it unmatched.
 */
function readEvent(data: string, posId: string, sandboxOrigin: string | undefined, log: Logger, noteUnreadable: () => void): GatewayEvent {
  let event: WebhookEvent;
  try {
    event = decodeWebhook(data);
  } catch (error) {
    if (!(error instanceof WebhookPayloadError)) throw error;
    log.error('a signed webhook could not be read; kept unmatched and its order flagged', { err: error });
    noteUnreadable();
    return unreadableEvent(data);
  }
  const otherPosId = event.pos_id != null && event.pos_id.toLowerCase() !== posId.toLowerCase() ? event.pos_id : undefined;
  if (otherPosId !== undefined) log.warn('a webhook names another point of sale; kept unmatched', { order_id: event.order_id, pos_id: otherPosId });
  return { ...gatewayEvent(data, event, sandboxOrigin), ...(otherPosId === undefined ? {} : { otherPosId }) };
}
