/** A spawned process's exit code and what it wrote, once it has exited. */
import { once } from 'node:events';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export async function finished(child: ChildProcessByStdio<null, Readable, Readable>): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}
