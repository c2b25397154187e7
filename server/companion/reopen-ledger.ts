/**
 * `payform-companion reopen-ledger`: the mark copy-ledger left on a SQLite ledger it moved to
 * PostgreSQL taken away (reopenLedger, server/ledger/ledger-moved.ts), for going back to the file.
 */
import { reopenLedger } from '../ledger/index.js';
import { companionsFile } from './ledger-file.js';
import type { CommandOutput } from './ledger-file.js';

export interface ReopenLedgerRequest {
  /** The SQLite file; undefined: the companion's (PAYFORM_DATABASE_URL, or its default). */
  readonly from: string | undefined;
}

const NAME = 'payform-companion reopen-ledger';

/** Its exit code: 0 once the mark is gone, 1 otherwise. */
export async function runReopenLedger(request: ReopenLedgerRequest, env: NodeJS.ProcessEnv, output: CommandOutput): Promise<number> {
  const from = request.from ?? companionsFile(env);
  if (typeof from !== 'string') {
    output.err(`${NAME}: ${from.problem}`);
    return 1;
  }
  try {
    const move = await reopenLedger(from);
    output.out(`${NAME}: ${from} is a ledger a companion runs on again. It had been copied to ${move.to} on ${move.at}: what the companions took there since is not in this file`);
    return 0;
  } catch (error) {
    output.err(`${NAME}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
