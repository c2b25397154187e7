/**
 * `npm start` as a user runs it (here without npm: the same `node demo/start.mjs`): it prints the
 * ready line and the addresses, everything answers there, and SIGTERM stops it cleanly. PORT=0
 * and SANDBOX_PORT=0 pick free ports, and the printed ones are the real ones.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildWhatIsStale, REPOSITORY } from './builds.js';

/** npm start's command (package.json), from the repository or, as a user may, another directory. */
const npmStart = (env: Record<string, string>, cwd = REPOSITORY) =>
  spawn(process.execPath, [join(REPOSITORY, 'demo/start.mjs')], {
    cwd,
    env: { ...process.env, PORT: '0', SANDBOX_PORT: '0', PAYFORM_DATABASE_URL: ':memory:', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

let child: ChildProcess | undefined;

beforeAll(() => buildWhatIsStale(() => {}), 300_000);
afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

/** Starts the demo and resolves with everything it printed up to the line saying where the sandbox is. */
async function start(env: Record<string, string>, cwd?: string): Promise<string> {
  child = npmStart({ PAYFORM_LOG_LEVEL: 'error', ...env }, cwd);
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const started = Date.now();
  while (!/Ctrl-C stops everything/.test(printed)) {
    if (child.exitCode !== null) throw new Error(`exited early:\n${printed}`);
    if (Date.now() - started > 60_000) throw new Error(`not ready after 60 s:\n${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return printed;
}

const line = (printed: string, label: string) => new RegExp(`^  ${label} +(\\S+)`, 'm').exec(printed)?.[1];

// start() itself allows 60 s before it gives up, and stopping up to 5 s: a busy machine gets that long.
describe('npm start', { timeout: 90_000 }, () => {
  it('prints the ready line and the real addresses; shop, back office, widget and sandbox answer there, started from any directory', async () => {
    const printed = await start({}, tmpdir());
    expect(printed).toMatch(/^payform ready in \d+ ms/m);
    const shop = line(printed, 'shop')!;
    const backOffice = line(printed, 'back office')!;
    const token = line(printed, 'admin token')!;
    const sandbox = line(printed, 'sandbox')!;
    expect(shop).toMatch(/^http:\/\/localhost:\d+\/$/);
    expect(shop).not.toContain(':0/');
    expect(backOffice).toBe(`${shop}admin#token=${token}`);
    // No HOST in development: this machine only, and the start-up lines say so.
    expect(printed).toContain(`  listening     127.0.0.1:${new URL(shop).port} (this machine only; set PAYFORM_HOST to listen elsewhere)`);
    expect(printed).toContain('4242 4242 4242 4242');
    expect(printed).toContain('  card data     tokenized: <pay-form> sends it to the gateway’s tokenizer, never to this server');

    const page = await fetch(shop);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${shop}widget/pay-form.js`)).status).toBe(200);
    expect((await fetch(`${shop}api/orders`)).status).toBe(401);
    expect((await fetch(`${shop}api/orders`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(await (await fetch(`${sandbox}health`)).text()).toBe('OK');

    child!.kill('SIGTERM');
    const [code] = (await once(child!, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  // The companion's own line about relaying is a log line, which PAYFORM_LOG_LEVEL=error (as here) hides.
  it('does not print a token it was given; says what a ledger file keeps across runs and the sandbox does not, and that card data is relayed', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'payform-demo-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const database = join(folder, 'payform.db');
    const printed = await start({ PAYFORM_ADMIN_TOKEN: 'given-token-0123456789abcdef', PAYFORM_DATABASE_URL: database, PAYFORM_DEMO_CARD_ENTRY: 'relay' });
    expect(printed).toContain('  card data     RELAYED through this server, which puts it in PCI DSS scope');
    expect(printed).not.toContain('given-token-0123456789abcdef');
    expect(line(printed, 'back office')).toMatch(/\/admin$/);
    expect(printed).toContain(`  database      ${database}\n                kept across runs; the sandbox is not, so older orders cannot be captured or refunded`);
    child!.kill('SIGINT');
    expect(((await once(child!, 'exit')) as [number | null])[0]).toBe(0);
  });

  it('says what is wrong with the environment and exits 1', async () => {
    const printed = await refused({ PORT: 'eighty' });
    expect(printed).toContain('payform could not start');
    expect(printed).toContain('PORT');
  });

  /** `npm start` in a copy of its start-up files alone (plus `files`), with what `installed` names linked from the repository's node_modules. */
  async function startInClone(files: Record<string, string>, installed: string[]): Promise<{ code: number | null; printed: string; clone: string }> {
    const clone = mkdtempSync(join(tmpdir(), 'payform-clone-'));
    onTestFinished(() => rmSync(clone, { recursive: true, force: true }));
    for (const file of ['demo/start.mjs', 'e2e/entry-points.mjs', 'tsconfig.json']) {
      mkdirSync(join(clone, dirname(file)), { recursive: true });
      copyFileSync(join(REPOSITORY, file), join(clone, file));
    }
    for (const [file, text] of Object.entries(files)) writeFileSync(join(clone, file), text);
    for (const name of installed) {
      mkdirSync(join(clone, 'node_modules'), { recursive: true });
      symlinkSync(join(REPOSITORY, 'node_modules', name), join(clone, 'node_modules', name));
    }
    child = spawn(process.execPath, [join(clone, 'demo/start.mjs')], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, printed, clone };
  }

  it('says to run npm install, in one line, when nothing is installed yet', async () => {
    const { code, printed, clone } = await startInClone({}, []);
    expect(code).toBe(1);
    expect(printed).toBe(`payform could not start: its dependencies are not installed (no esbuild in ${join(clone, 'node_modules')}/): run npm install first, then npm start\n`);
  });

  it('names the packages missing from an install behind package.json, and says to run npm install', async () => {
    const main = "import { Hono } from 'hono';\nimport { serve } from '@hono/node-server';\nserve({ fetch: new Hono().fetch });\n";
    const { code, printed } = await startInClone({ 'demo/main.ts': main }, ['esbuild', '@esbuild']);
    expect(code).toBe(1);
    expect(printed).toMatch(/payform could not start: packages it needs are not installed \(hono, @hono\/node-server\): run npm install, then npm start again\n$/);
  });

  // A wrong sandbox variable is refused the same way (stack.test.ts has each, in process).
  it('says what is wrong with a sandbox variable and exits 1', async () => {
    const printed = await refused({ SANDBOX_HOST: 'http://127.0.0.1:4000' });
    expect(printed).toContain('payform could not start: Invalid environment: SANDBOX_HOST takes an address, not a URL');
  });
});

/** Starts the demo with a wrong environment: resolves with what it printed to stderr once it exited 1. */
async function refused(env: Record<string, string>): Promise<string> {
  child = npmStart(env);
  let printed = '';
  child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  // Started after all: said at once, rather than when the test's time is up.
  child.stdout!.on('data', (chunk: Buffer) => {
    if (/Ctrl-C stops everything/.test(chunk.toString())) child!.kill('SIGTERM');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code, printed).toBe(1);
  return printed;
}
