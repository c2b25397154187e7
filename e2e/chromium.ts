/**
 * The Chromium every suite drives (chromium-binary.mjs: Debian's, at CHROMIUM_PATH when set), with
 * the flags this machine needs.
 */
import { chromium } from 'playwright';
import type { Browser } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-binary.mjs';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

/** That Chromium, launched headless; `extraArgs` go after the usual flags. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
