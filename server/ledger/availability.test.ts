// Which failures of a ledger call mean "the database cannot be reached now" (answered 503, try
// again) and which are faults in a query (a 500, logged with its stack).
import { describe, expect, it } from 'vitest';
import { NetworkError, OutcomeUnknownError } from '@payform/gateway';
import { isLedgerFault, isLedgerUnavailable } from './availability.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isLedgerUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a connection that timed out', withCode('ETIMEDOUT')],
    ['the server shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['the server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['the database dropped under a session (57P04)', withCode('57P04', 'terminating connection because the database was dropped')],
    ['a connection failure (08006)', withCode('08006')],
    ['too many connections (53300)', withCode('53300')],
    ['a password that no longer works (28P01)', withCode('28P01', 'password authentication failed for user "payform"')],
    ['a statement cancelled past its statement_timeout (57014)', withCode('57014', 'canceling statement due to statement timeout')],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    ['the pool waiting too long', new Error('timeout exceeded when trying to connect')],
    ['SQLite locked by another process past the wait for its lock', withCode('SQLITE_BUSY', 'database is locked')],
    ['PostgreSQL\'s disk full (53100)', withCode('53100', 'could not extend file "base/16384/16385": No space left on device')],
    ['an I/O error on PostgreSQL\'s files (58030)', withCode('58030', 'could not write to file')],
    ['a PostgreSQL that takes no writes (25006: a standby after a failover)', withCode('25006', 'cannot execute INSERT in a read-only transaction')],
    ['SQLite on a full disk', withCode('SQLITE_FULL', 'database or disk is full')],
    // Damaged under the running companion (bad blocks, a file replaced by another): no request can be served until it is restored.
    ['a damaged SQLite file', withCode('SQLITE_CORRUPT', 'database disk image is malformed')],
    ['a SQLite file that is not a database', withCode('SQLITE_NOTADB', 'file is not a database')],
    ['SQLite failing to write its file', withCode('SQLITE_IOERR_WRITE', 'disk I/O error')],
    ['SQLite failing to read its file', withCode('SQLITE_IOERR', 'disk I/O error')],
    ['a SQLite file made read-only', withCode('SQLITE_READONLY', 'attempt to write a readonly database')],
    ['a SQLite file moved away', withCode('SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database')],
    ['every address refused (happy eyeballs)', Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''), { code: 'ECONNREFUSED' })],
    ['one wrapped as a cause', new Error('query failed', { cause: withCode('ECONNREFUSED') })],
  ])('is true for %s', (_, error) => {
    expect(isLedgerUnavailable(error)).toBe(true);
    expect(isLedgerFault(error)).toBe(false);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error (42601)', withCode('42601')],
    ['a SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a configuration limit of PostgreSQL (53400)', withCode('53400', 'temporary file size exceeds temp_file_limit')],
    // One heavy statement meets these alone (a report's sort): a fault to see, not an outage to wait out.
    ['PostgreSQL out of memory (53200)', withCode('53200', 'out of memory')],
    ['PostgreSQL out of resources (53000)', withCode('53000')],
  ])('is false for a fault in a query: %s', (_, error) => {
    expect(isLedgerUnavailable(error)).toBe(false);
    expect(isLedgerFault(error)).toBe(true);
  });

  it.each([
    ['a plain error', new Error('something else')],
    // The gateway out of reach is the gateway's trouble, whatever socket error it carries: told as
    // the database away, it answered 503 ledger_unavailable and logged "the database cannot be reached".
    ['the gateway refusing connections', new NetworkError('No answer from the gateway (ECONNREFUSED)', { connectFailed: true, cause: withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:3001') })],
    [
      'a payment whose answer the gateway connection lost',
      new OutcomeUnknownError('create payment', 'o-1', new NetworkError('No answer from the gateway (ECONNRESET)', { connectFailed: false, cause: withCode('ECONNRESET') })),
    ],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isLedgerUnavailable(error)).toBe(false);
    expect(isLedgerFault(error)).toBe(false);
  });
});
