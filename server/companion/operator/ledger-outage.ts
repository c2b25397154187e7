/**
 * The database going away, as the companion lives through it: every request that needs the
 * ledger meanwhile is answered 503 with Retry-After (failure-problems.ts), and the outage is
 * logged once when it begins — one line, no stack, what to do when the fix is the operator's —
 * and once when it ends, with how long it lasted and how many calls it refused. While it lasts
 * the ledger is probed every second, so the end is noticed (and what waited for it runs) as soon
 * as the database answers again, whether or not a request comes. A disk that refused a write
 * (full, read-only) or a SQLite file another process holds locked still answers reads: then
 * the probe commits a write too. A database that
 * comes and goes (a flaky network resetting connections, a server at max_connections) would
 * begin and end an outage every few seconds: one beginning less than a minute after the last
 * line said is only counted (a debug line), like its end, and the next line said gives the count
 * (`outages_since_last_line`) — a review's connections reset every few seconds logged an error
 * and a warning for each. A SQLite ledger
 * that could not sync its WAL (LedgerNotDurable) is never back: it needs a restart, which
 * `restartNeeded` tells /healthz.
 */
import { DAMAGED_CODES, isLedgerUnavailable, LedgerNotDurable, NOT_DURABLE, onReadOnlyFileSystem, STORAGE_CODES } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/index.js';
import { errorCode } from '../log/error-code.js';
import type { Logger } from '../log/logger.js';

/**
 * Another process holds SQLite's write lock (a second writer on the file, an open transaction):
 * reads go on, so only a committed write says it is over, and /readyz sends no traffic meanwhile.
 * The lock is the whole file's, so the probe's write meets it too.
 */
const LOCK_CODES = /^SQLITE_BUSY$/;

/** How often a down ledger is asked again. */
const PROBE_INTERVAL_MS = 1_000;
/** While it lasts, a reminder with the running count at most this often. */
const REMINDER_INTERVAL_MS = 60_000;
/** How long an outage begun right after a "back" line may last unsaid. */
const RELAPSE_GRACE_MS = 5_000;

export interface LedgerOutageDeps {
  readonly ledger: Ledger;
  readonly logger: Logger;
  readonly clock: () => number;
  /** Told of every refused call (the ledger-errors metric). */
  readonly onRefused?: () => void;
  readonly probeIntervalMs?: number;
}

export class LedgerOutage {
  readonly #deps: LedgerOutageDeps;
  #since: number | undefined;
  #refused = 0;
  #remindedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #back: { promise: Promise<void>; resolve: () => void } | undefined;
  #stopped = false;
  /** A refusal of this outage came from the disk: only a committed write says it is over. */
  #writes = false;
  /** What the operator can do about this outage, and what began it, said again in its reminders. */
  #fix: string | undefined;
  #reason: string | undefined;
  /** The last refusal of this outage: its cause may have changed since it began (a restart, then a changed password). */
  #latest: unknown;
  #restartNeeded = false;
  /** The ledger takes no more work (LedgerNotDurable), said once; `restartNeeded` may wait for its save. */
  #dead = false;
  readonly #counted = new WeakSet<object>();
  /** When a line about an outage was last said at warn or error. */
  #saidAt = Number.NEGATIVE_INFINITY;
  /** This outage began less than a minute after the last line: not said until it lasts (a reminder). */
  #quiet = false;
  /** Outages begun and ended without a line since the last one said, and the calls they refused. */
  #unsaid = { outages: 0, refused: 0 };
  /** When the last outage ended (the clock's time). */
  #endedAt = Number.NEGATIVE_INFINITY;
  /** The fix the last line said an outage needs. */
  #saidFix: string | undefined;
  /** The last line said was "the database is back". */
  #saidBack = false;

  constructor(deps: LedgerOutageDeps) {
    this.#deps = deps;
  }

  /** True from the first refused call until the ledger answers a probe. */
  get down(): boolean {
    return this.#since !== undefined;
  }

  /**
   * True while an outage began with a write the disk refused (full, read-only), a damaged file
   * or another process's lock on the SQLite file held up, and no probe has written since: reads may still
   * work, so readiness cannot learn it from its own read. Not for a PostgreSQL statement
   * timeout: the probe's write would not meet the lock of the table it waited for.
   */
  get writesRefused(): boolean {
    return this.#since !== undefined && this.#writes;
  }

