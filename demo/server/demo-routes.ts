/**
 * Everything the demo adds to the companion's app, on the same origin and port: the shop's
 * backend (`/shop/api/*`) and the pages with their assets.
 */
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { CompanionApp, CompanionEnv } from '@payform/companion';
import { pageRoutes } from './page-routes.js';
import { shopRoutes } from './shop-routes.js';

/** Where `npm run build:demo` writes the pages. */
export const DEMO_WEB_DIR = fileURLToPath(new URL('../../dist/demo', import.meta.url));

export function demoRoutes(companion: CompanionApp, webDir = DEMO_WEB_DIR): Hono<CompanionEnv> {
  const demo = new Hono<CompanionEnv>();
  demo.route('/shop/api', shopRoutes(companion));
  demo.route('/', pageRoutes(webDir, companion.companion.services.options.tokenizer?.url));
  return demo;
}
