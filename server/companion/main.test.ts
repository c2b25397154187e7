/**
 * `payform-companion` installed without the database driver its PAYFORM_DATABASE_URL needs (both are
 * optional peer dependencies): a child process whose module resolution really cannot find the
 * driver stops at once, exit code 1, naming the package to install.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundled } from '../../e2e/entry-points.mjs';
import { finished } from './test/finished-process.js';
import type { Finished } from './test/finished-process.js';

const MAIN = await bundled('server/companion/main.ts');

/**
 * A resolve hook that sends the driver's name on to a package that does not exist, so Node's own
 * resolver fails to find it (ERR_MODULE_NOT_FOUND) as it would in an install without it.
 */
function withoutPackage(name: string): string {
  const hook = `export async function resolve(specifier, context, next) {
    return next(specifier === ${JSON.stringify(name)} ? '@payform-not-installed/' + specifier : specifier, context);
  }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  return `data:text/javascript,${encodeURIComponent(register)}`;
}

/** `databaseUrl` null: PAYFORM_DATABASE_URL unset, run in `directory`, where the default file would be. */
function startWithout(driver: string, databaseUrl: string | null, env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return runMain([], ['--import', withoutPackage(driver)], databaseUrl, env, directory);
}

async function runMain(
  args: readonly string[],
  imports: readonly string[] = [],
  databaseUrl: string | null = ':memory:',
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<Finished> {
  const child = spawn(process.execPath, [...imports, MAIN, ...args], {
    ...(cwd ? { cwd } : {}),
    // An unreachable gateway: the start must stop before anything would call it.
    // Started as by npm (its hints name npm's commands), whatever runs the tests.
    env: { ...process.env, npm_config_user_agent: 'npm/11.6.2 node/v20.20.2 linux x64', PAYFORM_DATABASE_URL: databaseUrl ?? undefined, PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:9', PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMIN_TOKEN: 'main-test-admin-token-0123456789', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return finished(child);
}

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'payform-companion-main-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('payform-companion that cannot start', () => {
  it('refuses to make up an admin token as a worker of Node’s cluster module: each worker’s would differ', async () => {
    // pm2's cluster mode runs the bin so: workers of one primary, sharing its port.
    const primary = `import cluster from 'node:cluster'; cluster.setupPrimary({ exec: ${JSON.stringify(MAIN)}, execArgv: [] }); cluster.fork().on('exit', (code) => process.exit(code));`;
    const env = { ...process.env, PAYFORM_DATABASE_URL: ':memory:', PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:9', PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMIN_TOKEN: undefined };
    const { code, stderr } = await finished(spawn(process.execPath, ['--input-type=module', '-e', primary], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }));
    expect(code).toBe(1);
    expect(stderr).toContain("runs as worker 1 of Node's cluster module (as pm2's cluster mode runs it)");
    expect(stderr.trim().split('\n').at(-1)).toMatch(/set PAYFORM_ADMIN_TOKEN$/);
  });

  it('stops a cluster worker signalled as its port opens, at once or drained, exit code 0 and no stack', async () => {
    // Stopped the moment its port opens (a deploy rolled back, the primary shutting down): handlers set after that missed the signal.
    const primary = `import cluster from 'node:cluster'; cluster.setupPrimary({ exec: ${JSON.stringify(MAIN)}, execArgv: [] });
      cluster.on('listening', (worker) => worker.process.kill('SIGTERM'));
      cluster.fork().on('exit', (code, signal) => process.exit(signal ? 143 : code));`;
    const env = { ...process.env, PAYFORM_DATABASE_URL: ':memory:', PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:9', PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMIN_TOKEN: 'cluster-worker-token-0123456789abcdef' };
    const { code, stdout, stderr } = await finished(spawn(process.execPath, ['--input-type=module', '-e', primary], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }));
    expect(code).toBe(0);
    // Before it was ready (nothing taken), or once ready and drained: said either way.
    expect(stdout).toMatch(/^payform companion stopped( \(SIGTERM\) before it was ready: it had taken no request)?$/m);
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('marks each line of a cluster worker with its process id: the workers share one standard error', async () => {
    // Stopped once ready: its start's lines and its drain's.
    const primary = `import cluster from 'node:cluster'; cluster.setupPrimary({ exec: ${JSON.stringify(MAIN)}, execArgv: [], silent: true });
      const worker = cluster.fork();
      worker.process.stderr.pipe(process.stderr);
      worker.process.stdout.on('data', (chunk) => { process.stdout.write(chunk); if (String(chunk).includes('listening on')) worker.process.kill('SIGTERM'); });
      worker.on('exit', (code, signal) => { console.log('worker pid ' + worker.process.pid); process.exit(signal ? 143 : code); });`;
    const env = { ...process.env, PAYFORM_DATABASE_URL: ':memory:', PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:9', PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMIN_TOKEN: 'cluster-worker-token-0123456789abcdef' };
    const { code, stdout, stderr } = await finished(spawn(process.execPath, ['--input-type=module', '-e', primary], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }));
    expect(code).toBe(0);
    const pid = Number(/^worker pid (\d+)$/m.exec(stdout)?.[1]);
    const lines = stderr.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { pid?: number; msg: string });
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['ledger: SQLite at :memory:', 'companion stopping', 'companion stopped taking requests']));
    expect(lines.filter((line) => line.pid !== pid)).toEqual([]);
  }, 60_000);

  it('says why last, after the lines its start had logged: the metrics address taken', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const { port } = taken.address() as AddressInfo;
      const { code, stderr } = await runMain([], [], ':memory:', { PAYFORM_METRICS_ADDRESS: `127.0.0.1:${port}` });
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(/^payform companion could not start: .*PAYFORM_METRICS_ADDRESS/);
      expect(lines.slice(0, -1).every((line) => line.startsWith('{'))).toBe(true);
    } finally {
      taken.close();
    }
  }, 60_000);

  it('says the metrics address names the companion’s own port, not that another program holds it', async () => {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    probe.close();
    await once(probe, 'close');
    const { code, stderr } = await runMain([], [], ':memory:', { PORT: String(port), PAYFORM_METRICS_ADDRESS: `127.0.0.1:${port}` });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n').at(-1)).toBe(
      `payform companion could not start: PAYFORM_METRICS_ADDRESS names port ${port}, the companion's own (PORT): give the metrics a port of their own`,
    );
  }, 60_000);
});

