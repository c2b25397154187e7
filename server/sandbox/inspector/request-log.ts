/**
 * The inspector's memory: the last requests the sandbox answered, masked, in a bounded ring
 * (the oldest makes room). Each request is numbered when it starts (`id`, which the webhooks it
 * causes carry) and gets a place in the ring when it ends (`cursor`), so a poller that asks for
 * what came after its cursor misses nothing, however long a request took.
 */
import type { InspectorNote } from './notes.js';

/**
 * A recorded request's number. Handlers read it from the Hono context (`requestId`, set by
 * inspector/recorder.ts) and pass it on as the `cause` of what they change, down to the webhooks
 * sent; a task scheduled for later captures it, so its webhook still names that request.
 */
export type RequestId = number;

/** One answered request, card data and credentials masked. */
export interface RecordedRequest {
  readonly id: RequestId;
  /** Sandbox time when it came in. */
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  /** Parsed JSON or form fields, else the text; null without a body. */
  readonly body: unknown;
  readonly status: number;
  readonly response: { readonly headers: Readonly<Record<string, string>>; readonly body: unknown };
  readonly duration_ms: number;
  readonly notes: readonly InspectorNote[];
}

export const REQUEST_LOG_LIMIT = 500;

interface Entry {
  readonly cursor: number;
  request: RecordedRequest | (() => RecordedRequest);
}

export class RequestLog {
  readonly #limit: number;
  /**
   * A ring once full: the newest overwrites the oldest, at `#oldest`. Dropping the oldest from
   * the front of an array instead moved all 500 entries on every request a payment makes.
   */
  #entries: Entry[] = [];
  #oldest = 0;
  #nextId = 1;
  #cursor = 0;

  constructor(limit = REQUEST_LOG_LIMIT) {
    this.#limit = limit;
  }

  /** A number for a request that is starting. */
  nextId(): RequestId {
    return this.#nextId++;
  }

  /** A request that has been answered, or how to describe it when first listed (inspector/recorder.ts). */
  add(request: RecordedRequest | (() => RecordedRequest)): void {
    this.#cursor += 1;
    if (this.#limit <= 0) return;
    const entry = { cursor: this.#cursor, request };
    if (this.#entries.length < this.#limit) {
      this.#entries.push(entry);
    } else {
      this.#entries[this.#oldest] = entry;
      this.#oldest = (this.#oldest + 1) % this.#limit;
    }
  }

  /** Requests recorded after `cursor` (all without one), newest first, and the cursor to ask from next. */
  since(cursor = 0): { readonly requests: RecordedRequest[]; readonly cursor: number } {
    const requests: RecordedRequest[] = [];
    const count = this.#entries.length;
    // Newest first; cursors grow from the oldest entry to the newest.
    for (let back = count - 1; back >= 0; back -= 1) {
      const entry = this.#entries[(this.#oldest + back) % count]!;
      if (entry.cursor <= cursor) break;
      if (typeof entry.request === 'function') entry.request = entry.request();
      requests.push(entry.request);
    }
    return { requests, cursor: this.#cursor };
  }

  /** Forgets every request (reset); ids and cursors go on, so a poller's cursor stays meaningful. */
  clear(): void {
    this.#entries = [];
    this.#oldest = 0;
  }
}
