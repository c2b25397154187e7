/**
 * What the ledger commands (`copy-ledger`, `backup`) share: the file the companion would open,
 * and where their lines go.
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
