/**
 * What a test of a started companion needs beside it: a sandbox served on loopback and a folder of
 * its own (the ledger's file, a log), made before each test of the file or block and removed after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { serveSandbox } from '../../sandbox/testing/served.js';
import type { ServedSandbox } from '../../sandbox/testing/served.js';

export interface SandboxAndFolder {
  readonly sandbox: ServedSandbox;
  readonly dir: string;
}

/** Registers the hooks; `use` is handed each test's sandbox and folder before it runs. */
export function eachServedSandbox(folderPrefix: string, use: (made: SandboxAndFolder) => void): void {
  let made: SandboxAndFolder | undefined;
  beforeEach(async () => {
    made = { sandbox: await serveSandbox(), dir: mkdtempSync(join(tmpdir(), folderPrefix)) };
    use(made);
  });
  afterEach(async () => {
    if (!made) return;
    await made.sandbox.close();
    rmSync(made.dir, { recursive: true, force: true });
    made = undefined;
  });
}
