/**
 * Tokens of the card tokenizer (POST /api/v1/sdk/tokenize): single-use and short-lived, unlike
 * the card tokens a successful payment issues (tokens.ts). Paying redeems one; a token redeemed
 * once, or past its expiry by the sandbox clock, pays no more.
 */
import { randomHex } from './identifiers.js';
import type { CardOnFile } from './records.js';

interface HeldCard {
  readonly posId: string;
  readonly card: CardOnFile;
  readonly expiresAt: Date;
}

export type Redemption =
  | { readonly kind: 'card'; readonly card: CardOnFile }
  | { readonly kind: 'expired' | 'spent' }
  | undefined;

export class WidgetTokens {
  readonly #held = new Map<string, HeldCard>();
  readonly #spent = new Set<string>();

  issue(posId: string, card: CardOnFile, expiresAt: Date): string {
    const token = randomHex(24);
    this.#held.set(token, { posId, card, expiresAt });
    return token;
  }

  /** The card behind a token of `posId`, taking the token out of use; undefined for a token it never issued to that project. */
  redeem(posId: string, token: string, now: Date): Redemption {
    if (this.#spent.has(token)) return { kind: 'spent' };
    const held = this.#held.get(token);
    if (held?.posId !== posId) return undefined;
    this.#held.delete(token);
    this.#spent.add(token);
    return now.getTime() > held.expiresAt.getTime() ? { kind: 'expired' } : { kind: 'card', card: held.card };
  }

  clear(): void {
    this.#held.clear();
    this.#spent.clear();
  }
}
