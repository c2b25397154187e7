/**
 * The companion's own pages a customer's browser opens (the 3-D Secure return, the bank's
 * challenge link): plain HTML under a policy of their own — text, a link, an inline style,
 * nothing else — in the customer's language, readable with scripts off and on a 320 px phone.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import { isLedgerUnavailable } from '../../ledger/index.js';
import type { CompanionEnv } from '../context.js';
import { LEDGER_RETRY_AFTER_SECONDS } from '../http/failure-problems.js';
import { pageLanguage, pageWords } from './page-words.js';
import type { PageLanguage } from './page-words.js';
import { shopHome } from './payer-page.js';

/** The page's own policy: text, a link and an inline style, nothing else. */
export const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Seconds before a page on a payment still being decided loads itself again: it works with scripts off. */
export const PENDING_REFRESH_SECONDS = 5;

export interface CustomerPage {
  readonly heading: string;
  readonly text: string;
  /** Where the customer may go on to (a bank's challenge, the shop). */
  readonly link?: { readonly href: string; readonly label: string };
  /** Load the page again after this many seconds (a payment still being decided). */
  readonly refreshSeconds?: number;
}

/** The language of the page answering `c`: the merchant's `customer.lang` when given, else the browser's. */
export function customerLanguage(c: Context<CompanionEnv>, preferred?: string): PageLanguage {
  return pageLanguage(c.req.header('accept-language'), preferred);
}

export function sendPage(c: Context<CompanionEnv>, language: PageLanguage, content: CustomerPage, status: 200 | 404 | 503 = 200): Response | Promise<Response> {
  c.header('Content-Security-Policy', PAGE_POLICY);
  c.header('Content-Language', language);
  c.header('Vary', 'Accept-Language');
  const { heading, text, link, refreshSeconds } = content;
  // overflow-wrap: a description or id with no spaces must not widen a phone’s page. In rem, the
  // text grows with the reader’s own text size (16px at the default).
  return c.html(html`<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refreshSeconds ? html`<meta http-equiv="refresh" content="${refreshSeconds}">` : ''}<title>${heading}</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;overflow-wrap:anywhere}</style></head>
<body><main><h1>${heading}</h1><p>${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}</main></body>
</html>`, status);
}

/** The page `which` for an address under /checkout that is no page: a mistyped or cut link. */
export function notFoundPage(c: Context<CompanionEnv>, which: 'notFound' | 'linkNotFound'): Response | Promise<Response> {
  const language = customerLanguage(c);
  const words = pageWords(language);
  const shop = shopHome(c.var.services.options);
  return sendPage(c, language, { ...words[which], ...(shop ? { link: { href: shop, label: words.backToShop } } : {}) }, 404);
}

/**
 * Runs a customer page's `render`: while the database cannot be reached it answers a page they
 * can read — their payment is not lost, reload, do not pay again — rather than the merchant
 * API's JSON. The outage is noticed as the app's error handler notices it.
 */
export async function customerPage(c: Context<CompanionEnv>, render: () => Promise<Response>): Promise<Response> {
  try {
    return await render();
  } catch (error) {
    if (!isLedgerUnavailable(error)) throw error;
    c.var.services.outage.noticed(error);
    c.header('Retry-After', LEDGER_RETRY_AFTER_SECONDS);
    const language = customerLanguage(c);
    return sendPage(c, language, pageWords(language).outage, 503);
  }
}
