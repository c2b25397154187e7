/**
 * The built widget, for merchants' pages: `GET /widget/pay-form.js`, the chunks it loads on
 * demand (`/widget/chunks/<name>.js`), the same in one file (`/widget/pay-form.whole.js`) with
 * its Subresource Integrity hash (`/widget/integrity.json`), and the licences of what it
 * bundles. Served to any origin (a module script is fetched with CORS), revalidated by ETag,
 * gzipped for browsers that take it. A folder without the bundle is said once, at start, in the
 * log (where and how to fix it); its requests are 404 `widget_not_built`. A file missing beside
 * a bundle is a plain 404.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import * as z from 'zod';
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';
import { FileCache, sendFile } from '../http/file-cache.js';
import { ApiProblem } from '../http/problem.js';
import type { Logger } from '../log/logger.js';

const CHUNK_NAME = /^[A-Za-z0-9_.-]+\.js$/;
const BUNDLE = 'pay-form.js';
const WHOLE = 'pay-form.whole.js';
/** How long a browser runs the pay-form.js it has without asking again: a page loaded meanwhile keeps the version it had. */
export const WIDGET_CACHE_SECONDS = 300;
// Names carry no content hash, so browsers revalidate often and cheaply (304).
const REVALIDATED_OFTEN = `public, max-age=${WIDGET_CACHE_SECONDS}, must-revalidate`;
// A page pins the one-file widget by its hash: a copy cached from before an upgrade would fail
// the new hash (the form not shown) for as long as it was kept, so each use asks (304 if same).
const REVALIDATED_EACH_TIME = 'public, no-cache';

// The companion cannot tell an installed package from payform's repository, so the fix names both.
const NOT_BUILT_FIX =
  `An installed @payform/companion serves the dist/ of its @payform/widget dependency: reinstall @payform/widget ` +
  `(npm install @payform/widget), or give the widgetDir option the folder that holds pay-form.js. ` +
  // File tracing copies what the server imports, and the companion only reads these files.
  `A server run from a bundler's traced output (Nuxt's .output, Next.js's standalone) has the package without them: ` +
  `include node_modules/@payform/widget/dist/** (nitro.externals.traceInclude, outputFileTracingIncludes). ` +
  'In the payform repository, run `npm run build:widget`';

/** `GET /widget/integrity.json`: the Subresource Integrity value of each file a page may pin. */
export const WidgetIntegrity = z.object({
  [WHOLE]: z
    .string()
    .regex(/^sha384-[A-Za-z0-9+/]+={0,2}$/)
    .describe('The value of the integrity attribute of the script tag that loads pay-form.whole.js; it changes with every release of the widget'),
});

export function widgetRoutes(widgetDir: string, logger: Logger): Hono<CompanionEnv> {
  const routes = new Hono<CompanionEnv>();
  const files = new FileCache();
  // Said once, at start, rather than only to whichever page asks for the script. The path stays
  // in the log: a page's answer does not tell the server's folders.
  if (!existsSync(join(widgetDir, BUNDLE))) logger.error(`widgetDir: no widget bundle (${BUNDLE}) in ${widgetDir}. ${NOT_BUILT_FIX}.`, { widgetDir });

  const serve = async (c: Context<CompanionEnv>, file: string, contentType = 'text/javascript; charset=utf-8', cacheControl = REVALIDATED_OFTEN) => {
    const asset = await files.read(join(widgetDir, file));
    if (!asset) {
      if (file !== BUNDLE && (await files.read(join(widgetDir, BUNDLE)))) throw new ApiProblem(404, 'not_found', 'No such widget file');
      throw new ApiProblem(404, 'widget_not_built', 'The widget is not built on this server: its log, at start, says where it looked and how to fix it');
    }
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    c.header('Cache-Control', cacheControl);
    return sendFile(c, asset, contentType);
  };

  routes.get(`/${BUNDLE}`, (c) => serve(c, BUNDLE));
  // The widget in one file, for a page that pins it by Subresource Integrity, and its hash.
  routes.get(`/${WHOLE}`, (c) => serve(c, WHOLE, undefined, REVALIDATED_EACH_TIME));
  routes.get('/integrity.json', (c) => serve(c, 'integrity.json', 'application/json', REVALIDATED_EACH_TIME));
  // Lit's licence travels with the bundle.
  routes.get('/LICENSES.txt', (c) => serve(c, 'LICENSES.txt', 'text/plain; charset=utf-8'));
  routes.get('/chunks/:name', (c) => {
    const name = c.req.param('name');
    if (!CHUNK_NAME.test(name) || name.startsWith('.')) throw new ApiProblem(404, 'not_found', 'No such widget file');
    return serve(c, join('chunks', name));
  });
  return routes;
}
