/**
 * The page the customer paid from. The widget sends its address (`page_url`); without a
 * merchant `return_url`, the customer comes back there after 3-D Secure or the hosted page
 * instead of to a bare page of the companion's. Only a page the companion would serve a widget
 * to qualifies — on one of the allowed origins, or the companion's own — and it must be a
 * return URL like any other (https, or this machine in development): anyone can put an address
 * in a request, so a check here is what keeps the landing from redirecting anywhere.
 */
import type { CompanionOptions } from '../config.js';
import { returnUrlProblem } from './return-url.js';

/** Longest page address carried: the gateway keeps result_url with the payment. */
export const PAGE_URL_MAX = 2048;

/** `url` without its fragment when the customer may be sent back to it, else undefined. */
export function returnablePage(url: string | undefined, options: Pick<CompanionOptions, 'allowedOrigins' | 'publicUrl' | 'sandboxOrigin'>): string | undefined {
  if (!url || url.length > PAGE_URL_MAX || !URL.canParse(url)) return undefined;
  const page = new URL(url);
  if (page.protocol !== 'https:' && page.protocol !== 'http:') return undefined;
  const known = options.allowedOrigins.includes(page.origin) || page.origin === new URL(options.publicUrl).origin;
  if (!known || returnUrlProblem(page.href, options.sandboxOrigin) !== undefined) return undefined;
  page.hash = '';
  return page.href;
}

/** The `result_url` of a session's payment: the companion's landing, with the page to go back to. */
export function resultUrl(options: Pick<CompanionOptions, 'publicUrl'>, sessionId: string, page: string | undefined): string {
  const landing = `${options.publicUrl}/checkout/return/${sessionId}`;
  return page ? `${landing}?page=${encodeURIComponent(page)}` : landing;
}
