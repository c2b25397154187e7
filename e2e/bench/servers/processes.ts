/**
 * Starts the sandbox and companions of serve.ts as child processes and stops them: serve.ts from
 * its bundle (e2e/entry-points.mjs), so a start costs what a payform server's does, not what tsx
 * adds; through tsx when the run is profiled (below). Each child listens on 127.0.0.1 and a free port and dies with its parent (its standard
 * input is a pipe from us). Standard error — the companion's log — goes to a file when one is named.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundled } from '../../entry-points.mjs';

const SERVE = 'e2e/bench/servers/serve.ts';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const READY_TIMEOUT_MS = 30_000;

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** CPU time (user + system) the process has used so far, ms. */
  cpuMs(): number;
  /** Resident memory now, bytes. */
  rssBytes(): number;
  /** SIGTERM, then waits for the exit (a CPU profile is written on the way out). */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Write a V8 CPU profile into this folder when the process exits (or set BENCH_CPU_PROFILE_DIR). */
  readonly cpuProfileDir?: string;
  /** Append the process's standard error here; default: discarded. */
  readonly logFile?: string;
}

/**
 * serve.ts as node's arguments: its bundle, or — when the run is profiled, by a V8 CPU profile or
 * by perf's map (NODE_OPTIONS=--perf-basic-prof) — its sources through tsx, so that every frame
 * names its own source file and `pgrep -f 'serve.ts companion'` finds the process.
 */
async function serveArgs(profileDir: string | undefined): Promise<string[]> {
  const profiled = profileDir !== undefined || /--perf-(basic-)?prof\b/.test(process.env.NODE_OPTIONS ?? '');
  return profiled ? ['--import', 'tsx', SERVE] : [await bundled(SERVE)];
}

/** Spawns `serve.ts <role>` and resolves once it prints its URL. */
export async function spawnServer(role: 'sandbox' | 'companion' | 'sink' | 'floor', options: SpawnOptions = {}): Promise<ServerProcess> {
  const stderr = options.logFile ? openSync(options.logFile, 'a') : 'ignore';
  const profileDir = options.cpuProfileDir ?? process.env.BENCH_CPU_PROFILE_DIR;
  const child = spawn(
    process.execPath,
    [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(await serveArgs(profileDir)), role],
    { cwd: ROOT, stdio: ['pipe', 'pipe', stderr], env: { ...process.env, ...options.env } },
  );
  if (typeof stderr === 'number') closeSync(stderr);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const ready = (JSON.parse(line) as { ready?: string }).ready;
        if (ready) {
          clearTimeout(timer);
          resolve(ready);
        }
      } catch {
        // Not the ready line.
      }
    });
  });
  return {
    url,
    child,
    cpuMs: () => processCpuMs(child.pid!),
    rssBytes: () => processRssBytes(child.pid!),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

// /proc/<pid>/stat: fields 14 and 15 are user and system time in clock ticks (100 per second
// on Linux); the command name in parentheses may hold spaces, so count from its end.
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

export function processRssBytes(pid: number): number {
  return Number(statFields(pid)[21]) * PAGE_BYTES;
}
