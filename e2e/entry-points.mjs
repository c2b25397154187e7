/**
 * How `npm start` (demo/start.mjs) and the tests start a TypeScript entry point (the demo, a
 * server's main, a bench server, a worker) in a Node process: from one JavaScript file that
 * esbuild bundled from the current sources. Plain JavaScript, so that `npm start` needs no
 * TypeScript loader even to check that its bundle is fresh (entry-points.d.mts types it).
 * The repository's modules are in it (`@payform/*` too, through tsconfig.json's paths), and so are
 * the installed packages but for the ledger's drivers (driversOutside).
 * Bundles live in node_modules/.cache/payform/entries and are built again once any module in
 * them, tsconfig.json or this file is newer.
 *
 * Why not `node --import tsx`: its module hooks run on a thread of their own in Node 20, and every
 * module a process loads crosses to it and back. A companion loads about 600, so a start cost
 * 3.0–3.5 s of CPU through tsx and 1.2–1.6 s from a bundle on the 2-core CI machine; esbuild
 * bundles one in about 0.4 s, once. Its packages bundled as well, it loads a dozen modules, not
 * 650 (kysely's, zod's and undici's mostly): `payform-companion --help` takes 0.27 s of CPU, not 0.9.
 *
 *   spawn(process.execPath, [await bundled('server/companion/main.ts'), ...args])
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { build } from 'esbuild';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

// One folder a checkout: the bench's baseline worktrees share this node_modules (e2e/bench/trees).
const CACHE = join(REPOSITORY, 'node_modules', '.cache', 'payform', 'entries', createHash('sha256').update(REPOSITORY).digest('hex').slice(0, 12));
/** Besides the modules bundled: what decides how they are bundled. */
const SETTINGS = ['tsconfig.json', 'e2e/entry-points.mjs'];

/**
 * Each module keeps its own `import.meta.url`, as under tsx: paths a module finds beside itself
 * (`new URL('..', import.meta.url)`, `createRequire(import.meta.url)`) stay right in the bundle.
 * @type {import('esbuild').Plugin}
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
      loader: 'ts',
    }));
  },
};

/**
 * Installed packages are bundled too, but for the ledger's drivers: the companion looks for the one
 * its PAYFORM_DATABASE_URL needs as it starts and says which to install when it is missing (a
 * bundled driver could never be missing), and better-sqlite3's native addon is found beside its
 * package.json.
 * @type {import('esbuild').Plugin}
 */
const driversOutside = {
  name: 'drivers-outside',
  setup(build) {
    build.onResolve({ filter: /^(better-sqlite3|pg)(\/|$)/ }, ({ path }) => ({ path, external: true }));
  },
};

/**
 * Bundles this process is making, by entry: asked for again meanwhile, each is made once.
 * @type {Map<string, Promise<string>>}
 */
const making = new Map();

/** The bundle of `entry` (a path relative to the repository), made first when missing or stale. */
export async function bundled(entry) {
  const outfile = join(CACHE, `${entry.replaceAll('/', '__').replace(/\.ts$/, '')}.mjs`);
  if (isFresh(outfile)) return outfile;
  let bundle = making.get(entry);
  if (!bundle) {
    bundle = makeBundle(entry, outfile).finally(() => making.delete(entry));
    making.set(entry, bundle);
  }
  return bundle;
}

async function makeBundle(entry, outfile) {
  mkdirSync(CACHE, { recursive: true });
  // Written aside and renamed: processes bundling the same entry at once never read half a file.
  const temporary = `${outfile}.${process.pid}.tmp.mjs`;
  const { metafile } = await build({
    absWorkingDir: REPOSITORY,
    entryPoints: [entry],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS packages (undici, prom-client) call `require` for Node's own modules: an ES module has none.
    banner: { js: "import { createRequire as payformCreateRequire } from 'node:module'; const require = payformCreateRequire(import.meta.url);" },
    tsconfig: 'tsconfig.json',
    metafile: true,
    logLevel: 'error',
    plugins: [driversOutside, ownImportMetaUrl],
  });
  const listing = inputsOf(outfile);
  writeFileSync(`${listing}.${process.pid}.tmp`, JSON.stringify([...Object.keys(metafile.inputs), ...SETTINGS]));
  renameSync(`${listing}.${process.pid}.tmp`, listing);
  renameSync(temporary, outfile);
  return outfile;
}

/** Where the files a bundle was made from are listed. */
const inputsOf = (outfile) => `${outfile}.inputs.json`;

/** The bundle is there and newer than every file it was made from. */
function isFresh(outfile) {
  try {
    const builtAt = statSync(outfile).mtimeMs;
    /** @type {string[]} */
    const inputs = JSON.parse(readFileSync(inputsOf(outfile), 'utf8'));
    return inputs.every((input) => statSync(join(REPOSITORY, input)).mtimeMs < builtAt);
  } catch {
    return false;
  }
}
