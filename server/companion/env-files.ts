/**
 * The bin's `--env-file`s, read as Node's own option reads them: a variable already in the
 * environment wins, and of two files that set one, the later. (Node 20 also looks at an
 * `--env-file` given after the script, and stops, exit 9, at one it cannot read, before this
 * runs; it loads nothing from there.)
 */
import { readFileSync } from 'node:fs';
import * as util from 'node:util';

/** What Node reads only as it starts (and the bin's pool size, chosen before any file is read). */
const AT_START_ONLY = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'UV_THREADPOOL_SIZE'];

export type EnvFilesRead =
  | { readonly problem: string }
  /** `late`: variables the files set that take effect only when Node starts: said, not silently dropped. */
  | { readonly late: readonly string[] };

export function loadEnvFiles(files: readonly string[], env: NodeJS.ProcessEnv = process.env): EnvFilesRead {
  // Bun and Deno may lack it; Node has it from 20.12.
  const parseEnv = (util as { parseEnv?: (content: string) => Record<string, string> }).parseEnv;
  if (files.length > 0 && typeof parseEnv !== 'function') return { problem: '--env-file needs Node.js 20.12 or later: set the variables in the environment instead' };
  const read: Record<string, string> = {};
  for (const file of files) {
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (error) {
      return { problem: `--env-file ${file} cannot be read (${(error as Error).message}): give the path of your .env file` };
    }
    // A byte order mark, which Windows editors write, is no part of the first name.
    Object.assign(read, parseEnv!(content.startsWith('\uFEFF') ? content.slice(1) : content));
  }
  for (const [name, value] of Object.entries(read)) env[name] ??= value;
  return { late: AT_START_ONLY.filter((name) => name in read) };
}
