/**
 * What `npm start` builds before it serves: the widget bundle, the companion's back office and
 * the demo's pages, each only when its output is missing or older than its newest source. Fast
 * when nothing changed: a walk over file times, no bundler loaded. `npx tsx demo/builds.ts` does just that (.ci/test,
 * before the suites that serve the bundle start in parallel).
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

interface Build {
  readonly name: string;
  /** The npm script that makes it. */
  readonly script: string;
  /** A file the build writes every time (relative to the repository). */
  readonly output: string;
  /** Files and folders whose changes call for a rebuild. */
  readonly sources: readonly string[];
}

export const BUILDS: readonly Build[] = [
  { name: 'widget', script: 'build:widget', output: 'widget/dist/pay-form.js', sources: ['widget', 'vite.config.ts'] },
  {
    name: 'back office',
    script: 'build:back-office',
    output: 'server/companion/dist/back-office/index.html',
    sources: ['server/companion/back-office', 'server/companion/package.json', 'widget/card/currencies.ts'],
  },
  {
    name: 'demo pages',
    script: 'build:demo',
    output: 'dist/demo/index.html',
    // The pages take their look, display preferences and money formatting from the back office's sources.
    sources: ['demo/web', 'server/companion/back-office/web', 'demo/catalog.ts', 'server/gateway/test-project.ts', 'vite.config.ts'],
  },
];

/** Tests and test fixtures do not end up in a bundle. */
const NOT_A_SOURCE = /(\.test\.ts|\.d\.ts)$|^(test|node_modules|dist)$/;

/** The newest modification time under `path`, in ms; 0 when nothing is there. */
export function newestChange(path: string): number {
  let info;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (!NOT_A_SOURCE.test(entry)) newest = Math.max(newest, newestChange(join(path, entry)));
  }
  return newest;
}

export function isStale(build: Build, root = REPOSITORY): boolean {
  const built = newestChange(join(root, build.output));
  return built === 0 || build.sources.some((source) => newestChange(join(root, source)) > built);
}

/** Runs the builds that are stale, one after the other; answers the names of those it ran. */
export async function buildWhatIsStale(log: (line: string) => void = console.log): Promise<string[]> {
  const ran: string[] = [];
  for (const build of BUILDS) {
    if (!isStale(build)) continue;
    log(`payform: building the ${build.name} (npm run ${build.script}) …`);
    await runScript(build.script);
    ran.push(build.name);
  }
  return ran;
}

function runScript(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', script], { cwd: REPOSITORY, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`npm run ${script} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildWhatIsStale();
