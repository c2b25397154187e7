// A real PgBouncer in front of the test database, for the ledger's tests behind a pooler.
// Debian's package (`apt-get install pgbouncer`); its service is not used: each test file runs
// a process of its own, on a free port, with a database of its own (PgBouncer 1.18 refuses the
// `options` startup parameter that gives the other tests a schema each).
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { dropDatabase, withClient } from './schema-pool.js';

const PLACES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];


/** How long PgBouncer's safe shutdown may wait for clients before it is killed. */
const SAFE_SHUTDOWN_MS = 3_000;
export const missingPgBouncer =
  'PgBouncer is not installed, so the ledger cannot be tested behind a pooler (the test must not be skipped).\n' +
  'Install it with `apt-get install -y pgbouncer` (Debian; its own service need not run), or run `npm test`, which provides it.';

export function pgBouncerBinary(): string | undefined {
  return PLACES.find((place) => existsSync(place)) ?? (spawnSync('pgbouncer', ['--version']).status === 0 ? 'pgbouncer' : undefined);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PgBouncer {
  /** The database through PgBouncer. */
  readonly url: string;
  /** The same database, directly. */
  readonly directUrl: string;
  stop(): Promise<void>;
}

/** PgBouncer in `mode` before a new database of the server at `url`, with `poolSize` server connections; `settings`: more lines of its [pgbouncer] section. */
export async function startPgBouncer(url: string, mode: 'transaction' | 'session', poolSize: number, settings: readonly string[] = []): Promise<PgBouncer> {
  const binary = pgBouncerBinary();
  if (!binary) throw new Error(missingPgBouncer);
  const server = new URL(url);
  const database = `payform_pgb_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(url, (client) => client.query(`create database ${database}`));
  const dir = mkdtempSync(join(tmpdir(), 'payform-pgbouncer-'));
  // PgBouncer will not run as root: it is started as the server's own user, who must read these.
  chmodSync(dir, 0o755);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${server.hostname} port=${server.port || 5432} dbname=${database} user=${user} password=${password}`,
      '[pgbouncer]',
      `listen_addr = 127.0.0.1`,
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      `pool_mode = ${mode}`,
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 200',
      ...settings,
    ].join('\n'),
    { mode: 0o644 },
  );
  const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child: ChildProcess = spawn(binary, [...asUser, join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4000)));
  const through = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`;
  const directUrl = Object.assign(new URL(url), { pathname: `/${database}` }).toString();
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // SIGINT is PgBouncer's safe shutdown: it waits for every client's transaction to end, and
      // one a test left open (a cut connection not yet noticed) held a suite's end for 30 s. The
      // database is dropped next, by force: nothing in it outlives the test.
      child.kill('SIGINT');
      const killed = setTimeout(() => child.kill('SIGKILL'), SAFE_SHUTDOWN_MS);
      await exited;
      clearTimeout(killed);
    }
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase(url, database);
  };
  for (let tries = 0; ; tries += 1) {
    const client = new pg.Client({ connectionString: through });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return { url: through, directUrl, stop };
    } catch (error) {
      await client.end().catch(() => undefined);
      if (child.exitCode !== null || tries > 50) {
        await stop();
        throw new Error(`PgBouncer did not start: ${said || (error as Error).message}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
