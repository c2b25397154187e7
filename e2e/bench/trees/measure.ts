/** A measurement function of a tree's bench, run in that tree (see run-in-tree.ts). */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Tree } from './baseline.js';

const RUNNER = fileURLToPath(new URL('./run-in-tree.ts', import.meta.url));

export function measureInTree<T>(tree: Tree, module: string, fn: string, args: readonly unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, JSON.stringify({ module, fn, args })], {
      cwd: tree.root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`${fn} in ${tree.name} exited with ${code}`));
      try {
        resolve((JSON.parse(last) as { result: T }).result);
      } catch {
        reject(new Error(`${fn} in ${tree.name} printed no result: ${last.slice(0, 200)}`));
      }
    });
  });
}
