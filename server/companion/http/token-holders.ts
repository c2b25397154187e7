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
  tokenHolders(): Promise<ReadonlyMap<string, number>>;
}

export class TokenHolders {
  readonly #seenAt = new Map<string, number>();
  readonly #recordedAt = new Map<string, number>();
  /** The ledger's holders, read once as the companion starts: no request waits on the database for them. */
  #loading: Promise<void> | undefined;

  /** `records`: the ledger; `failed`: told when it could not be read or written (the memory stands alone then). */
  constructor(
    private readonly records?: HolderRecords,
    private readonly failed: (error: unknown) => void = () => {},
  ) {
    this.#loading = records
      ?.tokenHolders()
      .then((holders) => {
        for (const [client, at] of holders) {
          if (!this.#seenAt.has(client)) this.#remember(this.#seenAt, client, at);
          this.#remember(this.#recordedAt, client, at);
        }
      })
      .catch((error: unknown) => this.failed(error))
      .finally(() => (this.#loading = undefined));
  }

  /** Settled once the ledger's holders are read (or could not be): a start's own reads done. */
  get loaded(): Promise<void> {
    return this.#loading ?? Promise.resolve();
  }

  has(client: string, now: number): boolean {
    const at = this.#seenAt.get(client);
    return at !== undefined && now - at < TOKEN_HOLDER_KEPT_MS;
  }

  /**
   * `has`, once the ledger's holders are read: the first moments of a start only wait for them.
   * Asked past the limit alone, where a right token's answer must not differ from a wrong one's.
   */
  async heldBefore(client: string, now: number): Promise<boolean> {
    if (this.#loading) await this.#loading;
    return this.has(client, now);
  }

  add(client: string, now: number): void {
    this.#remember(this.#seenAt, client, now);
    const recorded = this.#recordedAt.get(client);
    if (!this.records || (recorded !== undefined && now - recorded < RECORD_EVERY_MS)) return;
    // Taken as recorded before the write ends, and kept so when it fails: a ledger in trouble is
    // asked again in an hour, not at every request.
    this.#remember(this.#recordedAt, client, now);
    // Not awaited: the request it came with does not wait for a write that only a later start reads.
    this.records.recordTokenHolder(client, now).catch((error: unknown) => this.failed(error));
  }

  #remember(times: Map<string, number>, client: string, at: number): void {
    times.delete(client);
    times.set(client, at);
    if (times.size > MAX_HOLDERS) times.delete(times.keys().next().value!);
  }
}
