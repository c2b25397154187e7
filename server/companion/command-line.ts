/**
 * The command line of `payform-companion` (main.ts). The companion is configured by its
 * environment (settings.ts); the command line asks for help or the version, or runs a command
 * of its own: `copy-ledger` (copy-ledger.ts), `backup` (backup.ts) or `reopen-ledger` (reopen-ledger.ts).
 */
import { createRequire } from 'node:module';

export const COMPANION_DOCS = 'https://github.com/payform/payform/tree/main/server/companion#readme';

export const USAGE = `Usage: payform-companion [--env-file <file>] [--help | --version]
       payform-companion copy-ledger --to <postgres-url> [--from <sqlite-file>]
       payform-companion backup --to <file> [--from <sqlite-file>]
       payform-companion reopen-ledger [--from <sqlite-file>]

The merchant's payment server for <pay-form>: checkout sessions, payments, 3-D Secure,
signed webhooks into a ledger, reconciliation and the merchant API. It is configured by
environment variables; the main ones:

  PORT, PAYFORM_HOST       where to listen (default 3000 on 127.0.0.1 in development)
  PAYFORM_PUBLIC_URL       how the gateway and browsers reach it (default http://localhost:$PORT)
  PAYFORM_GATEWAY_BASE_URL the gateway, or a sandbox started with payform-sandbox
  PAYFORM_GATEWAY_POS_ID, PAYFORM_GATEWAY_API_KEY, PAYFORM_GATEWAY_API_SECRET,
  PAYFORM_GATEWAY_ENDPOINTS_KEY
                           the project's credentials (default the sandbox's test project)
  PAYFORM_GATEWAY_WIDGET_KEY
                           <pay-form> tokenizes cards in the browser (default: relayed here)
  PAYFORM_GATEWAY_TIMEOUT_MS
                           a gateway call's deadline, then its outcome is read (default 30000)
  PAYFORM_DATABASE_URL     postgres://… for PostgreSQL, else an SQLite file (./data/payform.db)
  PAYFORM_DATABASE_STATEMENT_TIMEOUT_MS
                           PostgreSQL: a statement's deadline, then 503 (default 5000; 0: none)
  PAYFORM_ADMIN_TOKEN      bearer token of the merchant API (generated and printed if unset)
  PAYFORM_ALLOWED_ORIGINS  origins of the pages that embed <pay-form> (default the public URL's)
  PAYFORM_BACK_OFFICE      serve the back office at this path, e.g. /admin (default off)
  PAYFORM_BACK_OFFICE_SELLERS
                           its split payments' sellers: id=name,… by sub-merchant id
  PAYFORM_NOTIFY_URL, PAYFORM_NOTIFY_SECRET
                           POST every payment change to your backend, signed (default off)

Every variable, its default and the recipes for Hono, Express and fetch servers:
${COMPANION_DOCS}

Options:
  --env-file <file>  read these variables from a .env file first (those already set win);
                     for any command, and more than once
  -h, --help         print this help
  -v, --version      print the version

Commands:
  copy-ledger     copy the ledger from its SQLite file into PostgreSQL, to run several
                  companions on one database (payform-companion copy-ledger --help)
  backup          back the SQLite ledger up into a new file, the companion running or not
                  (payform-companion backup --help)
  reopen-ledger   run on a SQLite ledger again after copy-ledger moved it to PostgreSQL
                  (payform-companion reopen-ledger --help)
`;

export const COPY_LEDGER_USAGE = `Usage: payform-companion copy-ledger --to <postgres-url> [--from <sqlite-file>]

Copies the companion's ledger from its SQLite file into PostgreSQL, to run several companions
on one database: every checkout session, payment, capture, void and refund, webhook event,
saved card and idempotency key, and the ledger's identity (its point of sale and gateway).
Stop the companion and back the file up first. The file's payments are left as they were
(upgraded to this version's schema if it was older); the copy is made in one transaction, then
counted table by table on both sides: it is there whole, or not at all. Then the file is marked
as moved: a companion, a backup and another copy refuse it, naming where the ledger went, so
no payment is taken where PostgreSQL never sees it (reopen-ledger takes the mark away).

  --to <postgres-url>   the database to copy into, as PAYFORM_DATABASE_URL will name it; a
                        schema of its own: ?options=-c%20search_path%3Dpayform (create the
                        schema first: CREATE SCHEMA payform)
  --from <sqlite-file>  the ledger's file (default PAYFORM_DATABASE_URL, else ./data/payform.db)
  --env-file <file>     read variables from a .env file first (those already set win)
  -h, --help            print this help

Refused, with nothing copied: while another process has the file open (a companion running
on it), and when the database already holds a ledger's payments — two ledgers are never merged.
Exit code 0 once all is copied and the file marked, 1 otherwise (a copy made whole whose file
could not be marked says so). Then start the companions with PAYFORM_DATABASE_URL=<postgres-url>.
`;

