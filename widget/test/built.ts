/**
 * The widget's build (widget/dist, `npm run build:widget`) in the browser tests: pay-form.js and
 * its chunks/ as the companion serves them, for what only the build has (its chunks, how they are
 * fetched). Here the dev server serves them, so `answerModule` can hold or fail each
 * (`/widget/dist/chunks/paying.js`). Only for a test file that loads no other copy of the widget:
 * harness.ts imports the sources, whose elements, defined first, the build's would leave in place.
 */
import { fixture, oneEvent } from '@open-wc/testing';
import type { FieldName } from '../events.js';
import { openCheckout, type SessionOptions } from './checkout-fixture.js';

/** The build's folder, as the dev server serves it. */
export const BUILT = '/widget/dist';

/** A built `<pay-form>` for a new session from `options`, once it has announced `pay-ready`. */
export async function showBuilt(options: SessionOptions = {}): Promise<HTMLElement> {
  // Its companion is the one at the script's origin, the page's (`shop`).
  await import(new URL(`${BUILT}/pay-form.js`, location.href).href);
  const form = document.createElement('pay-form');
  form.setAttribute('session', (await openCheckout(options)).id);
  const ready = oneEvent(form, 'pay-ready');
  await fixture(form);
  await ready;
  return form;
}

/** What Chromium's autofill does in a built form's fields (harness.ts, `autofill`). */
export function autofillBuilt(form: Element, values: Partial<Record<FieldName, string>>): void {
  for (const [name, value] of Object.entries(values)) {
    const input = form.shadowRoot!.querySelector<HTMLInputElement>(`#${name}`)!;
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText' }));
  }
}

/** A card the sandbox pays (harness.ts, `card`). */
export const PAYS = { number: '4242424242424242', exp: `12/${String(new Date().getFullYear() + 3).slice(2)}`, cvv: '123' } satisfies Partial<Record<FieldName, string>>;

/** A built form's pay button. */
export const builtButton = (form: Element): HTMLButtonElement => form.shadowRoot!.querySelector('[part~=button]')!;
