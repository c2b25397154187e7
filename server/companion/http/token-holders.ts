/**
 * Clients that sent the right admin or metrics token lately. Past the wrong-token limit a client
 * is refused 429 whatever it sends — a right guess included, so the answer tells a guesser
 * nothing — unless it is one of these: the merchant's own server and staff keep passing while a
 * stranger who shares their address (localhost, a proxy not trusted) guesses beside them. Kept
 * in the ledger too (`HolderRecords`), so that a restart, a deploy or a new instance does not
 * forget them and let that stranger lock the merchant out until it stops.
 */
import { TOKEN_HOLDER_KEPT_MS } from '../../ledger/index.js';

/** Enough for every merchant's server and office; the oldest is forgotten first. */
const MAX_HOLDERS = 10_000;
/** How often a holder's time is written again: well inside its day. */
const RECORD_EVERY_MS = 60 * 60_000;

/** Where the holders outlive this process: the ledger, which every instance shares. */
export interface HolderRecords {
  recordTokenHolder(client: string, at: number): Promise<void>;
  tokenHolderSince(client: string): Promise<number | undefined>;
}

export class TokenHolders {
  readonly #seenAt = new Map<string, number>();
  readonly #recordedAt = new Map<string, number>();

  /** `records`: the ledger; `failed`: told when it could not be read or written (the memory stands alone then). */
  constructor(
    private readonly records?: HolderRecords,
    private readonly failed: (error: unknown) => void = () => {},
  ) {}

  has(client: string, now: number): boolean {
    const at = this.#seenAt.get(client);
    return at !== undefined && now - at < TOKEN_HOLDER_KEPT_MS;
  }

  /** `has`, or held as the ledger remembers from before this process (read only past the limit: a 429's rare path). */
  async heldBefore(client: string, now: number): Promise<boolean> {
    if (this.has(client, now)) return true;
    const at = await this.records?.tokenHolderSince(client).catch((error: unknown) => void this.failed(error));
    if (at === undefined) return false;
    this.#remember(this.#seenAt, client, at);
    this.#remember(this.#recordedAt, client, at);
    return this.has(client, now);
  }

  add(client: string, now: number): void {
    this.#remember(this.#seenAt, client, now);
    const recorded = this.#recordedAt.get(client);
    if (!this.records || (recorded !== undefined && now - recorded < RECORD_EVERY_MS)) return;
    this.#remember(this.#recordedAt, client, now);
    // Not awaited: the request it came with does not wait for a write that only a later start reads.
    this.records.recordTokenHolder(client, now).catch((error: unknown) => {
      this.#recordedAt.delete(client);
      this.failed(error);
    });
  }

  #remember(times: Map<string, number>, client: string, at: number): void {
    times.delete(client);
    times.set(client, at);
    if (times.size > MAX_HOLDERS) times.delete(times.keys().next().value!);
  }
}
