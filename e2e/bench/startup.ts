/**
 * Start-up: `npm start` spawned → its `payform ready` line (everything listens), once built.
 * The first start is not timed (it may build the demo); then each start is timed and stopped
 * with Ctrl-C (SIGINT to its process group). Free ports (PORT=0, SANDBOX_PORT=0) and a
 * throwaway SQLite file, so a run never touches ./data.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { summarise } from './load/latency.js';
import type { LatencySummary } from './load/latency.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const READY = /^payform ready/;
const START_TIMEOUT_MS = 120_000;

export interface StartupFigures {
  readonly ready: LatencySummary;
}

/** Whether package.json has a start script yet. */
export function hasStartScript(): boolean {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts;
  return Boolean(scripts?.start);
}

async function startOnce(env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  // Its own process group, so Ctrl-C reaches npm and everything it started.
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const errors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => errors.push(line));
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start printed no "payform ready" line within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (READY.test(line)) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}) before it was ready: ${errors.slice(-5).join(' | ')}`));
      });
    });
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    if (!stopped) process.kill(-child.pid!, 'SIGKILL');
  }
}

export async function measureStartup(samples = 5): Promise<StartupFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'payform-bench-start-'));
  try {
    const env = { ...process.env, PORT: '0', SANDBOX_PORT: '0', PAYFORM_DATABASE_URL: join(dir, 'payform.db') };
    await startOnce(env); // builds what needs building
    const times: number[] = [];
    for (let sample = 0; sample < samples; sample += 1) times.push(await startOnce(env));
    return { ready: summarise(times) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
