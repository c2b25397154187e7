/**
 * @payform/widget/vue: types of `<pay-form>` and `<pay-button>` for Vue 3 templates. Import it once
 * (for example in `env.d.ts`: `import '@payform/widget/vue';`) and vue-tsc and the editor check
 * their attributes and `@pay-…` listeners. Vue must also leave the tags to the browser:
 * `compilerOptions.isCustomElement: (tag) => tag.startsWith('pay-')` (docs/widget.md).
 */
import type { DefineComponent } from 'vue';
import type { PayEventMap } from './events.js';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** `@pay-success="…"` in a template is the prop `onPaySuccess`. */
type Listeners<K extends keyof PayEventMap> = {
  [E in K as `on${Capitalize<Camel<E>>}`]?: (event: PayEventMap[E]) => void;
};

type ButtonEvents = 'pay-ready' | 'pay-redirect' | 'pay-success' | 'pay-failure' | 'pay-error';

interface CheckoutAttributes {
  /** The checkout session id (from the companion); `null` until the page has it, while the element waits (`sessionWait`). */
  session?: string | null;
  /** The companion's base URL; by default the companion that served the script: its URL up to `/widget/pay-form.js`, base path included. */
  endpoint?: string;
  /** Language of the element; defaults to the closest `lang` up the page. */
  lang?: string;
  /** How often a pending payment is polled, ms (`:poll-interval` sets the property). */
  pollInterval?: number;
  /** How long at most a pending payment is polled, ms. */
  pollTimeout?: number;
  /** How long the element waits for a `session` its page sets late, ms, before it says none was set. */
  sessionWait?: number;
}

export interface PayFormProps extends CheckoutAttributes, Listeners<keyof PayEventMap> {
  /** `hosted` shows only the button to the gateway's payment page. */
  mode?: '' | 'hosted';
}

export interface PayButtonProps extends CheckoutAttributes, Listeners<ButtonEvents> {}

declare module 'vue' {
  interface GlobalComponents {
    'pay-form': DefineComponent<PayFormProps>;
    'pay-button': DefineComponent<PayButtonProps>;
  }
}
