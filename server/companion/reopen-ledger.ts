/**
 * `payform-companion reopen-ledger`: the mark copy-ledger left on a SQLite ledger it moved to
 * PostgreSQL taken away (reopenLedger, server/ledger/ledger-moved.ts), for going back to the file.
 */
import { isPostgresUrl, reopenLedger } from '../ledger/index.js';
import { onLedgerFile } from './ledger-file.js';
import type { CommandOutput } from './ledger-file.js';

export interface ReopenLedgerRequest {
  /** The SQLite file; undefined: the companion's (PAYFORM_DATABASE_URL, or its default). */
  readonly from: string | undefined;
}

/** Its exit code: 0 once the mark is gone, 1 otherwise. */
export function runReopenLedger(request: ReopenLedgerRequest, env: NodeJS.ProcessEnv, output: CommandOutput): Promise<number> {
  return onLedgerFile('payform-companion reopen-ledger', request.from, env, output, async (from) => {
    // After a move PAYFORM_DATABASE_URL names PostgreSQL: read as a path, its password would be shown.
    if (isPostgresUrl(from)) {
      throw new Error(request.from === undefined ? 'PAYFORM_DATABASE_URL is a PostgreSQL URL: name the SQLite file to reopen with --from <sqlite-file>' : '--from is the SQLite file the ledger was moved from, not a PostgreSQL URL');
    }
    const move = await reopenLedger(from);
    return `${from} is a ledger a companion runs on again. It had been copied to ${move.to} on ${move.at}: what the companions took there since is not in this file`;
  });
}
