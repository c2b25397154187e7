/**
 * Accessibility and Content-Security-Policy checks shared by the journeys: axe over the whole
 * page (open shadow roots included), and the CSP violations the page reported.
 */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
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

/**
 * Whether a screen reader is told the field is invalid: its `invalid` state in Chromium's
 * accessibility tree (an `aria-invalid` attribute, or the page's own check refusing it).
 */
export async function readAsInvalid(field: Locator): Promise<boolean> {
  const page = field.page();
  const probe = `ax-${Math.random().toString(36).slice(2)}`;
  await field.evaluate((element, name) => element.setAttribute('data-ax-probe', name), probe);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `[data-ax-probe="${probe}"]` });
    // A field not found, or not in the tree, would read as valid: that says nothing, so it fails.
    if (!nodeId) throw new Error('the field was not found');
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    if (!nodes[0] || nodes[0].ignored) throw new Error('the field is not in the accessibility tree');
    return String(nodes[0].properties?.find((property) => property.name === 'invalid')?.value.value) === 'true';
  } finally {
    await cdp.detach();
    await field.evaluate((element) => element.removeAttribute('data-ax-probe'));
  }
}