  /**
   * The ledger takes no more work until the companion is restarted (LedgerNotDurable): nothing
   * else brings it back, so the process is not alive as a payment service (/healthz 503).
   */
  get restartNeeded(): boolean {
    return this.#restartNeeded;
  }

  /**
   * A call failed because the database could not be reached (`isLedgerUnavailable`). A readiness
   * probe's (`probe`) begins the outage like any, but refused no one's work: it is not counted,
   * or a balancer's probe every second would make the outage look many times its size.
   */
  noticed(error: unknown, { probe = false }: { probe?: boolean } = {}): void {
    const { logger, clock } = this.#deps;
    // One refused call is counted once, however many places it passes through.
    if (typeof error === 'object' && error !== null) {
      if (this.#counted.has(error)) return;
      this.#counted.add(error);
    }
    if (!probe) {
      this.#refused += 1;
      this.#deps.onRefused?.();
    }
    const now = clock();
    const code = errorCode(error);
    if (code !== undefined && (STORAGE_CODES.test(code) || LOCK_CODES.test(code) || DAMAGED_CODES.test(code))) this.#writes = true;
    // A damaged file takes no more work either, but a restart would open the same file: only
    // the operator's restore mends it, so /healthz does not ask an orchestrator for one.
    const damaged = code !== undefined && DAMAGED_CODES.test(code);
    const dead = (code === NOT_DURABLE || damaged) && !this.#dead;
    if (dead) {
      this.#dead = true;
      // A ledger file deleted under it is being saved: a restart (what /healthz asks an
      // orchestrator for) only keeps it once the copy is written, so it is asked for only then.
      const saved = notDurableOf(error)?.saved;
      if (saved) void saved.then(() => (this.#restartNeeded = true));
      else if (!damaged) this.#restartNeeded = true;
      // Nothing to probe for: every statement fails until the restart.
      clearTimeout(this.#timer);
    }
    if (this.#since === undefined || dead) {
      const began = this.#since === undefined;
      // Worked out as a line is said, not at each refusal: it may ask the file system.
      const fix = fixOf(error, code);
      this.#since ??= now;
      this.#fix = fix;
      this.#reason = describe(error);
      this.#latest = error;
      const message = damaged
        ? 'the ledger file is damaged and takes no more work; answering 503 with Retry-After, /readyz 503'
        : dead
          ? 'the ledger takes no more work until the companion is restarted; answering 503 with Retry-After, /healthz 503'
          : code === '57014' || (code !== undefined && LOCK_CODES.test(code))
            ? // Reached: it is what holds the ledger's rows that keeps the work waiting (the fix says where to look).
              'the database answers but the ledger’s statements cannot finish in time; answering 503 with Retry-After until they do'
            : 'the database cannot be reached; answering 503 with Retry-After until it is back';
      // Probing first: a log line that cannot be written (its file on the same full disk) must
      // not leave the outage without the probe that ends it.
      if (began && !dead) this.#probeLater();
      // Another fix than the last line's (a full disk after a restart) is news: said at once.
      this.#quiet = !dead && now - this.#saidAt < REMINDER_INTERVAL_MS && fix === this.#saidFix;
      // A quiet one is reminded of a minute after the last line, should it last (sooner after a "back": #remindIfDue).
      this.#remindedAt = this.#quiet ? this.#saidAt : now;
      const fields = { reason: describe(error), ...(fix === undefined ? {} : { fix }) };
      if (this.#quiet) return logger.debug(message, fields);
      logger.error(message, { ...fields, ...this.#sinceLastLine(now) });
    } else {
      this.#latest = error;
      this.#remindIfDue(now);
    }
  }

  /**
   * The reminder of an outage that lasts: a minute after the last line, or, for a quiet one while
   * the last line said "back", once it has lasted RELAPSE_GRACE_MS — so the log's last word is not
   * "back" for long while the database is down again, and a blip stays counted, not said.
   */
  #remindIfDue(now: number): void {
    const since = this.#since;
    if (since === undefined) return;
    const relapsed = this.#quiet && this.#saidBack && now - since >= RELAPSE_GRACE_MS;
    if (!relapsed && now - this.#remindedAt < REMINDER_INTERVAL_MS) return;
    this.#remindedAt = now;
    this.#quiet = false;
    const { logger } = this.#deps;
    // The outage's cause now, from its last refusal: one that began with the server restarting
    // may last for a changed password, whose fix is the operator's. What began it stays said
    // beside it when it differs (and when that first line was quiet, this is the first said of it).
    const reason = describe(this.#latest);
    const fix = fixOf(this.#latest, errorCode(this.#latest));
    logger.error('the database still cannot be reached', {
      down_for_ms: now - since,
      refused: this.#refused,
      reason,
      ...(reason === this.#reason ? {} : { began_with: this.#reason }),
      ...(fix === undefined ? {} : { fix }),
      ...this.#sinceLastLine(now),
    });
  }

  /**
   * The ledger was away at some time since `time`: now, or the last outage ended after it. A
   * webhook the gateway sent meanwhile was answered 503 and is not stored, though it came.
   */
  downSince(time: number): boolean {
    return this.#since !== undefined || this.#endedAt >= time;
  }

  /** Resolves once the ledger answers again (at once when it is not down). */
  back(): Promise<void> {
    if (this.#since === undefined) return Promise.resolve();
    if (!this.#back) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#back = { promise, resolve };
    }
    return this.#back.promise;
  }

  /** No more probes (the companion is stopping). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /** The outages not said since the last line (none: nothing), for the line being said now. */
  #sinceLastLine(now: number, back = false): { outages_since_last_line?: number; refused_since_last_line?: number } {
    this.#saidAt = now;
    this.#saidBack = back;
    this.#saidFix = this.#fix;
    const { outages, refused } = this.#unsaid;
    this.#unsaid = { outages: 0, refused: 0 };
    return outages === 0 ? {} : { outages_since_last_line: outages, refused_since_last_line: refused };
  }

  #probeLater(): void {
    if (this.#stopped || this.#dead) return;
    this.#timer = setTimeout(() => void this.#probe(), this.#deps.probeIntervalMs ?? PROBE_INTERVAL_MS);
    this.#timer.unref();
  }

  async #probe(): Promise<void> {
    try {
      await this.#deps.ledger.listOrders({ limit: 1 });
      if (this.#writes) await this.#deps.ledger.probeWrite();
    } catch (error) {
      // Nothing may call while it is down: the probe's failure is what says it lasts, and why now.
      if (isLedgerUnavailable(error)) this.#latest = error;
      this.#remindIfDue(this.#deps.clock());
      return this.#probeLater();
    }
    if (this.#dead) return;
    const { logger, clock } = this.#deps;
    const now = clock();
    const fields = { down_for_ms: now - (this.#since ?? now), refused: this.#refused };
    if (this.#quiet && now - this.#saidAt < REMINDER_INTERVAL_MS) {
      this.#unsaid.outages += 1;
      this.#unsaid.refused += this.#refused;
      logger.debug('the database is back', fields);
    } else {
      // A quiet one ending a minute after the last line is said, with those before it.
      logger.warn('the database is back', { ...fields, ...this.#sinceLastLine(now, true) });
    }
    this.#quiet = false;
    this.#endedAt = now;
    this.#since = undefined;
    this.#refused = 0;
    this.#writes = false;
    this.#fix = undefined;
    this.#reason = undefined;
    const waiting = this.#back;
    this.#back = undefined;
    waiting?.resolve();
  }
}

/**
 * The error's code and first line — enough to tell a refused connection from a shutdown — and
 * its cause's, when it has one (a LedgerNotDurable's failed sync).
 */
function describe(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message.split('\n')[0] || error.name;
  const said = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return error.cause instanceof Error && depth < 2 ? `${said} (cause: ${describe(error.cause, depth + 1)})` : said;
}

/** What `read` finds first on the error or its causes (a driver's error wrapped by a query builder), a few levels deep. */
function inChain<T>(error: unknown, read: (error: Error) => T | undefined, depth = 0): T | undefined {
  if (!(error instanceof Error) || depth > 3) return undefined;
  return read(error) ?? inChain(error.cause, read, depth + 1);
}

/** The ledger file a SQLite error was about (sqlite.ts tags a refused write with it). */
function fileOf(error: unknown): string | undefined {
  return inChain(error, (one) => {
    const file = (one as { ledgerFile?: unknown }).ledgerFile;
    return typeof file === 'string' ? file : undefined;
  });
}

/** The ledger's refusal of all work, when the error is one: its save, if its file was deleted under it. */
const notDurableOf = (error: unknown): LedgerNotDurable | undefined => inChain(error, (one) => (one instanceof LedgerNotDurable ? one : undefined));

/** What the operator can do about it, when the outage is one of theirs: credentials, a disk. */
function fixOf(error: unknown, code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  const known = fileOf(error);
  const file = known ?? 'the SQLite ledger file';
  if (code.startsWith('28')) return 'the database refused the user or password of PAYFORM_DATABASE_URL (openLedger’s url), or this host (pg_hba.conf): give the companion the current ones and restart it';
  // Writes through the open file meet a read-only file system only when the kernel remounted it so
  // after disk errors (a remount asked for is refused while the ledger has files open for writing):
  // it takes no write until it is checked and mounted again, which needs the companion stopped.
  if ((code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY')) && known !== undefined && onReadOnlyFileSystem(known)) {
    return `the file system holding ${file} is read-only (the kernel remounts one so after disk errors: see its log), and payments cannot go on until it takes writes: stop the companion (SIGTERM; its open files keep the file system busy), check and repair it (fsck), mount it read-write, then start the companion`;
  }
  if (DAMAGED_CODES.test(code)) {
    return (
      `${file} is damaged: stop the companion and move the file (with its -wal and -shm) aside; recover what it holds into a new file ` +
      '(sqlite3 <damaged file> .recover | sqlite3 <new file>, then PRAGMA integrity_check on it) and put that in its place — or else the last backup ' +
      '(docs/companion.md, "Backups": payments taken after it are not in it, find each at the gateway) — then start the companion'
    );
  }
  if (code === 'SQLITE_FULL') return `the disk holding ${file} is full: free space on it; payments go on by themselves once a write works`;
  if (code.startsWith('SQLITE_READONLY')) return `${file} cannot be written (the file or its folder read-only, its disk remounted read-only, or the file moved away): give the companion's user write access to the file and its folder; payments go on by themselves once a write works`;
  if (code.startsWith('SQLITE_IOERR')) return `the disk holding ${file} fails to read or write: check it (the kernel log, the volume); payments go on by themselves once a write works`;
  if (code === '53100') return 'the PostgreSQL server’s disk is full: free space on it; payments go on by themselves once a write works';
  if (code === '25006') return 'PAYFORM_DATABASE_URL reaches a PostgreSQL that takes no writes (a standby after a failover, or default_transaction_read_only): point it at the primary; payments go on by themselves once a write works';
  if (code === '58030') return 'the PostgreSQL server cannot read or write its files: check its disk';
  if (code === '55000') return 'the database of PAYFORM_DATABASE_URL takes no connections (ALTER DATABASE … ALLOW_CONNECTIONS false, for maintenance): allow them again; payments go on by themselves once a connection opens';
  if (code === '3D000' || code === '57P04') return 'the database of PAYFORM_DATABASE_URL is not there (renamed or dropped under the running companion): give it back its name, or point PAYFORM_DATABASE_URL at where the ledger is now and restart; payments go on by themselves once a connection opens';
  // Reached, but a statement ran out its deadline: something held a lock on the ledger's tables that long, or the server is overloaded.
  if (code === '57014') {
    return "the database answers, but the companion's statements ran past PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS: look in pg_stat_activity for a session holding a lock on payform's tables (a migration, a manual transaction left open) or for a server overloaded; payments go on by themselves once statements finish in time";
  }
  const savedTo = notDurableOf(error)?.savedTo;
  if (code === NOT_DURABLE && savedTo !== undefined) {
    return `${file} was deleted, moved or replaced while the companion had it open: wait for the line saying what it held is saved to ${savedTo}, then restart the companion (SIGTERM, never SIGKILL) — it takes the saved file back when nothing is at ${file}`;
  }
  const walGone = notDurableOf(error)?.walGone;
  if (code === NOT_DURABLE && walGone === 'kept') {
    return `${file}-wal, SQLite's write-ahead log, was deleted while the companion had it open (by hand, or a clean-up script): what it held is written into ${file}, nothing is lost; restart the companion, which makes a new one — and never delete a running ledger's -wal or -shm files`;
  }
  if (code === NOT_DURABLE && walGone === 'held') {
    return `${file}-wal, SQLite's write-ahead log, was deleted while the companion had it open (by hand, or a clean-up script), and what it held could not be written into ${file} yet: restart the companion with SIGTERM, never SIGKILL — stopping writes it in, a kill loses every payment recorded since the last checkpoint`;
  }
  if (code === NOT_DURABLE) return `the write-ahead log of ${file} could not be synced to the disk, so nothing written since is known to be on it: check the disk holding ${file}, then restart the companion — nothing else brings the ledger back`;
  return undefined;
}
