/**
 * @payform/widget/svelte: types of `<pay-form>` and `<pay-button>` for Svelte templates. Import it
 * once (in SvelteKit, `src/app.d.ts`: `import '@payform/widget/svelte';`) and svelte-check and the
 * editor check their attributes and `onpay-…` listeners (Svelte 4's `on:pay-…` too). Without it
 * Svelte takes anything on an unknown tag: `onpaysuccess`, `onPaySuccess` (events that never come)
 * and `amount` (the session's own) pass without a word.
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { ButtonEvents, CheckoutAttributes, FormAttributes } from './element-attributes.js';
import type { PayEventMap } from './events.js';
import type { PayButton, PayForm } from './index.js';

/** As Svelte types a DOM event's handler: `currentTarget` is the element; `null` sets none. */
type Handler<E extends Event, T extends EventTarget> = ((event: E & { currentTarget: EventTarget & T }) => unknown) | undefined | null;

/**
 * Each event under the three names Svelte's own attributes give a DOM event: `onpay-success`,
 * `onpay-successcapture`, and Svelte 4's directive `on:pay-success`.
 */
type Listeners<K extends keyof PayEventMap, T extends EventTarget> = {
  [E in K as `on${E}` | `on${E}capture` | `on:${E}`]?: Handler<PayEventMap[E], T>;
};

/** Svelte's attributes of any element (`class`, `id`, `style`, `hidden`…) keep their own typing. */
type Own<A> = Omit<A, keyof HTMLAttributes<EventTarget>>;

export type PayFormAttributes = HTMLAttributes<PayForm> & Own<FormAttributes> & Listeners<keyof PayEventMap, PayForm>;
export type PayButtonAttributes = HTMLAttributes<PayButton> & Own<CheckoutAttributes> & Listeners<ButtonEvents, PayButton>;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'pay-form': PayFormAttributes;
    'pay-button': PayButtonAttributes;
  }
}
