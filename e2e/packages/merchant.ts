/**
 * The merchant's side of the packages suite: the packaged `payform-sandbox` and
 * `payform-companion` started from the throwaway project's node_modules/.bin, each a process
 * of its own configured only by its command line and environment, as docs/sandbox.md and
 * docs/companion.md tell a merchant to run them.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { CompanionTarget } from '../companion-http/journeys.js';

export interface RunningBin {
  /** The URL it printed ("… listening on <url>"). */
  readonly url: string;
  /** Everything it wrote so far. */
  output(): string;
  /** SIGTERM, then waits until it exited. */
  stop(): Promise<void>;
}

/**
 * Spawns `node_modules/.bin/<bin>` in the shop and waits for its "listening on <url>" line; run
 * by its shebang's Node, or by `runtime` (Bun: its binary and `--bun`).
 */
export function startBin(shop: string, bin: string, args: readonly string[], env: Record<string, string>, runtime: readonly string[] = []): Promise<RunningBin> {
  const file = join(shop, 'node_modules', '.bin', bin);
  const [command, ...runtimeArgs] = [...runtime, file];
  return startProcess(shop, bin, command!, [...runtimeArgs, ...args], env);
}

/** Runs one of the shop's own scripts with Node, as `startBin` runs a bin. */
export function startScript(shop: string, script: string, env: Record<string, string>): Promise<RunningBin> {
  return startProcess(shop, script, process.execPath, [join(shop, script)], env);
}

function startProcess(shop: string, bin: string, command: string, args: readonly string[], env: Record<string, string>): Promise<RunningBin> {
  const child = spawn(command, args, {
    cwd: shop,
    // Only what a merchant's shell would have, plus the log capture `npm test` scans for card data.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? shop, ...(process.env.PAYFORM_LOG_FILE ? { PAYFORM_LOG_FILE: process.env.PAYFORM_LOG_FILE } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${bin} did not say it was listening within 30 s:\n${output}`)), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, output: () => output, stop: () => stop(child, exited) });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => fail(new Error(`${bin} exited (${code ?? signal}) before it listened:\n${output}`)));
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(late);
}

export interface PackagedStack extends CompanionTarget {
  readonly sandbox: RunningBin;
  readonly companion: RunningBin;
  close(): Promise<void>;
}

export interface PackagedStackOptions {
  readonly allowedOrigins?: readonly string[];
  /** The SQLite file's name in the shop, or a postgres:// URL. */
  readonly database?: string;
  /** What runs both bins (startBin); unset: Node. */
  readonly runtime?: readonly string[];
  /** More of the companion's settings (PAYFORM_NOTIFY_URL…). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * `payform-sandbox --port 0`, then `payform-companion` pointed at it with a SQLite file ledger in
 * the shop (better-sqlite3 is the merchant's own dependency) or the PostgreSQL one given,
 * allowing `allowedOrigins` (CORS).
 */
export async function startPackagedStack(shop: string, options: PackagedStackOptions = {}): Promise<PackagedStack> {
  const sandbox = await startBin(shop, 'payform-sandbox', ['--port', '0', '--host', '127.0.0.1'], {}, options.runtime);
  const adminToken = randomBytes(24).toString('base64url');
  let companion: RunningBin;
  try {
    companion = await startBin(shop, 'payform-companion', [], {
      PAYFORM_GATEWAY_BASE_URL: sandbox.url,
      PAYFORM_SANDBOX_ORIGIN: new URL(sandbox.url).origin,
      PORT: '0',
      PAYFORM_HOST: '127.0.0.1',
      PAYFORM_ADMIN_TOKEN: adminToken,
      PAYFORM_DATABASE_URL: options.database?.startsWith('postgres') ? options.database : join(shop, options.database ?? `ledger-${randomBytes(4).toString('hex')}.db`),
      PAYFORM_LOG_LEVEL: 'error',
      ...(options.allowedOrigins ? { PAYFORM_ALLOWED_ORIGINS: options.allowedOrigins.join(',') } : {}),
      ...options.env,
    }, options.runtime);
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
  return {
    companionUrl: companion.url,
    sandboxUrl: sandbox.url,
    adminToken,
    sandbox,
    companion,
    async close() {
      await companion.stop();
      await sandbox.stop();
    },
  };
}
