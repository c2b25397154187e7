// `npm start`'s entry. Plain JavaScript, so that it runs on a clone nothing was installed in yet:
// what a fresh machine lacks (a recent enough Node.js, `npm install`) is said in one line, where
// `node --import tsx` printed a stack trace. Then demo/main.ts runs through tsx in the
// repository, as npm runs it: started from another directory, the packages still resolve to
// their sources (tsconfig.json's paths) and ./data is still the repository's.
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

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

let tsx;
try {
  tsx = await import('tsx/esm/api');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  fail(`its dependencies are not installed (no tsx in ${fileURLToPath(new URL('../node_modules/', import.meta.url))}): run npm install first, then npm start`);
}
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
tsx.register({ tsconfig: 'tsconfig.json' });
await import('./main.ts');