export const BACKUP_USAGE = `Usage: payform-companion backup --to <file> [--from <sqlite-file>]

Backs the companion's SQLite ledger up into a new file, while the companion runs on it or not:
one snapshot of every payment committed before it (SQLite's VACUUM INTO), checked page by page
and counted. A copy of the file alone (cp) misses its latest payments, which sit in the -wal
file beside it until a checkpoint. To restore, stop the companion and put the backup in place
of the ledger's file (its -wal and -shm files removed).

  --to <file>           the backup, a file not there yet (never overwritten); readable by its
                        owner only, as the ledger is
  --from <sqlite-file>  the ledger's file (default PAYFORM_DATABASE_URL, else ./data/payform.db)
  --env-file <file>     read variables from a .env file first (those already set win)
  -h, --help            print this help

A PostgreSQL ledger is backed up with pg_dump. Exit code 0 once the backup is written and
checked, 1 otherwise.
`;

export const REOPEN_LEDGER_USAGE = `Usage: payform-companion reopen-ledger [--from <sqlite-file>]

Takes away the mark copy-ledger left on a SQLite ledger it copied into PostgreSQL, so that a
companion and a backup take the file again: for going back to one companion on the file. What
the companions took on PostgreSQL since the copy stays there, not in the file. Stop every
companion on the file first (it is refused while another process has it open).

  --from <sqlite-file>  the ledger's file (default PAYFORM_DATABASE_URL, else ./data/payform.db)
  --env-file <file>     read variables from a .env file first (those already set win)
  -h, --help            print this help

Exit code 0 once the mark is gone, 1 otherwise (a file that was never moved included).
`;

/** `envFiles`: the .env files to read first, when given (env-files.ts: as under Node's own `--env-file`). */
export type CommandLine =
  | { readonly kind: 'run'; readonly envFiles?: readonly string[] }
  | { readonly kind: 'help' | 'version' | 'copy-ledger-help' | 'backup-help' | 'reopen-ledger-help' }
  | { readonly kind: 'copy-ledger' | 'backup'; readonly to: string; readonly from: string | undefined; readonly envFiles?: readonly string[] }
  | { readonly kind: 'reopen-ledger'; readonly from: string | undefined; readonly envFiles?: readonly string[] }
  /** `command`: the command whose arguments are wrong (its refusals exit 1, as its failures do). */
  | { readonly kind: 'wrong'; readonly problem: string; readonly command?: LedgerCommand };

type LedgerCommand = 'copy-ledger' | 'backup' | 'reopen-ledger';
const LEDGER_COMMANDS: readonly string[] = ['copy-ledger', 'backup', 'reopen-ledger'];
const isLedgerCommand = (arg: string | undefined): arg is LedgerCommand => arg !== undefined && LEDGER_COMMANDS.includes(arg);

export function readCommandLine(given: readonly string[]): CommandLine {
  const read = readEnvFiles(given);
  if ('problem' in read) {
    // A command's refusal is its own (exit 1), as its other wrong arguments are.
    const command = given.find(isLedgerCommand);
    return { kind: 'wrong', problem: read.problem, ...(command ? { command } : {}) };
  }
  const { args, envFiles } = read;
  const loaded = envFiles.length > 0 ? { envFiles } : {};
  if (args.length === 0) return { kind: 'run', ...loaded };
  const [first] = args;
  if (isLedgerCommand(first)) {
    const command = readLedgerCommand(first, args.slice(1));
    return command.kind === first ? { ...command, ...loaded } : command;
  }
  if (args.length === 1 && (first === '--help' || first === '-h')) return { kind: 'help' };
  if (args.length === 1 && (first === '--version' || first === '-v')) return { kind: 'version' };
  return {
    kind: 'wrong',
    problem: `unexpected ${args.length === 1 ? 'argument' : 'arguments'} ${args.map(quoted).join(' ')}: the companion is configured by environment variables (or a .env file: --env-file .env)`,
  };
}

