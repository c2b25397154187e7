/**
 * Which recorded request is under way, so that what it causes can name it: a webhook delivery
 * carries the id of the request during which it was sent. Scheduled tasks carry the request
 * that scheduled them (`carryRequest`, given to the Scheduler), so a webhook sent later — the
 * slow card's success, an expired checkout — still names the request that set it going.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const underWay = new AsyncLocalStorage<number>();

export function duringRequest<T>(requestId: number, work: () => T): T {
  return underWay.run(requestId, work);
}

/** The id of the recorded request under way (GET /_sandbox/requests), if any. */
export function requestUnderWay(): number | undefined {
  return underWay.getStore();
}

/** `run`, to be run later as part of the request under way now — or of none, if none is. */
export function carryRequest<T>(run: () => T): () => T {
  const requestId = underWay.getStore();
  return requestId === undefined ? () => underWay.exit(run) : () => underWay.run(requestId, run);
}
