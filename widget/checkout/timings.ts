/**
 * The element's timings (`pollInterval`, `pollTimeout`, `sessionWait`): read within their bounds,
 * and the developer told once of one that is no number of ms, or given as an attribute.
 */
import type { CheckoutElement } from './checkout-element.js';

/**
 * The element's timings, in ms, each with the least and most it may be and its default. A page may
 * set them to anything (`Object.assign(form, settings)`, a framework's prop): "2s" or 0 once
 * polled a pending payment as fast as the browser could, for an hour. checkout-element.ts waits
 * for a session by the same bounds of sessionWait, before this chunk has come.
 */
const TIMINGS = {
  pollInterval: [20, 60_000, 2_000],
  pollTimeout: [0, 3_600_000, 60_000],
  sessionWait: [0, 600_000, 10_000],
} as const;

/** What the developer was told of a timing that is none: once a page. */
const mistimed = new Set<string>();

/**
 * `element`'s timing `name`: what the page set when it is a number of ms within bounds (or its
 * digits, as a string: Number reads them, as the comparisons that used it always did); unset
 * (undefined, null: a framework's optional prop before its data) the default; else the default
 * too, and the developer told once what to set.
 */
export function timing(element: CheckoutElement, name: keyof typeof TIMINGS): number {
  const [least, most, otherwise] = TIMINGS[name];
  const value: unknown = element[name];
  // Number() throws at a symbol: that is no number either.
  const ms = Number(typeof value === 'symbol' ? NaN : value);
  if (value == null) return otherwise;
  if (ms >= least && ms <= most) return ms;
  mistime(`<${element.localName}>: ${name} is milliseconds, a number from ${least} to ${most}: ${typeof value === 'string' ? `"${value}"` : String(value)} is none; using ${otherwise}`);
  return otherwise;
}

/** Says `said` to the developer, once a page. */
function mistime(said: string): void {
  if (!mistimed.has(said)) console.error(said);
  mistimed.add(said);
}

/**
 * Each timing checked as the element shows, whether or not a payment of it is ever polled; and
 * one given as an attribute (`poll-interval="2000"`, Vue's `:poll-interval`), which the element
 * does not read: they are properties only, set by their own names.
 */
export function checkTimings(element: CheckoutElement): void {
  for (const name of Object.keys(TIMINGS) as (keyof typeof TIMINGS)[]) {
    timing(element, name);
    // HTML's attribute names are lowercase: `pollInterval="…"` is `pollinterval`, and so looked for.
    const attribute = [name.replace(/[A-Z]/g, (upper) => `-${upper.toLowerCase()}`), name].find((each) => element.hasAttribute(each));
    if (attribute) mistime(`<${element.localName}>: ${attribute} is no attribute of <${element.localName}>, so it is not read: set the element's ${name} property (Vue: :${name}, Svelte: ${name}={…}, Lit: .${name})`);
  }
}
