/**
 * The end-to-end journeys (`npm run test:e2e`): real Chromium (Debian's, see .ci/ensure-chromium)
 * against the whole stack — sandbox, companion and demo — started by `webServer` on free ports,
 * one stack per worker (e2e/serve-stacks.ts). Traces, screenshots and videos are kept only for
 * failing tests, under test-results/.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';
import { bundled } from './entry-points.mjs';

const WORKERS = Number(process.env.PAYFORM_E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: './journeys',
  outputDir: '../test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: WORKERS,
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: '../playwright-report' }]] : [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    viewport: { width: 1280, height: 900 },
    // As a customer who asked for less motion (the pages honour it): the journeys check flows,
    // not animation, and in software rendering the widget's spinner and the pages' transitions
    // drew a frame at every vsync — 258 -> 210 CPU-seconds for the suite, 164 -> 140 s on 2 cores.
    // The widget's own tests (web-test-runner) run with motion.
    reducedMotion: 'reduce',
    locale: 'en-GB',
    timezoneId: 'Europe/Kyiv',
    // A failing test keeps its trace: the DOM at each step, the network, the console. Without the
    // screencast, which the browser encodes and the worker stores for every test, passing or
    // not: on 2 cores it took the journeys from 2.2 to 4.1 min, the DOM snapshots to 2.7 (the
    // screenshot at the failure is still taken, below). CI records none: its clone is thrown
    // away with whatever the run left in it, and what a failure says is in the log.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
  webServer: {
    // From its bundle (entry-points.mjs): the journeys wait for the stacks, which start in a third of the CPU tsx takes.
    command: `node ${JSON.stringify(await bundled('e2e/serve-stacks.ts'))}`,
    cwd: '..',
    env: { PAYFORM_E2E_WORKERS: String(WORKERS) },
    // The stacks' addresses and admin tokens, for the workers (fixtures.ts reads them).
    wait: { stdout: /payform e2e stacks (?<payform_e2e_stacks>[A-Za-z0-9_-]+)/ },
    // A first run builds the widget, the back office and the demo pages first.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
