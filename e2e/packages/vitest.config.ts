/**
 * `npm run test:packages`: the five packages proved the way a merchant uses them — packed,
 * installed from their tarballs in a throwaway project outside the repository, run from its
 * node_modules/.bin and served through Vite. One global setup packs and installs once for
 * every file (global-setup.ts); the main Vitest run leaves these files out.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import repository from '../../vite.config.js';

export default defineConfig((env) => {
  const { resolve } = repository(env);
  return {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    // The journeys' shared helpers (cards, test project) still resolve to the sources, as in the main run.
    resolve,
    test: {
      include: ['e2e/packages/**/*.test.ts'],
      globalSetup: ['e2e/packages/global-setup.ts'],
      environment: 'node',
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // Two cores: the files share one install but each starts its own servers and browser.
      maxWorkers: 2,
    },
  };
});
