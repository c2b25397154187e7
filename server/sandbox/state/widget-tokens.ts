/**
 * Tokens of the card tokenizer (POST /api/v1/sdk/tokenize): single-use and short-lived, unlike
 * the card tokens a successful payment issues (tokens.ts). Paying redeems one; a token redeemed
 * once, or past its expiry by the sandbox clock, pays no more.
 *
 * A token is let go a while after its expiry (FORGET_AFTER_EXPIRY_MS), so a sandbox under load
 * holds only the tokens of the last half hour or so. Every token carries a tag of the project it
 * was issued to, so one let go is still told from a token never issued: it answers `expired`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { randomHex } from './identifiers.js';
import type { CardOnFile } from './records.js';

interface HeldCard {
  readonly posId: string;
  /** Undefined once the token is spent: nothing but its expiry is kept. */
  card: CardOnFile | undefined;
  readonly expiresAt: Date;
}

export type Redemption =
  | { readonly kind: 'card'; readonly card: CardOnFile }
  | { readonly kind: 'expired' | 'spent' }
  | undefined;

/** How long past its expiry a token is kept, so a replay soon after still reads `spent`. */
export const FORGET_AFTER_EXPIRY_MS = 15 * 60_000;

const RANDOM_HEX = 32;
const TAG_BYTES = 8;

export class WidgetTokens {
  /** In the order issued, which is the order of expiry while the clock goes forward. */
  readonly #held = new Map<string, HeldCard>();
  /** Signs the tags; a new one on clear, so a token from before a reset is unknown. */
  #tagKey = randomBytes(32);

  issue(posId: string, card: CardOnFile, expiresAt: Date, now: Date): string {
    this.#forgetOld(now.getTime());
    const random = randomHex(RANDOM_HEX / 2);
    const token = random + this.#tag(posId, random);
    this.#held.set(token, { posId, card, expiresAt });
    return token;
  }

  /** The card behind a token of `posId`, taking the token out of use; undefined for a token it never issued to that project. */
  redeem(posId: string, token: string, now: Date): Redemption {
    this.#forgetOld(now.getTime());
    const held = this.#held.get(token);
    if (!held) return this.#issuedTo(posId, token) ? { kind: 'expired' } : undefined;
    if (held.posId !== posId) return undefined;
    if (!held.card) return { kind: 'spent' };
    const card = held.card;
    held.card = undefined;
    return now.getTime() > held.expiresAt.getTime() ? { kind: 'expired' } : { kind: 'card', card };
  }

  /** How many tokens are held, spent or not. */
  get size(): number {
    return this.#held.size;
  }

  clear(): void {
    this.#held.clear();
    this.#tagKey = randomBytes(32);
  }

  /**
   * Lets go of the oldest tokens once past their expiry and the margin: each token is looked at
   * once when it goes, and one still kept ends the sweep. Should the clock go back (the host's
   * time; a reset clears everything), a token issued after it waits behind an older one.
   */
  #forgetOld(nowMs: number): void {
    for (const [token, held] of this.#held) {
      if (held.expiresAt.getTime() + FORGET_AFTER_EXPIRY_MS > nowMs) return;
      this.#held.delete(token);
    }
  }

  #tag(posId: string, random: string): string {
    return createHmac('sha256', this.#tagKey).update(posId).update(':').update(random).digest('hex').slice(0, TAG_BYTES * 2);
  }

  /** Whether `token` is one this sandbox issued to `posId` since the last reset. */
  #issuedTo(posId: string, token: string): boolean {
    if (token.length !== RANDOM_HEX + TAG_BYTES * 2 || !/^[\da-f]+$/.test(token)) return false;
    return this.#tag(posId, token.slice(0, RANDOM_HEX)) === token.slice(RANDOM_HEX);
  }
}
