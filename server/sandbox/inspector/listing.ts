/**
 * The inspector's listing: recorded requests, newest first, each with the webhooks it caused
 * (deliveries carrying its id), masked like the requests — the event's card token, the
 * signature and a password in the target never show.
 */
import type { SimulatedGateway } from '../simulated-gateway.js';
import type { Delivery } from '../webhook-sender.js';
import { inspectorRedact } from './redaction.js';
import type { RecordedRequest } from './request-log.js';

export type CausedWebhook = Pick<
  Delivery,
  'id' | 'method' | 'event_status' | 'reason' | 'target' | 'status' | 'attempts' | 'next_attempt_at' | 'duplicate_of' | 'created_at' | 'event'
>;

export interface InspectedRequest extends RecordedRequest {
  readonly webhooks: readonly CausedWebhook[];
}

export interface Listing {
  readonly requests: readonly InspectedRequest[];
  /** Ask with `?after=` this cursor for what comes next. */
  readonly cursor: number;
}

export function inspectorListing(gateway: SimulatedGateway, after?: number): Listing {
  const { requests, cursor } = gateway.requests.since(after);
  // Only the listed requests' webhooks are masked and built: the log holds up to 10,000
  // deliveries, and building each at every refresh was the sandbox's largest spike under a soak.
  const caused = new Map<number, CausedWebhook[]>(requests.map((request) => [request.id, []]));
  for (const delivery of gateway.webhooks.list()) {
    const list = delivery.request_id === null ? undefined : caused.get(delivery.request_id);
    if (!list) continue;
    list.push(causedWebhook(delivery));
  }
  return { requests: requests.map((request) => ({ ...request, webhooks: caused.get(request.id) ?? [] })), cursor };
}

function causedWebhook(delivery: Delivery): CausedWebhook {
  const { id, method, event_status, reason, target, status, attempts, next_attempt_at, duplicate_of, created_at, event } = delivery;
  return inspectorRedact({ id, method, event_status, reason, target, status, attempts, next_attempt_at, duplicate_of, created_at, event }) as CausedWebhook;
}
