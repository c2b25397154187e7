/**
 * The page the customer paid from. The widget sends its address (`page_url`); without a
 * merchant `return_url`, the customer comes back there after 3-D Secure or the hosted page
 * instead of to a bare page of the companion's. Only a page the companion would serve a widget
 * to qualifies — on one of the allowed origins, or the companion's own — and it must be a
 * return URL like any other (https, or this machine in development): anyone can put an address
 * in a request, so a check here is what keeps the landing from redirecting anywhere.
 */
import * as z from 'zod';
import { holdsCardNumberOfItsLength } from '@payform/card';
import { holdsWrittenCardNumber } from './customer.js';
import type { CompanionOptions } from '../config.js';
import { NOT_AN_ORIGIN, originToName } from '../http/advised-origin.js';
import { SaidLately } from '../http/said-lately.js';
import type { Logger } from '../log/logger.js';
import { returnUrlProblem } from './return-url.js';

/** Longest page address carried: the gateway keeps result_url with the payment. */
export const PAGE_URL_MAX = 2048;

/**
 * The page the customer pays from, as the pay and hosted requests take it. Not limited here:
 * the customer cannot shorten their page's address, and a payment refused for it could not be
 * made at all; one longer than PAGE_URL_MAX is only not come back to (the body's limit bounds it).
 */
export const PageUrl = z
  .string()
  .optional()
  .describe(
    `The page the customer pays from (the widget sends location.href, without its fragment): without a return_url, the customer comes back to it when it is on an allowed origin and at most ${PAGE_URL_MAX} characters long, else to the companion's own page`,
  );

type PageOptions = Pick<CompanionOptions, 'allowedOrigins' | 'publicUrl' | 'sandboxOrigin'>;

/** The page to go back to; or, for an http(s) page refused, its origin and the fix. */
type PageCheck = { readonly page: string } | { readonly origin: string; readonly fix: string } | undefined;

function checkPage(url: string | undefined, options: PageOptions): PageCheck {
  if (!url || url.length > PAGE_URL_MAX || !URL.canParse(url)) return undefined;
  const page = new URL(url);
  if (page.protocol !== 'https:' && page.protocol !== 'http:') return undefined;
  const { origin } = page;
  if (!options.allowedOrigins.includes(origin) && origin !== new URL(options.publicUrl).origin) {
    const named = originToName(origin);
    return named
      ? { origin: named, fix: `add ${named} to PAYFORM_ALLOWED_ORIGINS (allowedOrigins) if it is your shop` }
      : { origin: NOT_AN_ORIGIN, fix: 'no setting allows it (a host with a comma, or longer than a DNS name)' };
  }
  const problem = returnUrlProblem(page.href, options.sandboxOrigin);
  if (problem !== undefined) return { origin, fix: `its address ${problem}` };
  // Sent on as the gateway's result_url and given back in the landing's redirect: a card number
  // in it would be echoed, so it is refused as in a return_url (session-request.ts).
  if (holdsWrittenCardNumber(url, holdsCardNumberOfItsLength)) return { origin, fix: 'its address holds a card number' };
  page.hash = '';
  return { page: page.href };
}

/** `url` without its fragment when the customer may be sent back to it, else undefined. */
export function returnablePage(url: string | undefined, options: PageOptions): string | undefined {
  const checked = checkPage(url, options);
  return checked && 'page' in checked ? checked.page : undefined;
}

/**
 * The shop's home: the one origin allowed to embed the checkout or, when none is configured, the
 * origin the companion is mounted in under a path (the shop's own server). Several origins, or
 * a companion alone on its origin, name no shop: no link is made up. That origin allowed (the
 * bin's default, PAYFORM_PUBLIC_URL's origin) is no shop either: its home is the companion's 404.
 */
export function shopHome(options: Pick<CompanionOptions, 'allowedOrigins' | 'publicUrl'>): string | undefined {
  const own = new URL(options.publicUrl);
  const alone = own.pathname === '/';
  const [only, ...others] = options.allowedOrigins.filter((origin) => !(alone && origin === own.origin));
  if (only !== undefined) return others.length === 0 ? `${only}/` : undefined;
  return alone ? undefined : `${own.origin}/`;
}

/**
 * Refused pages said as warnings: each origin once an hour, a few an hour at most. A customer
 * chooses page_url, so made-up origins, one per payment, could otherwise write a line each; a
 * real misconfiguration comes back with every payment and is said once the hour has passed.
 */
const REFUSED_PAGES_SAID = 20;
const REFUSED_PAGES_WINDOW_MS = 60 * 60_000;

/**
 * The pages payments come from, as the pay and hosted calls take them. A page refused is said
 * once an hour per origin, a few origins an hour at most: its customers land on the companion's
 * bare page after 3-D Secure or the hosted page instead of back in the shop, and a page served
 * under a second name of the shop (www., 127.0.0.1 for localhost) passes CORS as same-origin, so
 * nothing else would say so. Only the origin is logged, and only one that is an origin
 * (http/advised-origin.ts): a page's path and query are the customer's.
 */
export class PayerPages {
  readonly #options: PageOptions;
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #said = new SaidLately(REFUSED_PAGES_SAID, REFUSED_PAGES_WINDOW_MS);

  constructor(options: PageOptions, logger: Logger, clock: () => number = Date.now) {
    this.#options = options;
    this.#logger = logger;
    this.#clock = clock;
  }

  returnable(url: string | undefined): string | undefined {
    const checked = checkPage(url, this.#options);
    if (!checked || 'page' in checked) return checked?.page;
    const { origin, fix } = checked;
    if (this.#said.take(origin, this.#clock())) {
      const fields = origin === NOT_AN_ORIGIN ? {} : { origin };
      this.#logger.warn(`a customer paying from a page on ${origin} is not sent back to it after 3-D Secure or the hosted page, but lands on the companion's own page: ${fix}, or give the session a return_url`, fields);
    }
    return undefined;
  }
}

/** The `result_url` of a session's payment: the companion's landing, with the page to go back to. */
export function resultUrl(options: Pick<CompanionOptions, 'publicUrl'>, sessionId: string, page: string | undefined): string {
  const landing = `${options.publicUrl}/checkout/return/${sessionId}`;
  return page ? `${landing}?page=${encodeURIComponent(page)}` : landing;
}
