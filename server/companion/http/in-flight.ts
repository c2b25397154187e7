/**
 * Work under way that shutdown must let finish before the ledger closes: requests being handled,
 * and what a webhook's answer did not wait for (the merchant's hook). `drained(ms)` waits for
 * all of it — and for what it starts meanwhile — but never longer than `ms`.
 */
export class InFlight {
  #count = 0;
  /** Who waits for the count to reach zero. */
  readonly #idle: Array<() => void> = [];
  /**
   * One callback for every piece of work, not two closures and a Set entry each: the companion
   * tracks every request it serves (start.ts).
   */
  readonly #settled = (): void => {
    this.#count -= 1;
    if (this.#count === 0) for (const wake of this.#idle.splice(0)) wake();
  };

  /** How much is under way. */
  get size(): number {
    return this.#count;
  }

  /** Follows `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#count += 1;
    void work.then(this.#settled, this.#settled);
    return work;
  }

  /** True once nothing is under way; false when `timeoutMs` passed first. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.#count === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    // Work started meanwhile, even as the last piece settles, is waited for too.
    const everything = (async () => {
      while (this.#count > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
      return true as const;
    })();
    try {
      return await Promise.race([everything, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Waits for `work`, but no longer than `timeoutMs`; the work carries on either way. */
export async function waitAtMost(work: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
