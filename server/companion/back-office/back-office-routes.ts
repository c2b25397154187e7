/**
 * The back office's page and its files, as `vite build` left them in `dir`:
 *
 *   GET <path>                 the page (sign-in, then the orders…), under a strict CSP
 *   GET <path>/assets/<file>   its script and stylesheet, named by content hash: cached for good
 *   GET <path>/favicon.svg, <path>/preferences.js
 *
 * The built page's URLs are relative; here they become absolute below the address browsers reach
 * the page at — the public URL's path (a proxy in front may strip it: `/pay` of
 * `https://example.com/pay`), the base path, then `path` — and the page is told where the merchant
 * API is, which sellers split payments go to and the merchant's sector, in a JSON data block —
 * data, not script, so nothing inline runs. The page holds no secret: everything it shows comes
 * from the merchant API, with the admin token typed into it.
 */
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Context, Hono } from 'hono';
import type { MerchantSector } from '@payform/gateway';
import type { CompanionEnv } from '../context.js';
import { FileCache, sendFile } from '../http/file-cache.js';
import { ApiProblem } from '../http/problem.js';
import type { Logger } from '../log/logger.js';
import type { BackOfficeOptions } from './back-office-options.js';

/** Scripts, styles, images and requests from this origin only; nothing inline, no framing. */
export const BACK_OFFICE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css)$/;
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const NOT_BUILT = 'The back office is not built: run `npm run build -w @payform/companion` (an installed package ships it built)';

/**
 * Adds the routes to the companion's `app` at `options.path`. `publicUrl`: the companion's own
 * address, its base path included (`https://shop.example/payments`); the page's URLs are below
 * its path and `path`, where a browser finds them whether or not a proxy strips a prefix.
 */
export function addBackOffice(app: Hono<CompanionEnv>, options: BackOfficeOptions, publicUrl: string, merchantSector: MerchantSector | undefined, logger: Logger): void {
  const { path } = options;
  const apiBase = new URL(publicUrl).pathname.replace(/\/+$/, '');
  const mount = `${apiBase}${path}`;
  // Said once, at start, rather than only to whoever opens the page; where it is, too: mounted
  // in a merchant's server, nothing else would say it.
  if (!existsSync(join(options.dir, 'index.html'))) logger.warn(`backOffice: no built page in ${options.dir}. ${NOT_BUILT}.`);
  else logger.info(`back office at ${publicUrl.replace(/\/+$/, '')}${path} (sign in with the admin token)`);
  const files = new FileCache();
  const settings = JSON.stringify({ apiBase, subMerchants: options.subMerchants, merchantSector: merchantSector ?? null })
    // Inside <script>, "</script" or "<!--" in a seller's name must not end or change the block.
    .replaceAll('<', '\\u003c');
  let page: { source: Uint8Array; html: string } | undefined;

  const file = async (name: string) => files.read(join(options.dir, name));

  app.get(path, async (c) => {
    const built = await file('index.html');
    if (!built) throw new ApiProblem(503, 'back_office_not_built', NOT_BUILT);
    if (page?.source !== built.body) page = { source: built.body, html: placed(new TextDecoder().decode(built.body), mount, settings) };
    c.header('Content-Security-Policy', BACK_OFFICE_POLICY);
    c.header('Cache-Control', 'no-cache');
    return c.html(page.html);
  });
  // `/admin/` would resolve the page's relative links one level too deep: one address only.
  // The query as sent, read without a URL: a Host none can hold (`xn--`) still gets its answer.
  app.get(`${path}/`, (c) => c.redirect(`${mount}${queryOf(c.req.url)}`, 308));

  const serve = async (c: Context<CompanionEnv>, name: string, cacheControl: string) => {
    const asset = await file(name);
    if (!asset) throw new ApiProblem(404, 'not_found', 'No such back office file');
    c.header('Cache-Control', cacheControl);
    return sendFile(c, asset, CONTENT_TYPES[extname(name)] ?? 'application/octet-stream');
  };
  app.get(`${path}/assets/:name`, (c) => {
    const name = c.req.param('name');
    if (!ASSET_NAME.test(name)) throw new ApiProblem(404, 'not_found', 'No such back office file');
    return serve(c, join('assets', name), 'public, max-age=31536000, immutable');
  });
  for (const name of ['favicon.svg', 'preferences.js']) app.get(`${path}/${name}`, (c) => serve(c, name, 'public, max-age=300'));
}

/** The built page with its relative URLs below `mount`, and the page's settings before </head>. */
function placed(html: string, mount: string, settings: string): string {
  return html
    .replaceAll(/(src|href)="\.\//g, `$1="${mount}/`)
    .replace('</head>', `  <script type="application/json" id="payform-back-office">${settings}</script>\n  </head>`);
}

/** A request URL's `?…` part, or nothing. */
function queryOf(url: string): string {
  const start = url.indexOf('?');
  return start < 0 ? '' : url.slice(start);
}