describe('payform-companion whose PAYFORM_LOG_FILE cannot be written', () => {
  it('says which setting, not a bare ENOENT', async () => {
    const file = join(directory, 'no-such-folder', 'companion.log');
    const { code, stderr } = await runMain([], [], ':memory:', { PAYFORM_LOG_FILE: file });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n').at(-1)).toBe(
      `payform companion could not start: PAYFORM_LOG_FILE is ${file}, which cannot be written (ENOENT: no such file or directory, open '${file}'): set it to a writable file, or unset it`,
    );
  }, 60_000);
});

describe('a companion mounted in a shop whose PAYFORM_LOG_FILE cannot be written', () => {
  it('fails as it is composed, naming the setting, not on a request’s first log line', async () => {
    const file = join(directory, 'no-such-folder', 'mounted.log');
    const script = join(directory, 'mount.mts');
    // Composed as a shop's server does (createCompanion makes its logger); no request is made.
    writeFileSync(
      script,
      `import { createLogger } from ${JSON.stringify(join(import.meta.dirname, 'log/logger.ts'))};\n` +
        'try { createLogger(); console.log("composed"); } catch (error) { console.log(error.message); }\n',
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, PAYFORM_LOG_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    const { stdout } = await finished(child);
    expect(stdout.trim()).toBe(`PAYFORM_LOG_FILE is ${file}, which cannot be written (ENOENT: no such file or directory, open '${file}'): set it to a writable file, or unset it`);
  }, 60_000);
});

describe('payform-companion without the driver its PAYFORM_DATABASE_URL needs', () => {
  it('stops with exit code 1 and `npm install pg@8` for a postgres:// URL', async () => {
    const { code, stdout, stderr } = await startWithout('pg', 'postgres://payform:payform@127.0.0.1:5432/payform_test');
    expect(code).toBe(1);
    expect(stderr).toContain("payform companion could not start: A PostgreSQL ledger (PAYFORM_DATABASE_URL postgres://…) needs the 'pg' package, which is not installed: run `npm install pg@8`");
    // One line, no stack, and it never listened.
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).not.toContain('listening');
  }, 60_000);

  it('stops with exit code 1 and `npm install better-sqlite3@12` for a file, creating no database', async () => {
    const file = join(directory, 'data', 'ledger.db');
    const { code, stdout, stderr } = await startWithout('better-sqlite3', file);
    expect(code).toBe(1);
    expect(stderr).toContain("needs the 'better-sqlite3' package, which is not installed: run `npm install better-sqlite3@12`");
    expect(stdout).not.toContain('listening');
    expect(existsSync(join(directory, 'data'))).toBe(false);
  }, 60_000);

  it('says PAYFORM_DATABASE_URL is unset before suggesting better-sqlite3 for the default file, and the name it was set under', async () => {
    const { code, stderr } = await startWithout('better-sqlite3', null, { PAYFORM_DATABASE_ULR: 'postgres://payform:payform@127.0.0.1:5432/payform' });
    expect(code).toBe(1);
    expect(stderr).toContain('payform companion could not start: PAYFORM_DATABASE_URL is not set, so the ledger defaulted to ');
    expect(stderr).toContain('set PAYFORM_DATABASE_URL to your postgres:// URL, or run `npm install better-sqlite3@12`; PAYFORM_DATABASE_ULR is set: did you mean PAYFORM_DATABASE_URL?');
    expect(existsSync(join(directory, 'data'))).toBe(false);
  }, 60_000);
});

