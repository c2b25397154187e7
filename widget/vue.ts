/**
 * @payform/widget/vue: types of `<pay-form>` and `<pay-button>` for Vue 3 templates. Import it once
 * (for example in `env.d.ts`: `import '@payform/widget/vue';`) and vue-tsc and the editor check
 * their attributes and `@pay-…` listeners. Vue must also leave the tags to the browser:
 * `compilerOptions.isCustomElement: (tag) => tag.startsWith('pay-')` (docs/widget.md).
 */
import type { HTMLAttributes, PublicProps } from 'vue';
import type { ButtonEvents, CheckoutAttributes, FormAttributes } from './element-attributes.js';
import type { PayEventMap } from './events.js';
import type { PayButton, PayForm } from './index.js';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** `@pay-success="…"` in a template is the prop `onPaySuccess`. */
type Listeners<K extends keyof PayEventMap> = {
  [E in K as `on${Capitalize<Camel<E>>}`]?: (event: PayEventMap[E]) => void;
};

export interface PayFormProps extends FormAttributes, Listeners<keyof PayEventMap> {}

export interface PayButtonProps extends CheckoutAttributes, Listeners<ButtonEvents> {}

/**
 * A custom element as vue-tsc reads a global component: its template's props from `$props` (its
 * own, any element's — `class`, `style` — and Vue's — `ref`, `key`), and a template ref
 * (`useTemplateRef`, `ref="…"`) typed as the element itself, whose `pay()` a page with its own
 * button calls. `$props` is there for the template's check alone.
 */
type CustomElement<Element extends HTMLElement, Props> = new () => Element & { readonly $props: Props & Omit<HTMLAttributes, keyof Props> & PublicProps };

declare module 'vue' {
  interface GlobalComponents {
    'pay-form': CustomElement<PayForm, PayFormProps>;
    'pay-button': CustomElement<PayButton, PayButtonProps>;
  }
}
