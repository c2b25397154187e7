/**
 * What the sandbox has already said, so that a cause is logged once rather than at every request
 * or retry that meets it again: a client retrying a 401, a page's origin refused at each call, a
 * webhook receiver failing each attempt. Bounded twice, so that a scan of made-up keys, origins
 * or URLs can grow neither the memory nor the log: once full it forgets everything and says
 * what comes again, but at most once a minute; until then a new key is not said.
 */
export class SaidOnce {
  readonly #said = new Set<string>();
  readonly #limit: number;
  readonly #now: () => number;
  #startedAt = -Infinity;

  constructor(limit: number, now: () => number = () => performance.now()) {
    this.#limit = limit;
    this.#now = now;
  }

  /** True the first time `key` comes (it is then said); false while it is remembered, or while a flood is held back. */
  first(key: string): boolean {
    if (this.#said.has(key)) return false;
    if (this.#said.size >= this.#limit) {
      if (this.#now() - this.#startedAt < START_OVER_MS) return false;
      this.#said.clear();
    }
    if (this.#said.size === 0) this.#startedAt = this.#now();
    this.#said.add(key);
    return true;
  }

  /** Nothing is remembered: a check on a hot path's good outcome can stop here, building no key. */
  get empty(): boolean {
    return this.#said.size === 0;
  }

  /** `key` will be said again: what it was about went away (a receiver answered). */
  forget(key: string): void {
    this.#said.delete(key);
  }

  clear(): void {
    this.#said.clear();
  }
}

/** How often a full memory may start over: at most `limit` lines a minute, however many keys come. */
const START_OVER_MS = 60_000;
