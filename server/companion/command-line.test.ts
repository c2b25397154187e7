// The bin's command line, read: help, version, the companion itself, and the options of
// `copy-ledger`, `backup` and `reopen-ledger` (what they name is checked when they run: copy-ledger.test.ts,
// backup.test.ts).
import { describe, expect, it } from 'vitest';
import { COPY_LEDGER_USAGE, readCommandLine, USAGE } from './command-line.js';

const TO = 'postgres://shop:secret@db.example:5432/shop';

describe('readCommandLine', () => {
  it('runs the companion with no arguments, and answers --help and --version', () => {
    expect(readCommandLine([])).toEqual({ kind: 'run' });
    expect(readCommandLine(['-h'])).toEqual({ kind: 'help' });
    expect(readCommandLine(['--version'])).toEqual({ kind: 'version' });
    expect(readCommandLine(['start'])).toEqual({ kind: 'wrong', problem: 'unexpected argument "start": the companion is configured by environment variables (or a .env file: --env-file .env)' });
    // A database URL given as a flag is not repeated: its password would be printed.
    expect(readCommandLine(['--database-url=postgres://shop:s3cret@db/shop']).toString()).not.toContain('s3cret');
    expect(readCommandLine(['--database-url=postgres://shop:s3cret@db/shop'])).toMatchObject({ problem: expect.stringMatching(/^unexpected argument \(one holding an @/) });
  });

  it('takes --env-file anywhere, in two words or with =, more than once, for the companion and its commands', () => {
    expect(readCommandLine(['--env-file', '.env'])).toEqual({ kind: 'run', envFiles: ['.env'] });
    expect(readCommandLine(['--env-file=.env', '--env-file=.env.local'])).toEqual({ kind: 'run', envFiles: ['.env', '.env.local'] });
    expect(readCommandLine(['backup', '--to', 'b.db', '--env-file', 'prod.env'])).toEqual({ kind: 'backup', to: 'b.db', from: undefined, envFiles: ['prod.env'] });
    expect(readCommandLine(['--env-file', '.env', 'copy-ledger', `--to=${TO}`])).toEqual({ kind: 'copy-ledger', to: TO, from: undefined, envFiles: ['.env'] });
    for (const args of [['--env-file'], ['--env-file='], ['--env-file', '--help']]) {
      expect(readCommandLine(args)).toEqual({ kind: 'wrong', problem: '--env-file needs a value: --env-file .env' });
    }
    // A command's own refusal, as its other wrong arguments are.
    expect(readCommandLine(['backup', '--to', 'b.db', '--env-file'])).toEqual({ kind: 'wrong', command: 'backup', problem: '--env-file needs a value: --env-file .env' });
  });

  it('reads copy-ledger with --to and --from, each as two words or with =', () => {
    expect(readCommandLine(['copy-ledger', '--to', TO])).toEqual({ kind: 'copy-ledger', to: TO, from: undefined });
    expect(readCommandLine(['copy-ledger', `--to=${TO}`, '--from=./data/shop.db'])).toEqual({ kind: 'copy-ledger', to: TO, from: './data/shop.db' });
    expect(readCommandLine(['copy-ledger', '--from', 'ledger.db', '--to', TO])).toEqual({ kind: 'copy-ledger', to: TO, from: 'ledger.db' });
    expect(readCommandLine(['copy-ledger', '--help'])).toEqual({ kind: 'copy-ledger-help' });
  });

  it('reads reopen-ledger, which takes only --from', () => {
    expect(readCommandLine(['reopen-ledger'])).toEqual({ kind: 'reopen-ledger', from: undefined });
    expect(readCommandLine(['reopen-ledger', '--from', './data/shop.db', '--env-file=prod.env'])).toEqual({ kind: 'reopen-ledger', from: './data/shop.db', envFiles: ['prod.env'] });
    expect(readCommandLine(['reopen-ledger', '--help'])).toEqual({ kind: 'reopen-ledger-help' });
    expect(readCommandLine(['reopen-ledger', '--to', 'x.db'])).toEqual({ kind: 'wrong', command: 'reopen-ledger', problem: 'unexpected argument "--to": reopen-ledger takes only --from <sqlite-file>, optionally' });
  });

  it('reads backup the same way, its --to a file', () => {
    expect(readCommandLine(['backup', '--to', 'backups/payform.db'])).toEqual({ kind: 'backup', to: 'backups/payform.db', from: undefined });
    expect(readCommandLine(['backup', '--to=b.db', '--from=./data/shop.db'])).toEqual({ kind: 'backup', to: 'b.db', from: './data/shop.db' });
    expect(readCommandLine(['backup', '-h'])).toEqual({ kind: 'backup-help' });
    expect(readCommandLine(['backup', '--to'])).toEqual({ kind: 'wrong', command: 'backup', problem: '--to needs a value: --to <file>' });
    expect(readCommandLine(['backup', 'b.db'])).toEqual({ kind: 'wrong', command: 'backup', problem: 'unexpected argument "b.db": backup takes --to <file> and, optionally, --from <sqlite-file>' });
  });

  it.each([
    [[], '--to is missing: give the PostgreSQL database to copy the ledger into, --to postgres://user:password@host:5432/database'],
    [['--to'], '--to needs a value: --to <postgres-url>'],
    [['--to='], '--to needs a value: --to <postgres-url>'],
    [['--to', '--from', 'x.db'], '--to needs a value: --to <postgres-url>'],
    [['--from', 'x.db'], '--to is missing: give the PostgreSQL database to copy the ledger into, --to postgres://user:password@host:5432/database'],
    [['--to', TO, '--to', TO], '--to is given twice: give it once'],
    [['--to', TO, '--schema', 'payform'], 'unexpected argument "--schema": copy-ledger takes --to <postgres-url> and, optionally, --from <sqlite-file>'],
    // A URL given without --to is named with its password masked.
    [[TO], 'unexpected argument (one holding an @, not repeated: it may carry a password): copy-ledger takes --to <postgres-url> and, optionally, --from <sqlite-file>'],
    // Mistyped around a URL, no URL is left to mask: nothing with an @ is repeated.
    [['--too=postgres://shop:s3cret@db/shop'], 'unexpected argument (one holding an @, not repeated: it may carry a password): copy-ledger takes --to <postgres-url> and, optionally, --from <sqlite-file>'],
  ])('refuses copy-ledger %j, naming the problem', (args, problem) => {
    expect(readCommandLine(['copy-ledger', ...args])).toEqual({ kind: 'wrong', problem, command: 'copy-ledger' });
  });

  it('lists copy-ledger in the help, which says how to use it', () => {
    expect(USAGE).toContain('payform-companion copy-ledger --to <postgres-url> [--from <sqlite-file>]');
    expect(COPY_LEDGER_USAGE).toContain('--from <sqlite-file>  the ledger\'s file (default PAYFORM_DATABASE_URL, else ./data/payform.db)');
  });
});
