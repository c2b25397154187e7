/**
 * `payform-companion copy-ledger`: the ledger in the companion's SQLite file copied into
 * PostgreSQL (copyLedger, server/ledger/ledger-copy.ts), for a merchant moving to several
 * instances. What it copies goes to stdout, why it could not to stderr; the target's password
 * shows in neither.
 */
import { passwordMasked } from '@payform/gateway';
import { copyLedger, isPostgresUrl, ledgerUrlProblem } from '../ledger/index.js';
import { explainedLedgerFault } from './ledger-faults.js';
import { companionsFile } from './ledger-file.js';
import type { CommandOutput } from './ledger-file.js';

export interface CopyLedgerRequest {
  /** The PostgreSQL URL to copy into. */
  readonly to: string;
  /** The SQLite file; undefined: the companion's (PAYFORM_DATABASE_URL, or its default). */
  readonly from: string | undefined;
}

const NAME = 'payform-companion copy-ledger';

/** Runs the copy; its exit code: 0 once all is copied, 1 otherwise. */
export async function runCopyLedger(request: CopyLedgerRequest, env: NodeJS.ProcessEnv, output: CommandOutput): Promise<number> {
  const masked = passwordMasked(request.to) ?? request.to;
  // Whatever a line quotes of the URL (a driver's message too), its password is not in it.
  const shown = (line: string) => `${NAME}: ${masked === request.to ? line : line.replaceAll(request.to, masked)}`;
  const refuse = (problem: string) => {
    output.err(shown(problem));
    return 1;
  };
  const targetProblem = !isPostgresUrl(request.to) ? 'must be a postgres:// URL: the ledger is copied into PostgreSQL' : ledgerUrlProblem(request.to);
  if (targetProblem) return refuse(`--to ${targetProblem}\nRun ${NAME} --help for more.`);
  const from = request.from ?? companionsFile(env);
  if (typeof from !== 'string') return refuse(from.problem);
  if (isPostgresUrl(from)) {
    return refuse(request.from === undefined ? 'PAYFORM_DATABASE_URL is a PostgreSQL URL already: name the SQLite file to copy with --from <sqlite-file>' : '--from is the SQLite file the ledger is in now, not a PostgreSQL URL');
  }
  let marked: boolean;
  try {
    ({ marked } = await copyLedger(from, request.to, { log: (line) => output.out(shown(line)) }));
  } catch (error) {
    // The driver's words (a password missing, a server refusing) said in --to's terms.
    return refuse(explainedLedgerFault(error, request.to, '--to'));
  }
  // Not the URL to paste: its password is masked.
  const start = `Start the companions with PAYFORM_DATABASE_URL set to the --to URL (${masked})`;
  if (!marked) {
    // Exit 1: a script that goes on would leave a file a companion still takes payments on.
    output.err(shown(`the copy is whole, but ${from} could not be marked as moved (the line above says why). ${start}, and move ${from} away where no companion or backup job finds it`));
    return 1;
  }
  output.out(shown(`done. ${start}. ${from} is marked as moved: a companion, a backup and another copy refuse it from now on (payform-companion reopen-ledger to go back to it)`));
  return 0;
}
