/**
 * The frame of every sandbox page: a small accessible document (language, skip link, landmarks,
 * one h1) styled by the external stylesheet, and the security headers that go with it — a
 * strict Content-Security-Policy without script, and no caching of pages that show payments.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { STYLESHEET_PATH } from './stylesheet.js';

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

export function layout(title: string, content: Markup): Markup {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · payform sandbox</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header>
<p class="brand">payform sandbox gateway</p>
<p class="test-mode">Test mode: no real money moves</p>
</header>
<main id="main" tabindex="-1">
${content}
</main>
</body>
</html>`;
}

/**
 * Sends a page with its headers. `formTargets` are the origins a form on it posts to or is sent
 * on to (result_url). Browsers apply form-action to every redirect that follows a submission,
 * and result_url (a companion) sends the customer on to the merchant's own page, wherever it
 * is: so https pages, and this machine's pages in development, are allowed too. Other schemes
 * (javascript:, data:) stay refused.
 */
export async function sendPage(
  c: Context,
  content: Markup,
  options: { status?: 200 | 400 | 403 | 404 | 409 | 410; formTargets?: readonly string[]; scripts?: boolean } = {},
) {
  const formAction = ["'self'", ...new Set(options.formTargets ?? []), ...ONWARD_TARGETS].join(' ');
  // Pages that keep themselves current (the inspector) load a script of the sandbox's own and fetch from it.
  const scripts = options.scripts ? "script-src 'self'; connect-src 'self'; " : '';
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; ${scripts}style-src 'self'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  // frame-ancestors for browsers that know CSP 2, X-Frame-Options for those that do not: a
  // framed card form or challenge could be overlaid to trick the customer (clickjacking).
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  // Same-origin only: the shop never learns the checkout or challenge address, and form posts keep their Origin.
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
  // The views link the sandbox's own paths from its root (`/assets/…`, a form's own path). Behind a
  // proxy that serves the sandbox under a path (--public-url https://host/gateway) such a link
  // leaves it, and the form posts nowhere: each is sent relative to the page. Links only: a field's
  // value echoed as typed (`value="/1"`) stays as it was.
  const root = rootFrom(c.req.path);
  return c.html((await content).replace(OWN_LINK, (_, name: string) => `${name}="${root}`), options.status ?? 200);
}

/** A link attribute's value that starts at the sandbox's root. */
const OWN_LINK = /\b(href|action|src|data-source)="\//g;

/** The sandbox's root as a reference relative to a page at `path`: `../` from /3ds/<id>, `./` from /. */
function rootFrom(path: string): string {
  const depth = path.split('/').length - 2;
  return depth > 0 ? '../'.repeat(depth) : './';
}

/** Where a customer may be sent on after result_url: any https page, or one on this machine. */
const ONWARD_TARGETS = ['https:', 'http://localhost:*', 'http://127.0.0.1:*'];

/** The origin of an http(s) URL, for form-action; nothing for anything else. */
export function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? [parsed.origin] : [];
  } catch {
    return [];
  }
}
