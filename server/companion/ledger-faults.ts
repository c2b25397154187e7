/**
 * A database's refusal to open the ledger, said in terms of the URL that was given. The driver's
 * own words (node-postgres's `SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string`,
 * `The server does not support SSL connections`, `connect ECONNREFUSED`) name neither the setting
 * nor the fix: here they get both. For any command that opens a ledger from a URL — the companion's
 * start (PAYFORM_DATABASE_URL), `payform-companion copy-ledger` (`--to`).
 */
import { statSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { isPostgresUrl, sqliteUnloadable } from '../ledger/index.js';

/**
 * Why the ledger at `databaseUrl` could not be opened, from the driver's `error`, with what to do
 * named in terms of `variableName` (where the URL came from: `PAYFORM_DATABASE_URL`, `--to`);
 * the error's own message when there is nothing to add. The URL itself is never quoted, so no
 * password is either.
 */
export function explainedLedgerFault(error: unknown, databaseUrl: string, variableName = 'PAYFORM_DATABASE_URL'): string {
  let reason = error instanceof Error ? error.message : String(error);
  // node-postgres's words for a socket that closed before the server said anything: no route
  // to the host, a firewall, a proxy in the way, or a server that refuses this address.
  if (/^connection terminated/i.test(reason)) reason += ' (no answer from a PostgreSQL server there: check the host and port, and that this machine may reach it — network, firewall, pg_hba.conf)';
  reason = credentialsRefusal(error, databaseUrl, variableName) ?? tlsRefusal(error, databaseUrl, variableName) ?? reason;
  if (isPostgresUrl(databaseUrl)) reason += postgresRefusalHint(error);
  return reason + driverRuntimeHint(reason, databaseUrl);
}

/** Each error of the chain, the outermost first (a migration's error carries the database's in its cause). */
function* causes(error: unknown): Generator<Error> {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) yield current;
}

/** What to do about a PostgreSQL's refusal whose own words do not say, by its code. */
function postgresRefusalHint(error: unknown): string {
  let code: unknown;
  for (const each of causes(error)) {
    code = (each as { code?: unknown }).code;
    if (code !== undefined) break;
  }
  switch (code) {
    case 'ECONNREFUSED':
      return ' (nothing listens there: start PostgreSQL, or correct the host and port)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return " (the URL's host name does not resolve here: correct it, or check this machine's DNS; in a container, the database's service name)";
    case '3D000':
      return " (create it — createdb, or CREATE DATABASE — or correct the database's name in the URL)";
    case '25006':
      return ' (a PostgreSQL that takes no writes: a standby, or default_transaction_read_only — point the URL at the primary)';
    case '57P03':
      return ' (the server is starting up or recovering: start the companion again once it takes connections)';
    case '53300':
      return ' (the server has no connection left for this role: raise max_connections, or lower the pools of its other clients)';
    default:
      return '';
  }
}

/** node-postgres's words when it asked the server for TLS and the server answered that it takes none. */
const NO_TLS = 'The server does not support SSL connections';

/**
 * TLS asked of a PostgreSQL server that takes none. node-postgres asks for it, and never falls
 * back to a plain connection, whenever the URL names an `sslmode` other than `disable` (or `ssl`,
 * `sslcert`, `sslkey`, `sslrootcert`), else when PGSSLMODE does: libpq's `prefer` — its default,
 * so what psql connects with — is one of them, and node-postgres then fails where psql passes.
 */
function tlsRefusal(error: unknown, databaseUrl: string, variableName: string): string | undefined {
  if (![...causes(error)].some(({ message }) => message === NO_TLS) || !isPostgresUrl(databaseUrl)) return undefined;
  const query = URL.parse(databaseUrl)?.searchParams;
  const named = ['sslmode', 'ssl', 'sslcert', 'sslkey', 'sslrootcert'].find((name) => query?.has(name));
  const mode = named === undefined ? process.env.PGSSLMODE : query?.get('sslmode') ?? undefined;
  const asking =
    named !== undefined
      ? `${variableName} asks for TLS (${named}=${query?.get(named) ?? ''})`
      : mode
        ? `PGSSLMODE=${mode} asks for TLS (${variableName} names no sslmode)`
        : 'node-postgres asked for TLS';
  const libpq =
    mode === 'prefer'
      ? '. With sslmode=prefer, libpq (psql and most other clients) falls back to a plain connection when the server takes no TLS; node-postgres, the ledger\'s driver, does not, even with uselibpqcompat=true'
      : mode === 'allow'
        ? '. With sslmode=allow, libpq (psql and most other clients) connects in plain first; node-postgres, the ledger\'s driver, knows no allow and asks for TLS'
        : '';
  // Without uselibpqcompat, node-postgres takes these as verify-full (the SECURITY WARNING it prints): the next refusal, once the server takes TLS.
  const verified =
    mode !== undefined && ['prefer', 'require', 'verify-ca'].includes(mode) && query?.get('uselibpqcompat') !== 'true'
      ? ` (once it does, node-postgres checks its certificate and host name for sslmode=${mode} too, as for verify-full: give it a certificate this machine trusts, or name a private CA with sslrootcert=)`
      : '';
  return (
    `${NO_TLS}: ${asking}, and the PostgreSQL server there takes none. If the network between this machine and the server is trusted ` +
    `(the same machine, a private network), write sslmode=disable in ${variableName}; otherwise turn TLS on in the server ` +
    `(ssl = on in postgresql.conf, with ssl_cert_file and ssl_key_file)${verified}${libpq}`
  );
}

