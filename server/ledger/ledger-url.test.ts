// Where a ledger is: a postgres:// URL, an SQLite file's path or :memory:. A `file:` or `sqlite:`
// URL, the way other tools name SQLite, used to be taken for a relative path: a folder named
// `file:` beside the process and a new, empty ledger in it, without a word.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidLedgerInput } from './errors.js';
import { ledgerUrlProblem, openLedger } from './ledger.js';

describe('a ledger URL', () => {
  let dir: string;
  let cwd: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'payform-ledger-url-'));
    cwd = process.cwd();
    process.chdir(dir);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [{ url: ':memory:' }, 'an object'],
    [undefined, 'undefined'],
    [42, 'a number'],
  ])('given as %s (a JavaScript caller), is refused naming the argument, not a path error of SQLite', async (given, kind) => {
    await expect(openLedger(given as never)).rejects.toThrow(new InvalidLedgerInput('url', `must be a string — a postgres:// URL, a file path or :memory: (openLedger('./data/payform.db')) — not ${kind}`));
  });

  it.each(['file:./data/payform.db', 'sqlite:///var/lib/payform.db', 'mysql://shop@db/payform'])('%s is refused, naming its scheme and what to give instead, and creates nothing', async (url) => {
    const scheme = url.slice(0, url.indexOf(':'));
    await expect(openLedger(url)).rejects.toThrow(InvalidLedgerInput);
    await expect(openLedger(url)).rejects.toThrow(`url: a ${scheme}: URL is not read: give a postgres:// URL, or the SQLite file's path itself`);
    expect(existsSync(join(dir, `${scheme}:`))).toBe(false);
  });

  it.each(['./data/payform.db', 'payform.db', 'C:\\payform\\payform.db', ':memory:', 'postgres://shop@db/payform', 'postgresql://shop@db/payform'])('%s is a ledger', (url) => {
    expect(ledgerUrlProblem(url)).toBeUndefined();
  });

  it.each([
    'postgres://shop:S3cr#t@127.0.0.1:5432/shop', 'postgres://shop:a/b@db/shop', 'postgresql://shop@db:99999/shop',
    // Digits first, the password reads as a port and a path or a fragment: it would be shown whole.
    'postgres://shop:2024/Summer!@db/shop', 'postgres://shop:123#S3cr@db/shop',
  ])('%s is refused, saying to encode the password, without quoting it', async (url) => {
    expect(ledgerUrlProblem(url)).toMatch(/^is not a URL that can be read as written: percent-encode special characters .* \(# as %23/);
    await expect(openLedger(url)).rejects.toThrow(InvalidLedgerInput);
    await expect(openLedger(url).catch((error: Error) => error.message)).resolves.not.toMatch(/S3cr|a\/b|Summer/);
  });

  it.each([
    ['"postgres://shop:secret@db/shop"', /^starts with a quote, which a \.env file for containers .* keeps/],
    ["'./data/payform.db'", /^starts with a quote/],
    ['~/payform.db', /^holds ~ or a \$VARIABLE that no shell expanded/],
    ['$HOME/payform.db', /^holds ~ or a \$VARIABLE/],
    ['${DATA_DIR}/payform.db', /^holds ~ or a \$VARIABLE/],
    ['postgres://shop@db/shop?schema=payform', /^\?schema= is not read by node-postgres, .* \?options=-c%20search_path%3D<schema>$/],
    ['postgres://shop@db/shop?sslmode=require&currentSchema=payform', /^\?currentSchema= is not read/],
    ['postgres://shop:secret@db/shop?pgbouncer=yes', /^\?pgbouncer= takes true \(a pooler in transaction mode .*\) or false$/],
    // A URL mistyped would be a path: folders named after it, its password in their names.
    ['postgresql//shop:secret@127.0.0.1:5432/shop', /^is not a PostgreSQL URL as written: it starts postgres:\/\/ .* with both slashes and the colon$/],
    ['Postgres:/shop:secret@db/shop', /^is not a PostgreSQL URL as written/],
    ['//shop:secret@127.0.0.1:5432/shop', /^holds a user and password before an @, as a database URL does, not a file path/],
    ['shop:secret@db:5432/shop', /^holds a user and password before an @/],
    // A folder not there yet: SQLite would make a file of its name.
    ['./data/', /^ends with a slash, so it names a folder: give the SQLite file's path in it/],
    ['C:\\payform\\', /^ends with a slash/],
  ])('%s is refused, naming why and the fix, without quoting a password', async (url, reason) => {
    expect(ledgerUrlProblem(url)).toMatch(reason);
    expect(ledgerUrlProblem(url)).not.toContain('secret');
    await expect(openLedger(url)).rejects.toThrow(InvalidLedgerInput);
    expect(existsSync(join(dir, '~'))).toBe(false);
  });

  it.each([
    'postgres://shop:pa$word@db/shop', 'postgres://shop@db/shop?sslmode=require&options=-c%20search_path%3Dpayform', './data/price$.db',
    // Unix sockets, as Cloud SQL and local servers are reached; a schema asked for that the ledger gets anyway.
    'postgres://payform@/payform?host=/var/run/postgresql', 'postgres://user:pass@/db?host=/cloudsql/proj:region:inst', 'postgresql:///payform?host=/tmp',
    'postgres://shop@db/shop?schema=public', 'postgres://shop@db/shop?pgbouncer=true', 'postgres://shop@db/shop?sslmode=require&pgbouncer=FALSE',
    // Paths that only look like one: an @ in a folder's name, a colon in another's.
    './backups/shop@eu/payform.db', './data/2026-11-30T10:00/payform.db', 'postgres-ledger.db',
  ])('%s is still a ledger', (url) => {
    expect(ledgerUrlProblem(url)).toBeUndefined();
  });

  it('opens the file a path names', async () => {
    const ledger = await openLedger('./data/payform.db');
    await ledger.close();
    expect(existsSync(join(dir, 'data', 'payform.db'))).toBe(true);
  });
});
