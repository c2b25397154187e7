/**
 * Card testing from one client network: the declines its pay attempts were answered are counted
 * over DECLINE_WINDOW_MS, and once they reach the network's allowance its next attempt begins a
 * cool-down — every pay and hosted attempt from it refused 429 — of FIRST_COOL_DOWN_MS, twice as
 * long at each strike while its last one is remembered, up to LONGEST_COOL_DOWN_MS. A network is
 * an IPv4 address or an IPv6 /64, and an IPv6 client's /48 is counted too (pay-limits.ts sets the
 * allowances). Kept in this process, as the rate limits are, and bounded like them.
 */
import { clientNetwork, wideNetwork } from '../http/client-address.js';

export const DECLINE_WINDOW_MS = 15 * 60_000;
export const FIRST_COOL_DOWN_MS = 15 * 60_000;
export const LONGEST_COOL_DOWN_MS = 4 * 60 * 60_000;
/** A network that strikes again within this long of its last cool-down's end waits twice as long. */
const STRIKES_KEPT_MS = 24 * 60 * 60_000;
/** As many networks as the rate limits hold clients (about 100 bytes each). */
const DEFAULT_MAX_KEYS = 100_000;
/**
 * The share of a network's decided payments in its window that must be declines, beside their
 * number: a shop's customers behind one address (an office, a carrier's NAT, a proxy the operator
 * trusts wrongly) pay far more than they are declined, where a card tester is declined nearly
 * always.
 */
export const DECLINE_SHARE = 0.8;

interface NetworkDeclines {
  count: number;
  /** Payments of the network that succeeded in its window (counted only once it has a decline). */
  paid: number;
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
    if (declines.windowEndsAt <= now || declines.count < allowance || declines.count < DECLINE_SHARE * (declines.count + declines.paid)) return undefined;
    declines.strikes += 1;
    const coolMs = Math.min(FIRST_COOL_DOWN_MS * 2 ** (declines.strikes - 1), LONGEST_COOL_DOWN_MS);
    const began = { declines: declines.count, strike: declines.strikes };
    declines.count = declines.paid = 0;
    declines.windowEndsAt = now;
    declines.coolsUntil = now + coolMs;
    this.#moveLast(network, declines);
    return { retryAfterMs: coolMs, began };
  }

  /** The `count` networks declined most in their current windows, most first: for the burst warning. */
  busiest(count: number): BusyNetwork[] {
    const now = this.#clock();
    const busy: BusyNetwork[] = [];
    for (const [network, declines] of this.#networks) {
      if (declines.windowEndsAt > now && declines.count > 0) busy.push({ network, declines: declines.count });
    }
    return busy.sort((a, b) => b.declines - a.declines).slice(0, count);
  }

  #paid(network: string, now: number): void {
    const declines = this.#networks.get(network);
    if (declines !== undefined && declines.windowEndsAt > now) declines.paid += 1;
  }

  #count(network: string, now: number): void {
    let declines = this.#networks.get(network);
    if (declines === undefined) {
      if (this.#networks.size >= this.#maxKeys) this.#networks.delete(this.#networks.keys().next().value!);
      declines = { count: 0, paid: 0, windowEndsAt: now + DECLINE_WINDOW_MS, coolsUntil: 0, strikes: 0 };
      this.#networks.set(network, declines);
    } else if (declines.windowEndsAt <= now) {
      declines.count = declines.paid = 0;
      declines.windowEndsAt = now + DECLINE_WINDOW_MS;
      this.#moveLast(network, declines);
    }
    declines.count += 1;
  }

  #moveLast(network: string, declines: NetworkDeclines): void {
    this.#networks.delete(network);
    this.#networks.set(network, declines);
  }

  // Stops at the first network still remembered: one cooled down lately may keep a few forgotten
  // ones behind it a while, never past maxKeys.
  #dropForgotten(now: number): void {
    for (const [network, declines] of this.#networks) {
      const remembered = declines.windowEndsAt > now || (declines.strikes > 0 && declines.coolsUntil + STRIKES_KEPT_MS > now);
      if (remembered) return;
      this.#networks.delete(network);
    }
  }
}
