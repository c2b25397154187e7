/**
 * The widget as a merchant's page ships it: `@payform/widget` (and `@payform/card`) packed with
 * `npm pack`, installed with Vite into a throwaway project outside the repository, and a page
 * with `<pay-form>` built by the merchant's own `vite build`. The figure is what that page
 * loads before the form can show: the entry script and the chunks it imports statically, gzip
 * (level 6, as budget.ts counts `dist/pay-form.js`); chunks loaded on demand are listed apart.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKED = ['@payform/card', '@payform/widget'];

export interface MerchantBuildFigures {
  /** The entry and its static imports, gzip, summed. */
  readonly initialGzipBytes: number;
  readonly initialFiles: readonly string[];
  /** Chunks the page loads on demand, gzip each. */
  readonly onDemandGzipBytes: Readonly<Record<string, number>>;
  readonly viteVersion: string;
}

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Checkout</title></head>
<body>
  <pay-form session="a-session-id-from-the-merchant-backend" endpoint="https://shop.example"></pay-form>
  <script type="module" src="/main.js"></script>
</body>
</html>
`;

/**
 * The page built by each Vite asked for (npm ranges; the repository's own when none): the
 * packages packed once, each build in a shop of its own. A build after the first that fails (an
 * older Vite the registry or this Node cannot give) is its error, not the others' loss.
 */
export async function measureMerchantBuild(viteRanges: readonly string[] = []): Promise<(MerchantBuildFigures | Error)[]> {
  const work = mkdtempSync(join(tmpdir(), 'payform-bench-merchant-'));
  try {
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    // As from a release shell: NODE_ENV=test would build Lit's development build into the tarball.
    const { NODE_ENV: _ignored, ...env } = process.env;
    const packArgs = ['pack', ...PACKED.flatMap((name) => ['-w', name]), '--json', '--pack-destination', tarballs];
    const { stdout } = await run('npm', packArgs, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    const packed = (JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as { filename: string }[]).map(({ filename }) => join(tarballs, filename));
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const ranges = viteRanges.length > 0 ? viteRanges : [manifest.devDependencies.vite!];
    const figures: (MerchantBuildFigures | Error)[] = [];
    for (const [index, range] of ranges.entries()) {
      const built = buildPage(join(work, `shop-${index}`), packed, range, env);
      figures.push(index === 0 ? await built : await built.catch((error: unknown) => new Error(`vite@${range}: ${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}`)));
    }
    return figures;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function buildPage(shop: string, packed: readonly string[], viteRange: string, env: NodeJS.ProcessEnv): Promise<MerchantBuildFigures> {
  mkdirSync(shop);
  writeFileSync(join(shop, 'package.json'), JSON.stringify({ name: 'merchant-page', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed, `vite@${viteRange}`], { cwd: shop, env, maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(join(shop, 'index.html'), PAGE);
  writeFileSync(join(shop, 'main.js'), "import '@payform/widget';\n");
  await run(join(shop, 'node_modules', '.bin', 'vite'), ['build', '--manifest', '--logLevel', 'warn'], { cwd: shop, env: { ...env, NODE_ENV: 'production' } });
  const dist = join(shop, 'dist');
  const chunks = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const gzip = (file: string) => gzipSync(readFileSync(join(dist, file))).length;
  // The entry and, recursively, what it imports statically: all of it loads with the page.
  const initial = new Set<string>();
  const visit = (key: string) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const next of chunks[key]?.imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(chunks)) if (chunk.isEntry) visit(key);
  const initialFiles = [...initial].map((key) => chunks[key]!.file).filter((file) => file.endsWith('.js'));
  const onDemand = Object.entries(chunks).filter(([key, chunk]) => !initial.has(key) && chunk.file.endsWith('.js'));
  const vitePackage = JSON.parse(readFileSync(join(shop, 'node_modules', 'vite', 'package.json'), 'utf8')) as { version: string };
  return {
    initialGzipBytes: initialFiles.reduce((sum, file) => sum + gzip(file), 0),
    initialFiles,
    onDemandGzipBytes: Object.fromEntries(onDemand.map(([, chunk]) => [chunk.file, gzip(chunk.file)])),
    viteVersion: vitePackage.version,
  };
}
