// `npm start`'s entry. Plain JavaScript, so that it runs on a clone nothing was installed in yet:
// what a fresh machine lacks (a recent enough Node.js, `npm install`) is said in one line, where
// `node --import tsx` printed a stack trace. Then demo/main.ts runs in the repository, as npm
// runs it: started from another directory, the packages still come from their sources
// (tsconfig.json's paths) and ./data is still the repository's.
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

/** package.json's engines.node. */
const NODE = [20, 19];

function fail(message) {
  console.error(`payform could not start: ${message}`);
  process.exit(1);
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < NODE[0] || (major === NODE[0] && minor < NODE[1])) {
  fail(`it needs Node.js ${NODE.join('.')} or later, and this is ${process.version}: install a newer Node.js, then run npm install && npm start again`);
}

let bundled;
try {
  ({ bundled } = await import('../e2e/entry-points.mjs'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes("'esbuild'")) throw error;
  fail(`its dependencies are not installed (no esbuild in ${fileURLToPath(new URL('../node_modules/', import.meta.url))}): run npm install first, then npm start`);
}
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
// The demo runs from esbuild's bundle of its sources, made again whenever one of them changed
// (e2e/entry-points.mjs): through tsx's module hooks, which its 600-odd modules each crossed to
// another thread and back, it was ready in 3.0 s here, against 1.3 s bundled.
let main;
try {
  main = await bundled('demo/main.ts');
} catch (error) {
  // esbuild printed its own errors above, each with its place in the sources. An installed package
  // it could not find is not the sources' fault: the install is behind package.json.
  const missing = new Set((error?.errors ?? []).map(({ text }) => /^Could not resolve "((?:@[^/"]+\/)?[^./"][^/"]*)/.exec(text)?.[1]).filter(Boolean));
  if (missing.size > 0) fail(`packages it needs are not installed (${[...missing].join(', ')}): run npm install, then npm start again`);
  fail(error?.errors ? 'its sources did not bundle: fix what esbuild printed above, then run npm start again' : `its sources could not be bundled: ${error?.message ?? String(error)}`);
}
await import(pathToFileURL(main).href);
