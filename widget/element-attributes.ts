/**
 * What a framework's template may set on `<pay-form>` and `<pay-button>`: one list for the Vue
 * and Svelte entries' types (vue.ts, svelte.ts), each adding its own listener names. Types only.
 * Each takes `undefined` as well, as a framework's optional prop hands it on before its data
 * arrives (under `exactOptionalPropertyTypes` an optional property alone would refuse it).
 */
export interface CheckoutAttributes {
  /** The checkout session id (from the companion); `null` until the page has it, while the element waits (`sessionWait`). */
  session?: string | null | undefined;
  /** The companion's base URL; by default the companion that served the script: its URL up to `/widget/pay-form.js`, base path included. */
  endpoint?: string | undefined;
  /** Language of the element; defaults to the closest `lang` up the page. */
  lang?: string | undefined;
  /** Disabled as a form control is (as inside a `<fieldset disabled>`): its fields take nothing, and it pays nothing. */
  disabled?: boolean | undefined;
  /**
   * How often a pending payment is polled, ms, from 20 to 60 000 (another value is the default,
   * 2000, and the console says so). A property, not an attribute: set it by its own
   * name — Vue's `:pollInterval`, Svelte's `pollInterval={…}`. (Vue sets `:poll-interval` as an
   * attribute, which the element does not read, and the console says so.)
   */
  pollInterval?: number | undefined;
  /** How long at most a pending payment is polled, ms, from 0 to 3 600 000; a property, as `pollInterval` (Vue: `:pollTimeout`). */
  pollTimeout?: number | undefined;
  /** How long the element waits for a `session` its page sets late, ms, from 0 to 600 000, before it says none was set; a property, as `pollInterval` (Vue: `:sessionWait`). */
  sessionWait?: number | undefined;
}

export interface FormAttributes extends CheckoutAttributes {
  /** `hosted` shows only the button to the gateway's payment page; `direct` (or none) the card form. */
  mode?: '' | 'hosted' | 'direct' | undefined;
}

/** The events `<pay-button>` dispatches: it has no fields, so no `pay-change`, `pay-brand-change` or `pay-submit`. */
export type ButtonEvents = 'pay-ready' | 'pay-redirect' | 'pay-success' | 'pay-failure' | 'pay-error';
