/**
 * Card testing from one client network: the declines its pay attempts were answered are counted
 * over a sliding DECLINE_WINDOW_MS, and once they reach the network's allowance its next attempt
 * begins a cool-down — every pay and hosted attempt from it refused 429 — of FIRST_COOL_DOWN_MS,
 * twice as long at each strike while its last one is remembered, up to LONGEST_COOL_DOWN_MS. A
 * network is an IPv4 address or an IPv6 /64, and an IPv6 client's /48 is counted too
 * (pay-limits.ts sets the allowances). Kept in this process, as the rate limits are, and bounded
 * like them.
 *
 * The window slides: each network's declines are kept for the current window and the one before,
 * the earlier one weighed by how much of it the last DECLINE_WINDOW_MS still covers, so declines
 * timed either side of a window's end are counted together (a trial ran 37 in 52 s across one).
 */
import { clientNetwork, wideNetwork } from '../http/client-address.js';

export const DECLINE_WINDOW_MS = 15 * 60_000;
export const FIRST_COOL_DOWN_MS = 15 * 60_000;
export const LONGEST_COOL_DOWN_MS = 4 * 60 * 60_000;
/** A network that strikes again within this long of its last cool-down's end waits twice as long. */
const STRIKES_KEPT_MS = 24 * 60 * 60_000;
/** Networks cooling down passed over when one must be forgotten for a new one, at most. */
const COOLING_SKIPPED = 16;
/** As many networks as the rate limits hold clients (about 100 bytes each). */
const DEFAULT_MAX_KEYS = 100_000;
/**
 * The share of a network's decided payments in its window that must be declines, beside their
 * number: a shop's customers behind one address (an office, a carrier's NAT, a proxy the operator
 * trusts wrongly) pay far more than they are declined, where a card tester is declined nearly
 * always.
 */
export const DECLINE_SHARE = 0.8;
/**
 * From this many times its allowance a network is cooled down whatever its share: a card tester
 * whose list holds live cards is paid too (a quarter of them live kept a trial's 75 declines under
 * the share), where customers behind one address are not declined sixty times in a window.
 */
export const SHARE_IGNORED_FROM = 3;

interface NetworkDeclines {
  /** Declines in the current window, and in the one before it. */
  count: number;
  before: number;
  /** Payments of the network that succeeded (counted only once it has a decline), likewise. */
  paid: number;
  paidBefore: number;
  windowEndsAt: number;
  coolsUntil: number;
  strikes: number;
}

export interface CoolDown {
  readonly retryAfterMs: number;
  /** Set when this attempt began it: the declines that led to it, and which strike it is. */
  readonly began?: { readonly declines: number; readonly strike: number };
}

export interface BusyNetwork {
  readonly network: string;
  readonly declines: number;
}

export class ClientDeclines {
  readonly #clock: () => number;
  readonly #maxKeys: number;
  /** Roughly in the order they last began a window or a cool-down, so the forgotten ones lead. */
  readonly #networks = new Map<string, NetworkDeclines>();

  constructor(clock: () => number, maxKeys = DEFAULT_MAX_KEYS) {
    this.#clock = clock;
    this.#maxKeys = maxKeys;
  }

  /** Networks held. */
  get size(): number {
    return this.#networks.size;
  }

  /** A pay attempt from `address` was declined: counted for its network and, for IPv6, its /48. */
  note(address: string): void {
    const now = this.#clock();
    this.#dropForgotten(now);
    const network = clientNetwork(address);
    this.#count(network, now);
    const wide = wideNetwork(network);
    if (wide !== undefined) this.#count(wide, now);
  }

  /** A pay attempt from `address` succeeded: counted for a network (and /48) already declined in its window. */
  paid(address: string): void {
    const now = this.#clock();
    const network = clientNetwork(address);
    this.#paid(network, now);
    const wide = wideNetwork(network);
    if (wide !== undefined) this.#paid(wide, now);
  }

