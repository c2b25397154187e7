/**
 * Work under way that shutdown must let finish before the ledger closes: requests being handled,
 * and what a webhook's answer did not wait for (the merchant's hook). `drained(ms)` waits for
 * all of it — and for what it starts meanwhile — but never longer than `ms`.
 */
export class InFlight {
  readonly #pending = new Set<Promise<unknown>>();

  /** How much is under way. */
  get size(): number {
    return this.#pending.size;
  }

  /** Follows `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.#pending.add(settled);
    void settled.then(() => this.#pending.delete(settled));
    return work;
  }

  /** True once nothing is under way; false when `timeoutMs` passed first. */
  async drained(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const everything = (async () => {
      while (this.#pending.size > 0) await Promise.all(this.#pending);
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
