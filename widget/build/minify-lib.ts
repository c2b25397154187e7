/**
 * Build step after `tsc -p widget/tsconfig.lib.json`: the templates of widget/dist/lib, the modules
 * a merchant's bundler takes through `import '@payform/widget'`, shrunk as the bundle's are. tsc
 * keeps them as written (indentation, line breaks, quotes), which no minifier may touch, so
 * without this a merchant's build of the package weighed more than dist/pay-form.js.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifyTemplateLiterals } from './minify-templates.js';

export async function minifyLibTemplates(dir: string): Promise<number> {
  let rewritten = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const path = join(entry.parentPath, entry.name);
    const out = await minifyTemplateLiterals(readFileSync(path, 'utf8'), path);
    if (out === undefined) continue;
    writeFileSync(path, out);
    rewritten++;
  }
  return rewritten;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await minifyLibTemplates(fileURLToPath(new URL('../dist/lib/', import.meta.url)));
}
