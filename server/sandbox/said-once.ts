/**
 * What the sandbox has already said, so that a cause is logged once rather than at every request
 * or retry that meets it again: a client retrying a 401, a page's origin refused at each call, a
 * webhook receiver failing each attempt. Bounded, so that a scan of made-up keys, origins or URLs
 * cannot grow it: once full it forgets everything, and what comes again is said again.
 */
export class SaidOnce {
  readonly #said = new Set<string>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** True the first time `key` comes (it is then said); false while it is remembered. */
  first(key: string): boolean {
    if (this.#said.has(key)) return false;
    if (this.#said.size >= this.#limit) this.#said.clear();
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
