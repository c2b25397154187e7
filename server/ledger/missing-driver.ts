// Apart from drivers.ts, whose types name the drivers' own: a merchant's compiler, without
// @types/better-sqlite3 or pg installed, can read this class's declaration.
import { installCommand, sqliteUnloadable } from './driver-releases.js';
import type { Driver } from './driver-releases.js';

/** The database driver a ledger's URL needs is not installed: the start stops, naming the package. */
export class MissingDriverError extends Error {
  constructor(
    readonly driver: Driver,
    database: string,
    message = `${database} needs the '${driver}' package, which is not installed: ${installFix(driver)}`,
  ) {
    super(message);
    this.name = 'MissingDriverError';
  }

  /**
   * Said of the SQLite file the ledger took because PAYFORM_DATABASE_URL was not set: a shop on
   * PostgreSQL that left it unset (a companion mounted in its server, most often) is told that,
   * not only to install a driver for a database it does not use. `why`: the likely reason it is
   * unset, said after (a variable set under a misspelt name).
   */
  unsetUrl(defaultFile: string, why = ''): MissingDriverError {
    return new MissingDriverError(
      this.driver,
      '',
      `PAYFORM_DATABASE_URL is not set, so the ledger defaulted to ${defaultFile} (SQLite), which needs the '${this.driver}' package: ` +
        `set PAYFORM_DATABASE_URL to your postgres:// URL, or ${installFix(this.driver)}${why}`,
    );
  }
}

/** The install that fixes it, or under Bun and Deno, for SQLite, why none would. */
function installFix(driver: Driver): string {
  const unloadable = driver === 'better-sqlite3' ? sqliteUnloadable() : undefined;
  return unloadable ? `no install: ${unloadable}` : `run \`${installCommand(driver)}\``;
}
