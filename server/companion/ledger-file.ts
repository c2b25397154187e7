/**
 * What the ledger commands (`copy-ledger`, `backup`, `reopen-ledger`) share: the file the
 * companion would open, and where their lines go.
 */
import { currentEnvironment } from './environment.js';
import { DEFAULT_DATABASE } from './settings.js';

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * The file the companion would open, as its start reads PAYFORM_DATABASE_URL; a setting its start
 * would refuse (set but blank, or a 0.2 name left unread) is refused here too, rather than the
 * default file read in its place.
 */
export function companionsFile(env: NodeJS.ProcessEnv): string | { readonly problem: string } {
  const { env: current, blank, leftAlone } = currentEnvironment(env);
  const empty = blank.find(({ meant }) => meant === 'PAYFORM_DATABASE_URL');
  if (empty) return { problem: `${empty.name} is set but empty: set it to the SQLite file the companion used, or give the file with --from <sqlite-file>` };
  const unread = leftAlone.find(({ meant }) => meant === 'PAYFORM_DATABASE_URL');
  if (unread) return { problem: `${unread.name} is not read (PAYFORM_DATABASE_URL is the companion's name): set PAYFORM_DATABASE_URL, or give the file with --from <sqlite-file>` };
  return current.PAYFORM_DATABASE_URL ?? DEFAULT_DATABASE;
}

/**
 * Runs `work` on the file `--from` names, else the companion's: what it did to stdout and exit
 * code 0, or why it could not to stderr and 1; each line named by the command.
 */
export async function onLedgerFile(command: string, from: string | undefined, env: NodeJS.ProcessEnv, output: CommandOutput, work: (file: string) => Promise<string>): Promise<number> {
  const file = from ?? companionsFile(env);
  if (typeof file !== 'string') {
    output.err(`${command}: ${file.problem}`);
    return 1;
  }
  try {
    output.out(`${command}: ${await work(file)}`);
    return 0;
  } catch (error) {
    output.err(`${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
