// Apart from drivers.ts, whose types name the drivers' own: a merchant's compiler, without
// @types/better-sqlite3 or pg installed, can read this class's declaration.

/** The database driver a ledger's URL needs is not installed: the start stops, naming the package. */
export class MissingDriverError extends Error {
  constructor(
    readonly driver: string,
    database: string,
  ) {
    super(`${database} needs the '${driver}' package, which is not installed: run \`npm install ${driver}\``);
    this.name = 'MissingDriverError';
  }
}