describe('payform-companion on the command line', () => {
  it('--help prints the usage and where every variable is documented, and starts nothing', async () => {
    const { code, stdout } = await runMain(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: payform-companion/);
    expect(stdout).toContain('GATEWAY_BASE_URL');
    expect(stdout).toContain('https://github.com/payform/payform/tree/main/server/companion#readme');
    expect(stdout).not.toContain('listening');
  }, 60_000);

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
    const { code, stdout } = await runMain(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`@payform/companion ${version}\n`);
  }, 60_000);

  it('refuses an argument it does not know, with exit code 2, instead of starting', async () => {
    const { code, stdout, stderr } = await runMain(['--port', '4000']);
    expect(code).toBe(2);
    expect(stderr).toContain('unexpected arguments "--port" "4000": the companion is configured by environment variables (or a .env file: --env-file .env)');
    expect(stdout).not.toContain('listening');
  }, 60_000);

  it('--env-file reads its variables before the settings, and a file it cannot read stops the start', async () => {
    const log = join(directory, 'no-such-folder', 'from-env-file.log');
    const envFile = join(directory, 'companion.env');
    writeFileSync(envFile, `# the shop's settings\nPAYFORM_LOG_FILE=${log}\n`);
    // What the environment sets wins over the file: unset here, as npm test sets it for its log capture.
    const read = await runMain([`--env-file=${envFile}`], [], ':memory:', { PAYFORM_LOG_FILE: undefined });
    expect(read.code).toBe(1);
    expect(read.stderr).toContain(`payform companion could not start: PAYFORM_LOG_FILE is ${log}, which cannot be written`);

    const missing = join(directory, 'missing.env');
    const unread = await runMain(['--env-file', missing]);
    // Node 20 itself looks for an --env-file given after the script, and stops first (exit 9),
    // though it loads none from there; later Nodes leave it to the companion.
    if (unread.code === 9) {
      expect(process.versions.node).toMatch(/^20\./);
      expect(unread.stderr.trim()).toBe(`${process.execPath}: ${missing}: not found`);
    } else {
      expect(unread.code).toBe(1);
      expect(unread.stderr.trim()).toBe(`payform companion could not start: --env-file ${missing} cannot be read (ENOENT: no such file or directory, open '${missing}'): give the path of your .env file`);
    }
    expect(unread.stdout).not.toContain('listening');
  }, 60_000);
});

