/**
 * Runs one measurement of a checkout's bench in a process of its own, started in that checkout
 * (tsx reads its tsconfig there, so its `@payform/*` paths are its own):
 *
 *   cd <tree> && node --import tsx <this file> '{"module":"e2e/bench/overhead.ts","fn":"measureCompanionOverhead","args":[…]}'
 *
 * Prints `{"result": …}` as its last line.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { module, fn, args } = JSON.parse(process.argv[2] ?? '{}') as { module: string; fn: string; args: unknown[] };
const loaded = (await import(pathToFileURL(join(process.cwd(), module)).href)) as Record<string, (...args: unknown[]) => Promise<unknown>>;
const measure = loaded[fn];
if (!measure) throw new Error(`${module} has no ${fn}`);
const result = await measure(...args);
console.log(JSON.stringify({ result }));
