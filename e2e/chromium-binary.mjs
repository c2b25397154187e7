/**
 * The Chromium every browser suite drives, and its flags, for the TypeScript suites (chromium.ts)
 * and the plain JavaScript ones (web-test-runner's config, the widget's screenshot): CHROMIUM_PATH
 * when set; else Debian's headless shell, which `npm test` installs (.ci/ensure-chromium), or
 * Debian's full browser, whichever this machine has, so a bare `npx vitest run` finds it too.
 */
import { existsSync } from 'node:fs';
import process from 'node:process';

const DEBIANS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || DEBIANS.find((path) => existsSync(path)) || DEBIANS[0];

/** No sandbox (root), no GPU, nothing fetched from the network. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
