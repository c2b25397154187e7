// explainedLedgerFault: node-postgres's real refusals, said in the terms of the variable another
// command (copy-ledger's --to) takes the URL from, as the companion's start says them for
// PAYFORM_DATABASE_URL (start.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { openLedger } from '../ledger/index.js';
import { withTestDatabase } from '../ledger/testing/databases.js';
import { closedPort } from './test/closed-port.js';
import { explainedLedgerFault } from './ledger-faults.js';

/** What opening the ledger at `url` failed with, explained for `--to`. */
async function explained(url: string): Promise<string> {
  const error = await openLedger(url).then(
    async (ledger) => {
      await ledger.close();
      throw new Error(`the ledger at ${url} opened`);
    },
    (refused: unknown) => refused,
  );
  return explainedLedgerFault(error, url, '--to');
}

withTestDatabase((url) => {
  describe('explainedLedgerFault', () => {
    it('names the variable given, not PAYFORM_DATABASE_URL, with the fix for each refusal', async () => {
      const none = Object.assign(new URL(url), { password: '' }).href;
      // node-postgres: "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string".
      vi.stubEnv('PGPASSWORD', undefined);
      vi.stubEnv('PGPASSFILE', '/nonexistent/pgpass');
      try {
        expect(await explained(none)).toBe(
          'the server asks for a password, and --to gives none: write it in the URL (postgres://user:password@host/database), or set PGPASSWORD',
        );
      } finally {
        vi.unstubAllEnvs();
      }
      const port = await closedPort();
      expect(await explained(`postgres://payform:payform@127.0.0.1:${port}/payform`)).toBe(
        `connect ECONNREFUSED 127.0.0.1:${port} (nothing listens there: start PostgreSQL, or correct the host and port)`,
      );
      // .invalid never resolves (RFC 6761).
      expect(await explained('postgres://payform:payform@db.invalid:5432/payform')).toMatch(/ENOTFOUND db\.invalid \(the URL's host name does not resolve here: correct it/);
      const missing = Object.assign(new URL(url), { pathname: '/payform_no_such_database' }).href;
      expect(await explained(missing)).toBe(
        'database "payform_no_such_database" does not exist (create it — createdb, or CREATE DATABASE — or correct the database\'s name in the URL)',
      );
      const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        expect(await explained(Object.assign(new URL(url), { search: '?sslmode=verify-full' }).href)).toBe(
          'The server does not support SSL connections: --to asks for TLS (sslmode=verify-full), and the PostgreSQL server there takes none. ' +
            'If the network between this machine and the server is trusted (the same machine, a private network), write sslmode=disable in --to; ' +
            'otherwise turn TLS on in the server (ssl = on in postgresql.conf, with ssl_cert_file and ssl_key_file)',
        );
      } finally {
        warnings.mockRestore();
      }
    });

    it('gives the error’s own words when it has nothing to add', () => {
      expect(explainedLedgerFault(new Error('something else'), 'postgres://payform@db/payform', '--to')).toBe('something else');
      expect(explainedLedgerFault('not an error', './data/payform.db')).toBe('not an error');
    });
  });
});
