/**
 * axe-core's checks on a page in Chromium, for the journeys (e2e/a11y.ts) and the sandbox's
 * pages. axe is put into each document once and run there; a frame from another origin, which
 * it could not check, is refused. @axe-core/playwright, which this replaces, put its 580 KB in
 * again at every check and finished each one in a new blank tab: 1.5–4 s a check on this VM's
 * two cores, against 0.1–1.4 s here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Frame, Page } from 'playwright';

const SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Violations = AxeResults['violations'];

/** Loads axe into a frame whose document does not have it yet. */
async function load(frame: Frame): Promise<void> {
  const present = await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!present) await frame.evaluate(SOURCE);
}

/**
 * What axe finds on the page as it is now, its same-origin frames included (each gets axe too,
 * and the top one asks them). Only violations are gathered: passes are not needed to fail a test.
 */
export async function axeViolations(page: Page, options: RunOptions = {}): Promise<Violations> {
  // axe in the top frame asks the others by message, and only its own origin answers: a frame
  // from elsewhere would pass unchecked. (about:blank and srcdoc frames take their parent's.)
  const origin = new URL(page.url()).origin;
  const elsewhere = page.frames().filter((frame) => !frame.url().startsWith('about:') && new URL(frame.url()).origin !== origin);
  if (elsewhere.length > 0) throw new Error(`axe checks same-origin frames only; these would go unchecked: ${elsewhere.map((frame) => frame.url()).join(', ')}`);
  await Promise.all(page.frames().map(load));
  return page.mainFrame().evaluate(
    (runOptions) => (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe.run(document, runOptions).then((results) => results.violations),
    { ...options, resultTypes: ['violations'] } satisfies RunOptions,
  );
}
