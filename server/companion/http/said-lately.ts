/**
 * Which keys a notice has said within the last window, at most so many of them: each is said
 * again once the window has passed, so a line that was crowded out or missed is not lost for
 * good, and the keys kept stay bounded.
 */
export class SaidLately {
  private readonly keys = new Set<string>();
  private windowStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly most: number,
    private readonly windowMs: number,
  ) {}

  /** Whether `key` may still be said in this window (nothing is remembered). */
  open(key: string, now: number): boolean {
    if (now - this.windowStart >= this.windowMs) {
      this.keys.clear();
      this.windowStart = now;
    }
    return !this.keys.has(key) && this.keys.size < this.most;
  }

  /** Whether `key` is to be said now: remembered for the rest of the window if so. */
  take(key: string, now: number): boolean {
    if (!this.open(key, now)) return false;
    this.keys.add(key);
    return true;
  }
}
