/**
 * Clients that sent the right admin or metrics token lately. Past the wrong-token limit a client
 * is refused 429 whatever it sends — a right guess included, so the answer tells a guesser
 * nothing — unless it is one of these: the merchant's own server and staff keep passing while a
 * stranger who shares their address (localhost, a proxy not trusted) guesses beside them.
 */
const KEPT_MS = 24 * 60 * 60_000;
/** Enough for every merchant's server and office; the oldest is forgotten first. */
const MAX_HOLDERS = 10_000;

export class TokenHolders {
  readonly #seenAt = new Map<string, number>();

  has(client: string, now: number): boolean {
    const at = this.#seenAt.get(client);
    return at !== undefined && now - at < KEPT_MS;
  }

  add(client: string, now: number): void {
    this.#seenAt.delete(client);
    this.#seenAt.set(client, now);
    if (this.#seenAt.size > MAX_HOLDERS) this.#seenAt.delete(this.#seenAt.keys().next().value!);
  }
}
