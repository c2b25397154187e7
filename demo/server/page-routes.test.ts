import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PAGE_POLICY, pageRoutes } from './page-routes.js';

function built(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payform-demo-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'assets'));
  for (const page of ['index', 'checkout', 'result']) writeFileSync(join(dir, `${page}.html`), `<!doctype html><title>${page}</title>`);
  writeFileSync(join(dir, 'assets', 'shop-abc123.js'), 'export {};');
  writeFileSync(join(dir, 'preferences.js'), '(function () {})();');
  return dir;
}

const app = (dir: string) => new Hono().route('/', pageRoutes(dir) as unknown as Hono);

describe('the demo’s pages', () => {
  it('serves every page under the strict policy: nothing inline, this origin only, no framing', async () => {
    const pages = app(built());
    for (const [path, title] of [['/', 'index'], ['/checkout', 'checkout'], ['/result', 'result']] as const) {
      const response = await pages.request(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(`<title>${title}</title>`);
      expect(response.headers.get('content-security-policy')).toBe(PAGE_POLICY);
    }
    expect(PAGE_POLICY).toContain("default-src 'none'");
    expect(PAGE_POLICY).toContain("script-src 'self'");
    expect(PAGE_POLICY).toContain("frame-ancestors 'none'");
    expect(PAGE_POLICY).not.toContain('unsafe');
  });

  it('lets pages connect to the card tokenizer’s origin, and to nothing else, in tokenize mode', async () => {
    const pages = new Hono().route('/', pageRoutes(built(), 'http://127.0.0.1:3001/api/v1/sdk/tokenize') as unknown as Hono);
    const policy = (await pages.request('/checkout')).headers.get('content-security-policy')!;
    expect(policy).toContain("connect-src 'self' http://127.0.0.1:3001;");
    expect(policy.replace("connect-src 'self' http://127.0.0.1:3001", "connect-src 'self'")).toBe(PAGE_POLICY);
  });

  it('caches hashed assets for good, and nothing outside the build', async () => {
    const pages = app(built());
    const asset = await pages.request('/assets/shop-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await pages.request('/assets/../index.html')).status).toBe(404);
    expect((await pages.request('/assets/%2e%2e/index.html')).status).toBe(404);
    expect((await pages.request('/preferences.js')).status).toBe(200);
  });

  it('says how to build when the pages are missing', async () => {
    const response = await app(join(tmpdir(), 'payform-not-built')).request('/checkout');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm start');
  });
});
