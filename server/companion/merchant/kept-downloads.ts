/**
 * A day's receipts ZIP, fetched from the gateway when its link is issued (report-routes.ts), kept
 * on that instance for the link's minute: following the link serves those bytes, so the gateway
 * builds the day's ZIP once, and cannot fail between the page's check and the browser's download.
 * A follow that finds nothing here (another instance issued the link, or the copy was dropped to
 * stay under the cap) asks the gateway again, as a link always could.
 */
import type { GatewayDocument } from '@payform/gateway';
import type { CompanionServices } from '../context.js';

/**
 * The bytes kept in all, on an instance: as much as the gateway client takes for one document
 * (server/gateway/wire/routes.ts), so the largest day fits (but for the entry's own cost), a few
 * ordinary ones fit together, and keeping costs a process at most one more download in memory.
 */
export const KEPT_BYTES = 64 * 1024 * 1024;

/** What holding a copy costs besides its body (its key, its record, the map's slot): charged to the cap. */
const ENTRY_BYTES = 512;

interface Kept {
  readonly document: GatewayDocument;
  readonly expiresAt: number;
  readonly bytes: number;
}

export class KeptDownloads {
  readonly #capBytes: number;
  readonly #clock: () => number;
  /** In the order kept: every link lasts a minute, so the first to expire lead. */
  readonly #kept = new Map<string, Kept>();
  #bytes = 0;

  constructor(clock: () => number, capBytes = KEPT_BYTES) {
    this.#clock = clock;
    this.#capBytes = capBytes;
  }

  /** Bytes held now, each copy's body and its entry. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps the file of link `id` until `expiresAt`, dropping the oldest copies it needs room from; one past the cap alone is not kept. */
  keep(id: string, document: GatewayDocument, expiresAt: number): void {
    this.#dropExpired();
    // The same file asked for again within the second is the same link: the newer copy stands.
    this.#drop(id);
    const bytes = document.body.byteLength + ENTRY_BYTES;
    if (bytes > this.#capBytes) return;
    for (const oldest of this.#kept.keys()) {
      if (this.#bytes + bytes <= this.#capBytes) break;
      this.#drop(oldest);
    }
    this.#kept.set(id, { document, expiresAt, bytes });
    this.#bytes += bytes;
  }

  /** The file kept for link `id`, while it lasts; it stays for the link's other follows (a retried download). */
  find(id: string): GatewayDocument | undefined {
    this.#dropExpired();
    return this.#kept.get(id)?.document;
  }

  #dropExpired(): void {
    const now = this.#clock();
    for (const [id, kept] of this.#kept) {
      if (kept.expiresAt > now) return;
      this.#drop(id);
    }
  }

  #drop(id: string): void {
    const kept = this.#kept.get(id);
    if (!kept) return;
    this.#kept.delete(id);
    this.#bytes -= kept.bytes;
  }
}

/** One store per companion (its services are built once), shared by the route that issues links and the one they lead to. */
const perCompanion = new WeakMap<CompanionServices, KeptDownloads>();

export function keptDownloads(services: CompanionServices): KeptDownloads {
  let kept = perCompanion.get(services);
  if (!kept) perCompanion.set(services, (kept = new KeptDownloads(services.clock)));
  return kept;
}
