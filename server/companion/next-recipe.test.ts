// Not named readme.*: npm ships every file whose name starts so, tests included.
// The package's README (what npm shows) and the companion guide give one Next.js recipe: the
// README's line, copied, must not be the one the guide says breaks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
const guide = readFileSync(new URL('../../docs/companion.md', import.meta.url), 'utf8');

/** The route handler files (`app/…/route.ts`) a text names. */
const routeFiles = (text: string) => new Set(text.match(/app\/[\w/.[\]-]+\/route\.ts/g));

describe('the README’s Next.js recipe', () => {
  it('names the guide’s route file and composes at the first request, as the guide does', () => {
    expect(routeFiles(readme)).toEqual(routeFiles(guide));
    const row = readme.split('\n').find((line) => line.startsWith('| Next.js'));
    expect(row).toContain('(await payments()).app.fetch(request)');
    expect(row).toContain('globalThis');
    // Next 16's Turbopack cannot bundle the companion's database drivers, and under its default
    // cacheComponents a route's `runtime` export is refused: both as the guide says.
    expect(row).toContain("serverExternalPackages: ['@payform/companion']");
    expect(guide).toContain("serverExternalPackages: ['@payform/companion']");
    expect(row?.match(/export const runtime/g)).toHaveLength(1);
    expect(row).toContain("No `export const runtime = 'nodejs'`");
  });

  it('and every recipe of the guide that keeps a companion drops a start that failed, so the next request tries again', () => {
    const kept = guide.split('kept.payform ??= composeCompanion(').slice(1);
    expect(kept.length).toBeGreaterThanOrEqual(4);
    for (const recipe of kept) expect(recipe.slice(0, 400)).toMatch(/^[^\n]*\.catch\(\(error: unknown\) => \{\n\s+kept\.payform = undefined;/);
  });
});
