/**
 * Accessibility and Content-Security-Policy checks shared by the journeys: axe over the whole
 * page (open shadow roots included), and the CSP violations the page reported.
 */
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import { axeViolations } from './axe.js';

/** WCAG 2.2 A and AA, plus axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  // Colours are judged once they have settled: halfway through a theme switch's transitions a
  // button is neither its light nor its dark self, and axe would measure that in-between.
  await page.waitForFunction(() => document.getAnimations().every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'));
  const violations = await axeViolations(page, { runOnly: { type: 'tag', values: TAGS } });
  const found = violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(found, `axe on ${what}`).toEqual([]);
}

/** Records every `securitypolicyviolation` the pages of this browser context report (call before navigating). */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}