/**
 * Bun and Deno do not load better-sqlite3 12, the SQLite driver the companion takes, and their own
 * words point at drivers of their own (bun:sqlite), which the ledger does not use.
 */
function driverRuntimeHint(reason: string, databaseUrl: string): string {
  const unloadable = sqliteUnloadable();
  if (!unloadable || isPostgresUrl(databaseUrl) || !/better-sqlite3|node-api|napi|addon|dlopen/i.test(reason)) return '';
  return ` (${unloadable})`;
}

/**
 * A PostgreSQL server's refusal of the URL's credentials, said in terms of the URL. A password
 * the server wants and neither the URL, PGPASSWORD nor a password file gives reaches
 * node-postgres unset, and what comes back names neither the setting nor the fix: by SCRAM,
 * node-postgres's own "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string"; by
 * md5 it hashes "null" as the password, and the server answers "password authentication failed
 * for user …" as to a wrong one; by password (cleartext) it sends an empty one: "empty password
 * returned by client".
 */
function credentialsRefusal(error: unknown, databaseUrl: string, variableName: string): string | undefined {
  if (!(error instanceof Error)) return undefined;
  // 28P01: invalid_password.
  const invalidPassword = (error as { code?: unknown }).code === '28P01';
  const source = invalidPassword ? passwordSource(databaseUrl) : undefined;
  const noneSent = /client password must be a string/.test(error.message) || (invalidPassword && (/empty password returned by client/.test(error.message) || source === undefined));
  if (noneSent) {
    return `the server asks for a password, and ${variableName} gives none: write it in the URL (postgres://user:password@host/database), or set PGPASSWORD`;
  }
  if (source === 'file') {
    return `${error.message} (neither ${variableName} nor PGPASSWORD gives a password, so node-postgres looked in ${passwordFile()}: check the user name in the URL and the password on its line there, host:port:database:user:password, or write the password in the URL)`;
  }
  if (source === 'environment') {
    return `${error.message} (${variableName} gives no password, so node-postgres sent PGPASSWORD's: check it, and the user name in the URL)`;
  }
  // A % in the password is read as the start of an escape (`%41` is A).
  if (invalidPassword) {
    return `${error.message} (check the user name and password in ${variableName}, their special characters percent-encoded: % as %25, @ as %40)`;
  }
  return undefined;
}

/**
 * Where node-postgres takes a password for `databaseUrl` from: the URL's own (or its
 * `?password=`), else PGPASSWORD, else the password file when there is one it reads (a line of it
 * may match). An unreadable URL is not judged: taken as giving one.
 */
function passwordSource(databaseUrl: string): 'url' | 'environment' | 'file' | undefined {
  const url = URL.parse(databaseUrl);
  if (!url || url.password !== '' || url.searchParams.get('password')) return 'url';
  // Set, even empty: node-postgres then reads no password file.
  if (process.env.PGPASSWORD !== undefined) return 'environment';
  return readsPasswordFile() ? 'file' : undefined;
}

/**
 * The password file node-postgres reads (through its pgpass module) for a password neither the
 * URL nor PGPASSWORD gives: PGPASSFILE, else ~/.pgpass (%APPDATA%\postgresql\pgpass.conf on
 * Windows).
 */
function passwordFile(): string {
  const { PGPASSFILE, HOME, APPDATA } = process.env;
  if (PGPASSFILE) return PGPASSFILE;
  return process.platform === 'win32' ? joinPath(APPDATA || '.', 'postgresql', 'pgpass.conf') : joinPath(HOME || '.', '.pgpass');
}

/** Whether node-postgres reads the password file: one it can stat, a plain file, and (but on Windows) its owner's alone; otherwise it ignores it. */
function readsPasswordFile(): boolean {
  try {
    const stats = statSync(passwordFile(), { throwIfNoEntry: false });
    return stats !== undefined && stats.isFile() && (process.platform === 'win32' || (stats.mode & 0o077) === 0);
  } catch {
    return false;
  }
}
