/**
 * The companion's decline rate, across every client: card testing spread over many addresses
 * stays under each one's limits, but not under this. A burst begins when the last minute holds
 * at least BURST_DECLINES declines and they are at least BURST_RATIO of the payments decided
 * (success or decline); it is said once, at warn, naming the figures and the busiest client
 * networks, and lasts until both fall below half of that (said at info). Per instance, as the
 * limits are: `payform_decline_burst` is 1 meanwhile.
 */
import type { Logger } from '../log/logger.js';

export const BURST_DECLINES = 20;
export const BURST_RATIO = 0.5;
const MINUTE_MS = 60_000;

/** One minute's decisions, by the clock's whole minutes. */
interface Minute {
  minute: number;
  declines: number;
  decided: number;
}

interface DeclineRateDeps {
  readonly logger: Logger;
  readonly clock: () => number;
  /** The client networks declined most lately (ClientDeclines.busiest). */
  readonly busiest: () => readonly { readonly network: string; readonly declines: number }[];
}

export class DeclineRate {
  readonly #deps: DeclineRateDeps;
  #current: Minute = { minute: 0, declines: 0, decided: 0 };
  #previous: Minute = { minute: 0, declines: 0, decided: 0 };
  /** The burst under way: when it began and the declines since. */
  #burst: { startedAt: number; declines: number } | undefined;

  constructor(deps: DeclineRateDeps) {
    this.#deps = deps;
  }

  /** A payment was decided: declined, or paid. */
  decided(declined: boolean): void {
    const now = this.#deps.clock();
    this.#turn(now);
    this.#current.decided += 1;
    if (declined) {
      this.#current.declines += 1;
      if (this.#burst) this.#burst.declines += 1;
    }
    this.#judge(now);
  }

  /** Whether a burst is under way now: one that went quiet since the last payment is ended here. */
  get bursting(): boolean {
    const now = this.#deps.clock();
    this.#turn(now);
    this.#judge(now);
    return this.#burst !== undefined;
  }

  /** Moves the minutes on: the one before the current is kept, older ones are forgotten. */
  #turn(now: number): void {
    const minute = Math.floor(now / MINUTE_MS);
    if (minute === this.#current.minute) return;
    // Reused rather than made anew: this runs for every payment decided.
    const old = this.#previous;
    this.#previous = this.#current;
    this.#current = old;
    if (this.#previous.minute !== minute - 1) this.#previous.declines = this.#previous.decided = 0;
    this.#current.minute = minute;
    this.#current.declines = this.#current.decided = 0;
  }

  /** The last 60 s, with the minute before the current weighed by how much of it they cover. */
  #judge(now: number): void {
    const before = 1 - (now % MINUTE_MS) / MINUTE_MS;
    const declines = this.#current.declines + this.#previous.declines * before;
    const decided = this.#current.decided + this.#previous.decided * before;
    const ratio = decided === 0 ? 0 : declines / decided;
    if (this.#burst === undefined && declines >= BURST_DECLINES && ratio >= BURST_RATIO) {
      this.#burst = { startedAt: now, declines: Math.round(declines) };
      this.#deps.logger.warn(
        'declines spiked across the companion: card testing spread over many client addresses, or an issuer refusing payments; ' +
          'busiest names the client networks declined most in the last 15 minutes (each is cooled down past its own allowance)',
        { declines_per_minute: Math.round(declines), decline_ratio: Math.round(ratio * 100) / 100, busiest: this.#deps.busiest() },
      );
    } else if (this.#burst !== undefined && (declines < BURST_DECLINES / 2 || ratio < BURST_RATIO / 2)) {
      const { startedAt, declines: total } = this.#burst;
      this.#burst = undefined;
      this.#deps.logger.info('declines are back below the burst rate', { declines: total, minutes: Math.max(1, Math.round((now - startedAt) / MINUTE_MS)) });
    }
  }
}
