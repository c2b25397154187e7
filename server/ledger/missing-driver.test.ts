// What a missing driver is said as: the package for the URL given, and for a URL left unset the
// setting first, since a PostgreSQL shop's companion lands on the default SQLite file.
import { expect, it } from 'vitest';
import { startedBy } from './testing/started-by.js';
import { MissingDriverError } from './missing-driver.js';

// As started by npm: its commands are the ones named (driver-releases.test.ts tries the others).
startedBy('npm/11.6.2 node/v20.20.2 linux x64');

it('names the package for a URL given, and the unset PAYFORM_DATABASE_URL for the default file', () => {
  const given = new MissingDriverError('better-sqlite3', 'A SQLite ledger (PAYFORM_DATABASE_URL a file path or :memory:)');
  expect(given.message).toBe(
    "A SQLite ledger (PAYFORM_DATABASE_URL a file path or :memory:) needs the 'better-sqlite3' package, which is not installed: run `npm install better-sqlite3@12`",
  );

  const defaulted = given.unsetUrl('/srv/shop/data/payform.db');
  expect(defaulted).toBeInstanceOf(MissingDriverError);
  expect(defaulted.driver).toBe('better-sqlite3');
  expect(defaulted.message).toBe(
    "PAYFORM_DATABASE_URL is not set, so the ledger defaulted to /srv/shop/data/payform.db (SQLite), which needs the 'better-sqlite3' package: " +
      'set PAYFORM_DATABASE_URL to your postgres:// URL, or run `npm install better-sqlite3@12`',
  );
});
