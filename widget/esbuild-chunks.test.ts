import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A merchant's page importing the widget, bundled by esbuild with code splitting, as Angular's builder does. */
async function splitPage(): Promise<Metafile> {
  const { metafile } = await build({
    stdin: { contents: "import './widget/index.ts';", resolveDir: ROOT, sourcefile: 'page.js', loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'out',
    write: false,
    metafile: true,
    // Resolves @payform/card to its sources, as tsconfig.json's paths say.
    tsconfig: 'tsconfig.json',
    // package.json's sideEffects names the built index (dist/lib/index.js), not its source: as
    // installed, index.js is kept wherever it is imported, as it is here.
    ignoreAnnotations: true,
    logLevel: 'silent',
  });
  return metafile;
}

describe("the widget under esbuild's code splitting", () => {
  it("loads the form's modules in one chunk, whatever the chunks loaded on demand use of them", async () => {
    const { outputs } = await splitPage();
    const page = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === 'page.js')!;
    // What the page loads before the form can show: its file and, recursively, their static imports.
    const loaded = new Set<string>();
    const visit = (path: string) => {
      if (loaded.has(path)) return;
      loaded.add(path);
      for (const { path: next, kind } of outputs[path]!.imports) if (kind === 'import-statement') visit(next);
    };
    visit(page);
    const holdingWidget = [...loaded].filter((path) => Object.keys(outputs[path]!.inputs).some((input) => input.startsWith('widget/')));
    expect(holdingWidget).toHaveLength(1);
    expect(Object.keys(outputs[holdingWidget[0]!]!.inputs)).toEqual(
      expect.arrayContaining(['widget/index.ts', 'widget/events.ts', 'widget/checkout/companion.ts', 'widget/card/fields.ts', 'widget/card/luhn.ts']),
    );
  });
});