describe('payform-companion whose log reader goes away', () => {
  it('goes on serving, and still drains and exits 0 on SIGTERM (and says where its metrics are)', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PAYFORM_DATABASE_URL: ':memory:',
        PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:9',
        PORT: '0',
        PAYFORM_HOST: '127.0.0.1',
        PAYFORM_ADMIN_TOKEN: 'main-test-admin-token-0123456789',
        PAYFORM_METRICS_ADDRESS: '127.0.0.1:0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (listening) resolve(listening[1]!);
      });
      void exited.then(([code]) => reject(new Error(`exited ${code}: ${stdout}`)));
    });
    // The tokenless metrics listener says where it is, so one open to every interface is seen.
    for (let waited = 0; !stdout.includes('metrics at') && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stdout).toMatch(/^payform companion: metrics at http:\/\/127\.0\.0\.1:\d+\/metrics \(PAYFORM_METRICS_ADDRESS; no token: only Prometheus should reach it\)$/m);
    // The supervisor's log pipe closes: each request's log line now meets EPIPE.
    child.stderr.destroy();
    for (let index = 0; index < 5; index += 1) {
      expect((await fetch(`${url}/api/checkout/sessions/cs_not_there`)).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(child.exitCode).toBe(null);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // Said once, where it can still be read.
    expect(stdout.match(/payform companion: its log, standard error, failed \(EPIPE\): log lines are dropped from now on/g)).toHaveLength(1);
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  }, 60_000);
});

describe('payform-companion upgraded from 0.2 with its DATABASE_URL kept', () => {
  it('warns, as it makes a ledger of its own, that the one DATABASE_URL names is left alone', async () => {
    const cwd = await mkdtemp(join(directory, 'upgraded-'));
    const child = spawn(process.execPath, [MAIN], {
      cwd,
      env: { ...process.env, PAYFORM_DATABASE_URL: undefined, DATABASE_URL: join(cwd, 'payform-0.2.db'), PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:9', PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMIN_TOKEN: 'main-test-admin-token-0123456789' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    const exited = once(child, 'exit');
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('new: made by this start')) resolve();
      });
      void exited.then(() => reject(new Error(`exited: ${stderr}`)));
    });
    child.kill('SIGTERM');
    await exited;
    const line = stderr.split('\n').find((text) => text.includes('new: made by this start'))!;
    expect(JSON.parse(line)).toMatchObject({
      level: 'warn',
      msg: `ledger: SQLite at ${join(cwd, 'data', 'payform.db')}, new: made by this start, while DATABASE_URL, which payform 0.2 read, is set and left alone: ` +
        "if it names this shop's ledger, set PAYFORM_DATABASE_URL to it, or the payments taken before, and the webhooks about them, stay there",
    });
  }, 60_000);
});

describe('payform-companion given its admin token under a misspelt name', () => {
  it('names it beside the token it made up, where the operator copies the token from', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PAYFORM_DATABASE_URL: ':memory:', PAYFORM_GATEWAY_BASE_URL: 'http://127.0.0.1:9', PORT: '0', PAYFORM_HOST: '127.0.0.1', PAYFORM_ADMINTOKEN: 'main-test-admin-token-0123456789' };
    delete env.PAYFORM_ADMIN_TOKEN;
    delete env.NODE_ENV;
    const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    let stdout = '';
    const made = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        const line = /^payform companion: PAYFORM_ADMIN_TOKEN was not set.*$/m.exec(stdout);
        if (line) resolve(line[0]);
      });
      void exited.then(([code]) => reject(new Error(`exited ${code}: ${stdout}`)));
    });
    expect(await made).toMatch(/^payform companion: PAYFORM_ADMIN_TOKEN was not set; this run's token is \S+; PAYFORM_ADMINTOKEN is set: did you mean PAYFORM_ADMIN_TOKEN\?$/);
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  }, 60_000);
});
