/**
 * The Chromium every suite drives: Debian's, at CHROMIUM_PATH when set (`npm test` sets the
 * headless shell, which .ci/ensure-chromium installs), else /usr/bin/chromium; with the flags
 * this machine needs (no sandbox as root, no GPU, nothing fetched from the network).
 */
import { chromium } from 'playwright';
import type { Browser } from 'playwright';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** That Chromium, launched headless; `extraArgs` go after the usual flags. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
