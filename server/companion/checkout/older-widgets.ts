/**
 * A `<pay-form>` or `<pay-button>` of 0.2 paying through this companion. 0.2 reads the session
 * view's amount as decimals, so its customers see 100 times this companion's amount (2550, which
 * is 25.50 UAH, as "UAH 2,550.00"), though the session's is what is charged: only the operator can
 * mend it, and only this log tells them. Recognised by a pay or hosted request from a browser
 * (which sends Origin with every POST; a merchant's server sends none) without `page_url`, which
 * every widget since 0.3 sends. 0.2's read of the session tells nothing: a plain GET, as a
 * page's own script's is.
 *
 * For WIDGET_CACHE_SECONDS after the start, browsers may still run the 0.2 pay-form.js this
 * companion served before the upgrade, and a page opened before it pays with the widget it has:
 * said once as such, and once more if it goes on after them.
 */
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';
import { originToName } from '../http/advised-origin.js';
import { WIDGET_CACHE_SECONDS } from './widget-routes.js';

export class OlderWidgets {
  readonly #clock: () => number;
  readonly #cacheEnds: number;
  #told: 'while cached' | 'after' | undefined;

  constructor(clock: () => number) {
    this.#clock = clock;
    this.#cacheEnds = clock() + WIDGET_CACHE_SECONDS * 1000;
  }

  /** A pay or hosted request, with the `page_url` it sent: said if it is a 0.2 widget's, once each side of the cache's end. */
  noteRequest(c: Context<CompanionEnv>, pageUrl: string | undefined): void {
    const origin = c.req.header('origin');
    if (pageUrl !== undefined || origin === undefined || this.#told === 'after') return;
    const cached = this.#clock() < this.#cacheEnds;
    if (cached && this.#told) return;
    this.#told = cached ? 'while cached' : 'after';
    const { publicUrl } = c.get('services').options;
    const skew =
      'a browser paid a checkout session (or opened its hosted page) without page_url, which every <pay-form> and <pay-button> since 0.3 sends: ' +
      'the page runs @payform/widget 0.2 (or older), which reads this 0.3 companion’s amounts, integer minor units, as decimals: its customers see 2550 (25.50 UAH) as UAH 2,550.00, though the session’s amount is what is charged. ';
    const fix = `upgrade the page’s @payform/widget, or its copy of pay-form.js (a CDN’s too), to 0.3, or load this companion’s own ${publicUrl}/widget/pay-form.js, which moves with it`;
    c.get('logger').warn(
      cached
        ? `${skew}In the ${WIDGET_CACHE_SECONDS / 60} minutes after this start that may be the 0.2 pay-form.js browsers cached from this companion before the upgrade (Cache-Control: max-age=${WIDGET_CACHE_SECONDS}), ` +
            `or a page opened before it; said again if it goes on after ${new Date(this.#cacheEnds).toISOString()}. Else ${fix}. Said once`
        : `${skew}${fix[0]!.toUpperCase()}${fix.slice(1)} (a customer who opened the page before the upgrade also pays so). Said once`,
      // An origin as a browser sends it; anything else a client put there is not logged.
      originToName(origin) === undefined ? undefined : { origin },
    );
  }
}
