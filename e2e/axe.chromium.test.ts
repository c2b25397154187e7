/**
 * The axe runner the journeys and the sandbox's page tests rely on (e2e/axe.ts): it must find
 * what axe finds in the document, in open shadow roots and in same-origin frames, and see a page
 * afresh at each check of the same document and after a navigation.
 */
import type { Browser, Page, Route } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { launchChromium } from './chromium.js';

let browser: Browser;
let page: Page;

/** The pages, served from one origin by the browser itself: frames talk to the top only within one. */
const SITE = 'http://axe.test';
const ELSEWHERE = 'http://other.axe.test';
const PAGES: Record<string, string> = {
  '/flawed': `<!doctype html><html lang="en"><title>Flawed</title>
    <main>
      <h1>Flawed</h1>
      <p id="faint" style="color:#bbb;background:#fff">Faint text</p>
      <div id="host"></div>
      <iframe title="Inner" src="/inner"></iframe>
    </main>
    <script>document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<img src="data:,">';</script>
  </html>`,
  '/inner': '<!doctype html><html lang="en"><title>Inner</title><button></button></html>',
  '/clean': '<!doctype html><html lang="en"><title>Clean</title><main><h1>Fine</h1></main></html>',
  '/framing-elsewhere': `<!doctype html><html lang="en"><title>Framing</title><main><h1>Framing</h1><iframe title="Elsewhere" src="${ELSEWHERE}/inner"></iframe></main></html>`,
};

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  const serve = (route: Route) => route.fulfill({ contentType: 'text/html', body: PAGES[new URL(route.request().url()).pathname] ?? '' });
  await page.route(`${SITE}/**`, serve);
  await page.route(`${ELSEWHERE}/**`, serve);
});

async function openFlawed(): Promise<void> {
  await page.goto(`${SITE}/flawed`);
  await page.frameLocator('iframe').locator('button').waitFor({ state: 'attached' });
}

afterAll(async () => {
  await browser?.close();
});

const ids = async (current: Page) => (await axeViolations(current)).map((violation) => violation.id).sort();


describe('axe in Chromium', { timeout: 60_000 }, () => {
  it('finds violations in the document, an open shadow root and a same-origin frame', async () => {
    await openFlawed();
    expect(await ids(page)).toEqual(['button-name', 'color-contrast', 'image-alt']);
    const [contrast] = (await axeViolations(page)).filter((violation) => violation.id === 'color-contrast');
    expect(contrast!.nodes.map((node) => node.target.join(' '))).toEqual(['#faint']);
  });

  it('sees the page as it is now at each check, and on a new document', async () => {
    await openFlawed();
    expect(await ids(page)).toContain('color-contrast');
    await page.locator('#faint').evaluate((paragraph) => (paragraph.style.color = '#222'));
    expect(await ids(page)).toEqual(['button-name', 'image-alt']);
    await page.goto(`${SITE}/clean`);
    expect(await ids(page)).toEqual([]);
  });

  it('runs only the rules asked for', async () => {
    await openFlawed();
    const violations = await axeViolations(page, { runOnly: { type: 'rule', values: ['image-alt'] } });
    expect(violations.map((violation) => violation.id)).toEqual(['image-alt']);
  });

  it('refuses a page with a frame from another origin, which it could not check', async () => {
    await page.goto(`${SITE}/framing-elsewhere`);
    await page.frameLocator('iframe').locator('button').waitFor({ state: 'attached' });
    await expect(axeViolations(page)).rejects.toThrow(`these would go unchecked: ${ELSEWHERE}/inner`);
  });
});
