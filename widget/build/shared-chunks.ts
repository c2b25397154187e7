import { posix } from 'node:path';
import type { Plugin } from 'vite';

// What a rewritten import() calls, both imports already under way: the chunk's namespace (or its
// own error) once the shared chunks have loaded; when one of them failed, that one's error, the
// chunk's own rejection, which names the chunk, handled here. Written into each chunk that needs
// it (the minifier renames it), before the chunk's code.
const BESIDE = '__payformBeside';
const HELPER = `var ${BESIDE} = (module, shared) => (module.catch(() => {}), shared.then(() => module));\n`;

// import() of a file of the build, as the chunk's code has it before minification.
const DYNAMIC_IMPORT = /\bimport\((["'`])(\.{1,2}\/[^"'`]+)\1\)/g;

/** The chunk's path from `from`'s folder, as an import() in `from` spells it. */
const specifier = (from: string, to: string): string => {
  const path = posix.relative(posix.dirname(from), to);
  return path.startsWith('.') ? path : `./${path}`;
};

/**
 * Build-only, for the chunked bundle (widget/dist): a chunk loaded on demand that imports a chunk
 * shared with others (`chunks/luhn.js`, the card schemes' table and Luhn of the paying chunk and
 * the customer checks) is fetched together with that chunk. The browser learns of a static import
 * only once it has fetched and parsed the chunk that has it: the two would take two round trips to
 * the companion one after the other. A merchant's Vite build preloads them (its modulepreload); a
 * library build, this one, has nothing of the kind.
 *
 * So `import('./chunks/paying.js')` becomes `__payformBeside(import('./chunks/paying.js'),
 * import('./chunks/luhn.js'))` wherever the chunk imported has chunks the importer has not loaded
 * already (the card-number detector, which checks.js loads, needs none: checks.js has luhn.js).
 * Its error is the one of the file that failed: the browser's error for `paying.js` names
 * `paying.js` when what failed is `luhn.js`, and `unloaded` (checkout/companion.ts) tells the
 * developer the file the error names.
 */
export function sharedChunksBeside(): Plugin {
  return {
    name: 'payform:shared-chunks-beside',
    apply: 'build',
    renderChunk(code, chunk, _, { chunks }) {
      /** `fileName` and every chunk it imports statically, however deep (no external module). */
      const withImports = (fileName: string, into = new Set<string>()): Set<string> => {
        if (chunks[fileName] && !into.has(fileName)) {
          into.add(fileName);
          for (const imported of chunks[fileName]?.imports ?? []) withImports(imported, into);
        }
        return into;
      };
      const loaded = withImports(chunk.fileName);
      let rewritten = false;
      const out = code.replace(DYNAMIC_IMPORT, (expression, _quote: string, path: string) => {
        const target = posix.join(posix.dirname(chunk.fileName), path);
        if (!chunks[target]) return expression;
        const shared = [...withImports(target)].filter((fileName) => fileName !== target && !loaded.has(fileName));
        if (!shared.length) return expression;
        rewritten = true;
        const imports = shared.map((fileName) => `import(${JSON.stringify(specifier(chunk.fileName, fileName))})`);
        return `${BESIDE}(${expression}, ${imports.length === 1 ? imports[0] : `Promise.all([${imports.join(', ')}])`})`;
      });
      return rewritten ? HELPER + out : null;
    },
  };
}
