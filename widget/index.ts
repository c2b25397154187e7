import { PayButton } from './pay-button/pay-button.js';
import { PayForm } from './pay-form/pay-form.js';

export { PayButton, PayForm };
export type { BrandId, CheckCode } from '@payform/card/fields';
export type { PayErrorCode, PayRequest, PayAnswer } from './checkout/companion.js';
export type { SessionView, SavedCard, SessionStatus, CustomerField, PayMode } from './checkout/session-view.js';
export type { FieldName, PayEventDetails, PayEventMap } from './events.js';

// Defining is the one side effect, and it waits for a DOM: the module can be imported on a server.
// A second copy of the script on the page keeps the first definitions.
if (globalThis.customElements) {
  if (!customElements.get('pay-form')) customElements.define('pay-form', PayForm);
  if (!customElements.get('pay-button')) customElements.define('pay-button', PayButton);
}