  /**
   * The cool-down `network` is in; or the one its attempt begins now, its declines in the window
   * having reached `allowance` and DECLINE_SHARE of its decided payments; else undefined: it may pay.
   */
  coolDown(network: string, allowance: number): CoolDown | undefined {
    const declines = this.#networks.get(network);
    if (declines === undefined) return undefined;
    const now = this.#clock();
    if (declines.coolsUntil > now) return { retryAfterMs: declines.coolsUntil - now };
    const counted = lastWindow(declines.count, declines.before, declines.windowEndsAt, now);
    if (counted < allowance) return undefined;
    if (counted < SHARE_IGNORED_FROM * allowance && counted < DECLINE_SHARE * (counted + lastWindow(declines.paid, declines.paidBefore, declines.windowEndsAt, now))) return undefined;
    declines.strikes += 1;
    const coolMs = Math.min(FIRST_COOL_DOWN_MS * 2 ** (declines.strikes - 1), LONGEST_COOL_DOWN_MS);
    const began = { declines: Math.round(counted), strike: declines.strikes };
    declines.count = declines.before = declines.paid = declines.paidBefore = 0;
    declines.coolsUntil = now + coolMs;
    this.#moveLast(network, declines);
    return { retryAfterMs: coolMs, began };
  }

  /** The `count` networks declined most in the last window, most first: for the burst warning. */
  busiest(count: number): BusyNetwork[] {
    const now = this.#clock();
    const busy: BusyNetwork[] = [];
    for (const [network, declines] of this.#networks) {
      const counted = Math.round(lastWindow(declines.count, declines.before, declines.windowEndsAt, now));
      if (counted > 0) busy.push({ network, declines: counted });
    }
    return busy.sort((a, b) => b.declines - a.declines).slice(0, count);
  }

  #paid(network: string, now: number): void {
    const declines = this.#networks.get(network);
    if (declines === undefined) return;
    this.#slide(network, declines, now);
    if (declines.count + declines.before > 0) declines.paid += 1;
  }

  #count(network: string, now: number): void {
    let declines = this.#networks.get(network);
    if (declines === undefined) {
      if (this.#networks.size >= this.#maxKeys) this.#forgetOne(now);
      declines = { count: 0, before: 0, paid: 0, paidBefore: 0, windowEndsAt: now + DECLINE_WINDOW_MS, coolsUntil: 0, strikes: 0 };
      this.#networks.set(network, declines);
    } else {
      this.#slide(network, declines, now);
    }
    declines.count += 1;
  }

  /** Moves a network's windows on to the one `now` is in: the window before is kept, older ones are gone. */
  #slide(network: string, declines: NetworkDeclines, now: number): void {
    if (declines.windowEndsAt > now) return;
    const adjacent = declines.windowEndsAt + DECLINE_WINDOW_MS > now;
    declines.before = adjacent ? declines.count : 0;
    declines.paidBefore = adjacent ? declines.paid : 0;
    declines.count = declines.paid = 0;
    // A network quiet for longer begins its windows afresh at its next decline.
    declines.windowEndsAt = adjacent ? declines.windowEndsAt + DECLINE_WINDOW_MS : now + DECLINE_WINDOW_MS;
    this.#moveLast(network, declines);
  }

  #moveLast(network: string, declines: NetworkDeclines): void {
    this.#networks.delete(network);
    this.#networks.set(network, declines);
  }

  /**
   * Room for one more network, full: the one longest unmoved that is not cooling down — among the
   * first few, so a flood of new addresses cannot end a card tester's cool-down — else the first.
   */
  #forgetOne(now: number): void {
    let looked = 0;
    for (const [network, declines] of this.#networks) {
      if (declines.coolsUntil <= now) return void this.#networks.delete(network);
      if ((looked += 1) === COOLING_SKIPPED) break;
    }
    this.#networks.delete(this.#networks.keys().next().value!);
  }

  // Stops at the first network still remembered: one cooled down lately may keep a few forgotten
  // ones behind it a while, never past maxKeys.
  #dropForgotten(now: number): void {
    for (const [network, declines] of this.#networks) {
      const remembered = declines.windowEndsAt + DECLINE_WINDOW_MS > now || (declines.strikes > 0 && declines.coolsUntil + STRIKES_KEPT_MS > now);
      if (remembered) return;
      this.#networks.delete(network);
    }
  }
}

/**
 * A count over the last DECLINE_WINDOW_MS, at `now`: the current window's, and the window
 * before's weighed by the share of it still inside (all of it as the current one begins, none as
 * it ends); a window ended since is the one before, as it will be once the next begins.
 */
function lastWindow(current: number, before: number, windowEndsAt: number, now: number): number {
  if (windowEndsAt > now) return current + (before * (windowEndsAt - now)) / DECLINE_WINDOW_MS;
  if (windowEndsAt + DECLINE_WINDOW_MS > now) return (current * (windowEndsAt + DECLINE_WINDOW_MS - now)) / DECLINE_WINDOW_MS;
  return 0;
}
