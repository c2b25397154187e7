// What the commands that read a companion's SQLite ledger file (copy-ledger, backup) refuse
// before they open it: opened, a file that is not there would be made, an empty ledger read
// without a word.
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { ledgerUrlProblem } from './ledger.js';

/** Throws unless `from` names an SQLite ledger file that is there; `verb`: what the command does with it. */
export function refuseAbsentLedgerFile(from: string, verb: string): void {
  if (from === ':memory:') throw new Error(`a ledger in memory ends with its process: there is no file to ${verb}`);
  const fileProblem = ledgerUrlProblem(from);
  if (fileProblem) throw new Error(`the SQLite file's path ${fileProblem}`);
  if (!existsSync(from)) throw new Error(`there is no ledger file at ${resolvePath(from)}: give the SQLite file the companion uses (its PAYFORM_DATABASE_URL)`);
}
