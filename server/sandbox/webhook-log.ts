/**
 * The log of webhook deliveries GET /_sandbox/webhooks reads, oldest first. It keeps LOG_LIMIT
 * deliveries (older finished ones make room in a long-running sandbox) and hands them out a page
 * at a time: listing ten thousand deliveries with their signed bodies in one answer took the
 * sandbox's memory to 800 MB under a soak.
 */
import type { Delivery } from './webhook-sender.js';

/** Makes room a tenth of the limit at a time, so that a full log is not copied on every send. */
export const LOG_LIMIT = 10_000;
const LOG_SLACK = LOG_LIMIT / 10;

export interface DeliveryPage {
  readonly deliveries: readonly Delivery[];
  /** Where the next page starts (`after`): every delivery up to it has been looked at. */
  readonly cursor: number;
  /** Whether deliveries past the cursor match too. */
  readonly more: boolean;
}

const finished = (delivery: Delivery) => delivery.status === 'delivered' || delivery.status === 'failed' || delivery.status === 'dropped';

export class DeliveryLog {
  #deliveries: Delivery[] = [];
  /** Each delivery's place in the log, rising; not restarted by clear, so an old cursor lists what came since. */
  #positions: number[] = [];
  #lastPosition = 0;

  add(...deliveries: Delivery[]): void {
    for (const delivery of deliveries) {
      this.#deliveries.push(delivery);
      this.#positions.push((this.#lastPosition += 1));
    }
    if (this.#deliveries.length > LOG_LIMIT + LOG_SLACK) this.#makeRoom();
  }

  all(): readonly Delivery[] {
    return this.#deliveries;
  }

  clear(): void {
    this.#deliveries = [];
    this.#positions = [];
  }

  /** Up to `limit` deliveries past `after` that match, oldest first. */
  page(after: number, limit: number, matches: (delivery: Delivery) => boolean): DeliveryPage {
    const listed: Delivery[] = [];
    let cursor = after;
    for (let i = this.#firstAfter(after); i < this.#deliveries.length; i += 1) {
      const delivery = this.#deliveries[i]!;
      if (!matches(delivery)) continue;
      if (listed.length === limit) return { deliveries: listed, cursor, more: true };
      listed.push(delivery);
      cursor = this.#positions[i]!;
    }
    return { deliveries: listed, cursor: Math.max(cursor, this.#positions.at(-1) ?? 0), more: false };
  }

  /** The index of the first delivery placed after `after` (binary search: positions rise). */
  #firstAfter(after: number): number {
    let low = 0;
    let high = this.#positions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#positions[middle]! <= after) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #makeRoom(): void {
    let excess = this.#deliveries.length - LOG_LIMIT;
    const deliveries: Delivery[] = [];
    const positions: number[] = [];
    this.#deliveries.forEach((delivery, i) => {
      if (excess > 0 && finished(delivery)) {
        excess -= 1;
        return;
      }
      deliveries.push(delivery);
      positions.push(this.#positions[i]!);
    });
    this.#deliveries = deliveries;
    this.#positions = positions;
  }
}
