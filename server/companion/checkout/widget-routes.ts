/**
 * The built widget, for merchants' pages: `GET /widget/pay-form.js`, the chunks it loads on
 * demand (`/widget/chunks/<name>.js`) and the licences of what it bundles. Served to any origin (a module script is fetched with
 * CORS), revalidated by ETag, and 404 in the envelope when the bundle has not been built.
 */
import { join } from 'node:path';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';
import { FileCache } from '../http/file-cache.js';
import { ApiProblem } from '../http/problem.js';

const CHUNK_NAME = /^[A-Za-z0-9_.-]+\.js$/;

export function widgetRoutes(widgetDir: string): Hono<CompanionEnv> {
  const routes = new Hono<CompanionEnv>();
  const files = new FileCache();

  const serve = async (c: Context<CompanionEnv>, file: string, contentType = 'text/javascript; charset=utf-8') => {
    const asset = await files.read(join(widgetDir, file));
    if (!asset) throw new ApiProblem(404, 'widget_not_built', 'The widget is not built: run `npm run build:widget` first');
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    // Names carry no content hash, so browsers revalidate often and cheaply (304).
    c.header('Cache-Control', 'public, max-age=300, must-revalidate');
    c.header('ETag', asset.etag);
    if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304);
    c.header('Content-Type', contentType);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200);
  };

  routes.get('/pay-form.js', (c) => serve(c, 'pay-form.js'));
  // Lit's licence travels with the bundle.
  routes.get('/LICENSES.txt', (c) => serve(c, 'LICENSES.txt', 'text/plain; charset=utf-8'));
  routes.get('/chunks/:name', (c) => {
    const name = c.req.param('name');
    if (!CHUNK_NAME.test(name) || name.startsWith('.')) throw new ApiProblem(404, 'not_found', 'No such widget file');
    return serve(c, join('chunks', name));
  });
  return routes;
}
