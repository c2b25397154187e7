import { PayButton } from './pay-button/pay-button.js';
import { PayForm } from './pay-form/pay-form.js';

export { PayButton, PayForm };
export type { BrandId, CheckCode } from '@payform/card/fields';
export type { PayErrorCode, PayRequest, PayAnswer } from './checkout/companion.js';
export type { SessionView, SavedCard, SessionStatus, CustomerField, PayMode } from './checkout/session-view.js';
export type { FieldName, PayEventDetails, PayEventMap } from './events.js';

// Each chunk loaded on demand that uses the form's own modules (paying, tokenized, diagnose, checks,
// card-numbers) imports this module too. esbuild's code splitting (Angular's builder and others)
// puts a module in the chunk of the exact set of entries reaching it: a chunk reaching only some
// of the form's modules split them off into up to four small chunks the page loaded beside the
// form's, about 0.7 KB gzip more. Reaching all of them through this module keeps them in one.
// Rollup and Vite put shared modules in the importer's chunk anyway: their output is unchanged.

// Defining is the one side effect, and it waits for a DOM: the module can be imported on a server.
// A second copy of the script on the page keeps the first definitions.
if (globalThis.customElements) {
  if (!customElements.get('pay-form')) customElements.define('pay-form', PayForm);
  if (!customElements.get('pay-button')) customElements.define('pay-button', PayButton);
}
