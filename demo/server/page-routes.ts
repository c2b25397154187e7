/**
 * The demo's pages and their assets, as Vite built them into dist/demo: the shop (`/`), the
 * checkout (`/checkout`) and the result after 3-D Secure or the hosted page (`/result`); the back
 * office (`/admin`) is @payform/companion's own (demo/stack.ts turns it on). Every page is served
 * under a strict Content-Security-Policy: scripts, styles and connections from this origin only —
 * and the gateway's card tokenizer, which the checkout's `<pay-form>` sends the card to in
 * tokenize mode —, nothing inline, no framing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import type { CompanionEnv } from '@payform/companion';

/** The pages' policy; `tokenizerUrl`, when the widget tokenizes, is the one other place pages may connect to. */
export function pagePolicy(tokenizerUrl?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    tokenizerUrl ? `connect-src 'self' ${new URL(tokenizerUrl).origin}` : "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const PAGE_POLICY = pagePolicy();

/** Path → built HTML file. */
export const PAGES: Readonly<Record<string, string>> = {
  '/': 'index.html',
  '/checkout': 'checkout.html',
  '/result': 'result.html',
};

export function pageRoutes(webDir: string, tokenizerUrl?: string): Hono<CompanionEnv> {
  const pages = new Hono<CompanionEnv>();
  const policy = pagePolicy(tokenizerUrl);

  for (const [path, file] of Object.entries(PAGES)) {
    pages.get(path, async (c) => {
      c.header('Content-Security-Policy', policy);
      c.header('Cache-Control', 'no-cache');
      try {
        return c.html(await readFile(join(webDir, file), 'utf8'));
      } catch {
        return c.text('The demo is not built: run `npm start` (or `npm run build:demo`).', 503);
      }
    });
  }

  // Vite names assets by content hash: cache them for good. The rest may change with a rebuild.
  const cacheFor = (value: string): MiddlewareHandler => async (c, next) => {
    await next();
    if (c.res.status === 200) c.res.headers.set('Cache-Control', value);
  };
  pages.use('/assets/*', cacheFor('public, max-age=31536000, immutable'), serveStatic({ root: webDir }));
  for (const file of ['/favicon.svg', '/preferences.js']) pages.get(file, cacheFor('public, max-age=300'), serveStatic({ root: webDir }));
  return pages;
}
