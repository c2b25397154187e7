// What a commit's durability means to the ledger's callers, kept apart from the SQLite driver
// (sqlite.ts) because @payform/companion's published types name it: a merchant's TypeScript
// must compile without better-sqlite3's types, which only the driver's declarations need
// (e2e/packages/types.test.ts).

/** Told of each commit that wrote: whether the WAL was synced before the commit returned. */
export type CommitObserver = (commit: { readonly synced: boolean }) => void;

/** The outage code of a ledger whose commit could not be synced (availability.ts: a 503). */
export const NOT_DURABLE = 'PAYFORM_LEDGER_NOT_DURABLE';

/**
 * A commit is in the WAL, but syncing the WAL to the disk failed (or the WAL, or the ledger file
 * itself, was deleted from under the open file): it may not survive a power loss, or a restart
 * would not read it — and, the disk having refused, neither may anything written after it. The
 * ledger stops: this commit and every later statement fail with this error (code
 * PAYFORM_LEDGER_NOT_DURABLE, an outage: 503 and a retry) until the companion is restarted on a
 * disk that works. A caller must not run the committed work again (group-commit.ts).
 */
export class LedgerNotDurable extends Error {
  readonly code = NOT_DURABLE;
  /** The ledger file whose WAL could not be synced. */
  readonly ledgerFile: string | undefined;
  /** The ledger file was deleted, moved or replaced under it: where what it held is saved (file-gone.ts). */
  readonly savedTo: string | undefined;
  /** Resolves once it is saved there: only then does a restart keep it. */
  readonly saved: Promise<void> | undefined;
  /**
   * The WAL itself was deleted under the open file (not a disk that failed): whether what it held
   * was written into the ledger file at once ('kept': a restart, even a kill, loses nothing) or is
   * still only in the deleted log ('held': stopping cleanly writes it in, a kill loses it).
   */
  readonly walGone: 'kept' | 'held' | undefined;
  constructor(cause: unknown, file?: string, { savedTo, saved, walGone }: { savedTo?: string; saved?: Promise<void>; walGone?: 'kept' | 'held' } = {}) {
    super(notDurableMessage(file, savedTo, walGone), { cause });
    this.name = 'LedgerNotDurable';
    this.ledgerFile = file;
    this.savedTo = savedTo;
    this.saved = saved;
    this.walGone = walGone;
  }
}

function notDurableMessage(file: string | undefined, savedTo: string | undefined, walGone: 'kept' | 'held' | undefined): string {
  if (savedTo !== undefined) return `the SQLite ledger file ${file} was deleted, moved or replaced while open: it takes no more writes, and what it held is saved to ${savedTo} for the next start`;
  if (walGone === 'kept') return `the write-ahead log of the SQLite ledger file ${file} was deleted while open: what it held is written into ${file}, and it takes no more writes until the companion is restarted`;
  if (walGone === 'held') {
    return `the write-ahead log of the SQLite ledger file ${file} was deleted while open: it takes no more writes, and what the log held reaches ${file} only as the companion stops cleanly (SIGTERM)`;
  }
  return `the SQLite ledger could not sync its write-ahead log to the disk: it takes no more writes until the companion is restarted (check the disk holding ${file ?? 'the ledger file'})`;
}
