/**
 * @payform/widget/vue: types of `<pay-form>` and `<pay-button>` for Vue 3 templates. Import it once
 * (for example in `env.d.ts`: `import '@payform/widget/vue';`) and vue-tsc and the editor check
 * their attributes and `@pay-…` listeners. Vue must also leave the tags to the browser:
 * `compilerOptions.isCustomElement: (tag) => tag.startsWith('pay-')` (docs/widget.md).
 */
import type { DefineComponent } from 'vue';
import type { ButtonEvents, CheckoutAttributes, FormAttributes } from './element-attributes.js';
import type { PayEventMap } from './events.js';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** `@pay-success="…"` in a template is the prop `onPaySuccess`. */
type Listeners<K extends keyof PayEventMap> = {
  [E in K as `on${Capitalize<Camel<E>>}`]?: (event: PayEventMap[E]) => void;
};

export interface PayFormProps extends FormAttributes, Listeners<keyof PayEventMap> {}

export interface PayButtonProps extends CheckoutAttributes, Listeners<ButtonEvents> {}

declare module 'vue' {
  interface GlobalComponents {
    'pay-form': DefineComponent<PayFormProps>;
    'pay-button': DefineComponent<PayButtonProps>;
  }
}