/**
 * `--env-file <file>` (or `=<file>`, repeatable), anywhere on the line: Node's own option, for a
 * bin that pnpm and Yarn start through a shell script, or from an archive, where `node
 * --env-file=.env node_modules/.bin/payform-companion` cannot reach it. The rest as given.
 */
function readEnvFiles(given: readonly string[]): { args: string[]; envFiles: string[] } | { problem: string } {
  const args: string[] = [];
  const envFiles: string[] = [];
  for (let index = 0; index < given.length; index += 1) {
    const arg = given[index]!;
    if (arg !== '--env-file' && !arg.startsWith('--env-file=')) {
      args.push(arg);
      continue;
    }
    const file = arg === '--env-file' ? given[(index += 1)] : arg.slice('--env-file='.length);
    if (!file || (arg === '--env-file' && file.startsWith('-'))) return { problem: '--env-file needs a value: --env-file .env' };
    envFiles.push(file);
  }
  return { args, envFiles };
}

/**
 * An argument as a refusal quotes it: not one with an `@`, which may be a URL's password however
 * it is mistyped around it (`--too=postgres://shop:secret@db/…` is no URL to mask).
 */
const quoted = (arg: string): string => (arg.includes('@') ? '(one holding an @, not repeated: it may carry a password)' : `"${arg}"`);

/** What each command's `--to` names, and the refusal when it is missing; none: the command takes no --to. */
const TARGETS: Record<LedgerCommand, { readonly to: string; readonly missing: string } | undefined> = {
  'copy-ledger': { to: '<postgres-url>', missing: 'give the PostgreSQL database to copy the ledger into, --to postgres://user:password@host:5432/database' },
  backup: { to: '<file>', missing: 'give the file to back the ledger up into, --to ./backups/payform-2026-11-29.db' },
  'reopen-ledger': undefined,
};
const OPTIONS = ['--to', '--from'] as const;
type LedgerOption = (typeof OPTIONS)[number];
const isOption = (name: string): name is LedgerOption => (OPTIONS as readonly string[]).includes(name);

/** A ledger command's options, as `--to <value>` or `--to=<value>`; what they name is checked when it runs. */
function readLedgerCommand(command: LedgerCommand, args: readonly string[]): CommandLine {
  const wrong = (problem: string): CommandLine => ({ kind: 'wrong', problem, command });
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) return { kind: `${command}-help` };
  const targets = TARGETS[command];
  const takes = targets ? `--to ${targets.to} and, optionally, --from <sqlite-file>` : 'only --from <sqlite-file>, optionally';
  const named = { '--to': targets?.to ?? '', '--from': '<sqlite-file>' };
  const given: Partial<Record<LedgerOption, string>> = {};
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = equals < 0 ? arg : arg.slice(0, equals);
    if (!isOption(name) || (name === '--to' && !targets)) return wrong(`unexpected argument ${quoted(arg)}: ${command} takes ${takes}`);
    const value = equals < 0 ? args[(index += 1)] : arg.slice(equals + 1);
    if (!value || (equals < 0 && isOption(value))) return wrong(`${name} needs a value: ${name} ${named[name]}`);
    if (given[name] !== undefined) return wrong(`${name} is given twice: give it once`);
    given[name] = value;
  }
  const { '--to': to, '--from': from } = given;
  if (command === 'reopen-ledger') return { kind: command, from };
  if (to === undefined) return wrong(`--to is missing: ${targets!.missing}`);
  return { kind: command, to, from };
}

/** This package's version, from its own package.json: the package resolves its own name, from source or dist. */
export function packageVersion(): string {
  return (createRequire(import.meta.url)('@payform/companion/package.json') as { version: string }).version;
}
