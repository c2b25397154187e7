/**
 * `.ci/ensure-postgres`, which `npm test` sources before every run: provisioning once more on a
 * machine it has already provisioned finishes at once. It runs under a lock, and a server it
 * started with the lock's descriptor open held the lock for as long as it ran: the next `npm
 * test` on the machine waited forever before its first suite.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const LOCK = '/run/payform-ensure-postgres.lock';
const isRoot = process.getuid?.() === 0;

/** The processes that have the file open, by pid. */
function holdersOf(path: string): number[] {
  const holders: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === path)) holders.push(Number(pid));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return holders;
}

/** Sources the script as .ci/test does, without the URL the run already has. */
function provision() {
  const env = { ...process.env };
  delete env.TEST_DATABASE_URL;
  return run('sh', ['-c', '. .ci/ensure-postgres'], { env, timeout: 60_000 });
}

describe('.ci/ensure-postgres', () => {
  it(isRoot ? 'provisions again at once, the server it started holding no lock' : 'says a non-root user needs TEST_DATABASE_URL', async () => {
    if (!isRoot) {
      await expect(provision()).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('set TEST_DATABASE_URL') });
      return;
    }
    const { stdout } = await provision();
    expect(stdout).toContain('PostgreSQL ready for the suites at postgres://');
    expect(holdersOf(LOCK)).toEqual([]);
    // Twice in a row: the first may have started the server.
    expect((await provision()).stdout).toContain('PostgreSQL ready');
  }, 150_000);
});
