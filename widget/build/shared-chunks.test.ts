import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedChunksBeside } from './shared-chunks.js';

/** The chunks of a build of `files` (entry.js the entry), minified as the widget's are, written to `dir`/out. */
async function built(dir: string, files: Record<string, string>): Promise<Record<string, string>> {
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, name), code);
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [sharedChunksBeside()],
    // As vite.config.ts builds the widget.
    build: {
      lib: { entry: join(dir, 'entry.js'), formats: ['es'], fileName: () => 'entry.js' },
      outDir: join(dir, 'out'),
      minify: true,
      rolldownOptions: { output: { chunkFileNames: 'chunks/[name].js', minify: true } },
    },
  });
  const { output: chunks } = [output].flat()[0] as { output: { type: string; fileName: string; code?: string }[] };
  return Object.fromEntries(chunks.flatMap((chunk) => (chunk.type === 'chunk' ? [[chunk.fileName, chunk.code!]] : [])));
}

/** `import('<path>')` however the minifier quotes it. */
const importOf = (path: string): RegExp => new RegExp(`import\\(["'\`]${path.replaceAll('.', '\\.')}["'\`]\\)`, 'g');

describe('chunks loaded on demand, with the chunks they share fetched beside them', () => {
  const dirs: string[] = [];
  /** A new folder, removed after the test: a module loaded once stays loaded, whatever its file becomes. */
  const fresh = (): string => (dirs.push(mkdtempSync(join(tmpdir(), 'payform-shared-chunks-'))), dirs.at(-1)!);
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("asks for a shared chunk with the chunk that imports it, and for nothing the importer has, and loads the chunk's own exports", async () => {
    const dir = fresh();
    const chunks = await built(dir, {
      'entry.js': "export const paying = () => import('./paying.js'); export const checks = () => import('./checks.js'); export const plain = () => import('./plain.js');",
      'luhn.js': 'export const luhn = (digits) => digits.length % 10 === 0;',
      'paying.js': "import { luhn } from './luhn.js'; export const pays = (digits) => luhn(digits) && 'paid';",
      'checks.js': "import { luhn } from './luhn.js'; export const checks = (digits) => luhn(digits); export const detector = () => import('./detector.js');",
      'detector.js': "import { luhn } from './luhn.js'; export const detects = (digits) => !luhn(digits);",
      'plain.js': "export const plain = 'plain';",
    });
    expect(Object.keys(chunks).sort()).toEqual(['chunks/checks.js', 'chunks/detector.js', 'chunks/luhn.js', 'chunks/paying.js', 'chunks/plain.js', 'entry.js']);
    const entry = chunks['entry.js']!;
    // Each of the two that import it asks for it beside itself; the one that imports nothing does not.
    expect(entry.match(importOf('./chunks/luhn.js'))).toHaveLength(2);
    for (const chunk of ['paying', 'checks']) expect(entry).toMatch(new RegExp(`\\(${importOf(`./chunks/${chunk}.js`).source},${importOf('./chunks/luhn.js').source}\\)`));
    expect(entry.match(importOf('./chunks/plain.js'))).toHaveLength(1);
    // checks.js has luhn.js when it loads the detector: nothing to ask for beside it.
    expect(chunks['chunks/checks.js']).toMatch(importOf('./detector.js'));
    expect(chunks['chunks/checks.js']).not.toMatch(/import\(["'`][^"'`]*luhn/);

    const loaded = await import(pathToFileURL(join(dir, 'out', 'entry.js')).href);
    expect((await loaded.paying()).pays('1234567890')).toBe('paid');
    expect((await loaded.checks()).checks('123')).toBe(false);
    expect((await loaded.plain()).plain).toBe('plain');
  });

  it('fails with the error of the shared chunk when that is the one that did not load, else with the chunk’s own', async () => {
    // luhn.js shared, so a chunk of its own.
    const files = {
      'entry.js': "export const paying = () => import('./paying.js'); export const checks = () => import('./checks.js');",
      'luhn.js': 'export const luhn = (digits) => digits.length % 10 === 0;',
      'paying.js': "import { luhn } from './luhn.js'; export const pays = (digits) => luhn(digits);",
      'checks.js': "import { luhn } from './luhn.js'; export const checks = (digits) => !luhn(digits);",
    };
    // A chunk that throws as it runs, as one of another build fails to link; each case a build of its own.
    for (const broken of ['luhn.js', 'paying.js']) {
      const dir = fresh();
      await built(dir, files);
      writeFileSync(join(dir, 'out', 'chunks', broken), `throw new Error('${broken} itself');`);
      const loaded = await import(pathToFileURL(join(dir, 'out', 'entry.js')).href);
      await expect(loaded.paying()).rejects.toThrow(`${broken} itself`);
    }
  });
});
