/**
 * Fixed-window request counters: so many pay attempts per checkout session and per client
 * address in each window against card testing (then 429 with Retry-After), one order-state read
 * per returning session. Counters live in this process (each instance counts for itself) and
 * are bounded: ended windows are dropped as time passes, and past `maxKeys` the oldest window
 * is given up for the new one.
 */
export interface RateDecision {
  readonly allowed: boolean;
  /** When the window ends, for Retry-After. */
  readonly retryAfterMs: number;
  /** The request that went past the limit: the first refused in its window (worth one log line). */
  readonly justExceeded: boolean;
  /** Requests counted in the window so far. */
  readonly count: number;
}

/** Enough for every client of one busy instance within a window; about 15 MB at most. */
const DEFAULT_MAX_KEYS = 100_000;

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #clock: () => number;
  readonly #maxKeys: number;
  /** In the order the windows started (a restarted window moves to the end), so ended ones lead. */
  readonly #windows = new Map<string, { count: number; endsAt: number }>();

  constructor(limit: number, windowMs: number, clock: () => number, maxKeys = DEFAULT_MAX_KEYS) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#clock = clock;
    this.#maxKeys = maxKeys;
  }

  /** Requests allowed for a key in each window, unless another limit is asked for. */
  get limit(): number {
    return this.#limit;
  }

  /** Counters held. */
  get size(): number {
    return this.#windows.size;
  }

  /** Counts one request for `key`, allowed up to `limit` in its window (the limiter's own by default). */
  take(key: string, limit = this.#limit): RateDecision {
    const now = this.#clock();
    this.#dropEnded(now);
    let window = this.#windows.get(key);
    if (!window) {
      if (this.#windows.size >= this.#maxKeys) this.#windows.delete(this.#windows.keys().next().value!);
      window = { count: 0, endsAt: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { allowed: window.count <= limit, retryAfterMs: window.endsAt - now, justExceeded: window.count === limit + 1, count: window.count };
  }

  /** Takes back one request counted for `key` in the current window: one the server could not serve. */
  giveBack(key: string): void {
    const window = this.#windows.get(key);
    if (window && window.endsAt > this.#clock() && window.count > 0) window.count -= 1;
  }

  /** Whether `key` is past its limit (the limiter's own by default) in the current window, without counting a request. */
  check(key: string, limit = this.#limit): RateDecision {
    const now = this.#clock();
    const window = this.#windows.get(key);
    if (!window || window.endsAt <= now) return { allowed: true, retryAfterMs: 0, justExceeded: false, count: 0 };
    return { allowed: window.count <= limit, retryAfterMs: window.endsAt - now, justExceeded: false, count: window.count };
  }

  // Every window lasts as long, so the ended ones are at the front: the cost is what is dropped.
  #dropEnded(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.endsAt > now) return;
      this.#windows.delete(key);
    }
  }
}
