/**
 * A merchant's Svelte 5 markup, typed by `@payform/widget/svelte`: the attributes svelte-check
 * takes on `<pay-form>` and `<pay-button>` (`SvelteHTMLElements`), and the mistakes it must refuse;
 * compiled (never run) by types.test.ts.
 */
import '@payform/widget/svelte';
import type { SvelteHTMLElements } from 'svelte/elements';

type PayFormMarkup = SvelteHTMLElements['pay-form'];
type PayButtonMarkup = SvelteHTMLElements['pay-button'];

export const form: PayFormMarkup = {
  session: null,
  endpoint: '/payments',
  lang: 'uk',
  class: 'checkout',
  'data-step': 'pay',
  pollInterval: 1_000,
  mode: 'hosted',
  'onpay-success': (event) => console.log(event.detail.orderId, event.currentTarget.session),
  'onpay-change': (event) => console.log(event.detail.field),
  'on:pay-failure': (event) => console.log(event.detail.message),
  onclick: null,
};

export const mistakes: PayFormMarkup[] = [
  // @ts-expect-error -- no `paysuccess` event: the listener is `onpay-success`
  { onpaysuccess: () => {} },
  // @ts-expect-error -- React's and Vue's prop name: Svelte would listen for `PaySuccess`
  { onPaySuccess: () => {} },
  // @ts-expect-error -- the amount is the session's, set on the merchant's server
  { amount: 24_950 },
  // @ts-expect-error -- pay-success's detail has no message
  { 'onpay-success': (event) => console.log(event.detail.message) },
];

// A component's optional props handed on before their data arrives: undefined, under exactOptionalPropertyTypes.
declare const sessionId: string | undefined;
declare const endpoint: string | undefined;
export const waiting: PayFormMarkup = { session: sessionId, endpoint, mode: 'direct' };

export const button: PayButtonMarkup = { session: 'cs_from_your_backend', 'onpay-redirect': (event) => console.log(event.detail.url) };
// @ts-expect-error -- <pay-button> has no fields
export const buttonChange: PayButtonMarkup = { 'onpay-change': () => {} };
