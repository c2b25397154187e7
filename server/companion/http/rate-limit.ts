/**
 * Fixed-window request counters against card testing: so many pay attempts per checkout
 * session and per client address in each window, then 429 with Retry-After. Counters live in
 * this process (each instance counts for itself); idle keys are dropped as windows pass.
 */
export interface RateDecision {
  readonly allowed: boolean;
  /** When the window ends, for Retry-After. */
  readonly retryAfterMs: number;
}

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #clock: () => number;
  readonly #windows = new Map<string, { count: number; endsAt: number }>();

  constructor(limit: number, windowMs: number, clock: () => number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#clock = clock;
  }

  /** Counts one request for `key`. */
  take(key: string): RateDecision {
    const now = this.#clock();
    if (this.#windows.size > 10_000) this.#prune(now);
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { allowed: window.count <= this.#limit, retryAfterMs: window.endsAt - now };
  }

  #prune(now: number): void {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
  }
}
