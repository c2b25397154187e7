/**
 * Whether a failed ledger call means "the database cannot be reached right now" — stopped,
 * restarting, out of connections, the network between cut, its disk full or read-only — rather
 * than a fault in a query.
 * Callers answer the first kind "try again shortly" (503 with Retry-After): nothing was written,
 * and the same request will work once the database is back.
 */
import { GatewayError } from '@payform/gateway';
import { NOT_DURABLE } from './durability.js';

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a server that is going away or not taking work: class 08 (connection
 * exception), class 28 (a new connection's credentials refused: a password changed under a
 * running companion), 57P01–57P04 (shut down by an administrator, crashed, starting up, the
 * database dropped), 53300 (too many connections), 57014 (a statement cancelled: past its
 * statement_timeout behind a lock, or by an administrator — rolled back), and a new
 * connection's database closed for maintenance: 55000 (ALTER DATABASE … ALLOW_CONNECTIONS
 * false; no statement of the ledger's meets it otherwise) or 3D000 (renamed away, or not
 * there). SQLite's SQLITE_BUSY: another process held the file's lock past the ledger's wait
 * for it (5 s, sqlite.ts).
 */
const SERVER_CODES = /^(08...|28...|57P0[1234]|57014|53300|55000|3D000|SQLITE_BUSY)$/;

/**
 * The disk under the database refusing writes: nothing was written, and the same request works
 * once space is freed or the disk is writable again — an outage too, not a fault in a query.
 * PostgreSQL's 53100 (disk full), 58030 (an I/O error on its files) and 25006 (a read-only
 * transaction: a standby reached after a failover, default_transaction_read_only) — not 53000 or 53200,
 * which one heavy statement meets alone (a report's sort out of memory), a fault to see, not an
 * outage to wait out; SQLite's SQLITE_FULL, SQLITE_IOERR_* and SQLITE_READONLY_* (a file
 * made read-only, a disk remounted read-only or moved from under the open ledger). Reads may
 * still work meanwhile, so the outage's probe writes (ledger-outage.ts).
 */
export const STORAGE_CODES = /^(53100|58030|25006|SQLITE_FULL|SQLITE_IOERR(_\w+)?|SQLITE_READONLY(_\w+)?)$/;

/**
 * A SQLite ledger file found damaged (a disk's bad blocks, a copy taken mid-write, a file edited
 * by hand): no request can be served safely from it until it is salvaged or restored, so it is
 * refused as an outage (503), never answered 500 with a stack; ledger-outage.ts says the fix.
 */
export const DAMAGED_CODES = /^SQLITE_(CORRUPT|NOTADB)(_\w+)?$/;

/** The SQLite ledger could not sync its WAL and takes no more work (LedgerNotDurable). */
const LEDGER_CODES = new Set([NOT_DURABLE]);

/** What node-postgres says (without a code) when its connection ended or never came. */
const DRIVER_MESSAGES = /connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|not queryable|query read timeout/i;

export function isLedgerUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  // The gateway out of reach carries the same socket codes (its cause): the gateway's trouble,
  // never to be answered or logged as the database away.
  if (error instanceof GatewayError) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.test(code) || STORAGE_CODES.test(code) || DAMAGED_CODES.test(code) || LEDGER_CODES.has(code))) return true;
  if (DRIVER_MESSAGES.test(error.message)) return true;
  // Node's happy-eyeballs connect fails with one error per address tried.
  if (error instanceof AggregateError && error.errors.some((inner) => isLedgerUnavailable(inner, depth + 1))) return true;
  return isLedgerUnavailable(error.cause, depth + 1);
}

/** A driver's own error (SQLSTATE or SQLite code) that is not an outage: a fault in a query. */
export function isLedgerFault(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (/^[0-9A-Z]{5}$/.test(code) || code.startsWith('SQLITE_')) && !isLedgerUnavailable(error);
}
