import { defineConfig } from 'vitest/config';

// One Vite config for the repository: Vitest runs the Node-side suites from here
// (browser component tests run under web-test-runner, end-to-end under Playwright).
export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'widget/**/*.test.ts', 'demo/**/*.test.ts', 'e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'widget/**/*.browser.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
