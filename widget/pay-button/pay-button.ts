import type { TemplateResult } from 'lit';
import { CheckoutElement } from '../checkout/checkout-element.js';
import { theme } from '../theme.styles.js';

/**
 * A button that sends the customer to the gateway's hosted payment page for one checkout session:
 * the low-PCI-scope way to pay, on its own. `<pay-form>` shows the same button when it cannot pay directly.
 *
 * @element pay-button
 *
 * @attr session - The checkout session id (from the companion).
 * @attr endpoint - The companion's base URL; defaults to the companion that served the script (its URL up to `/widget/pay-form.js`).
 * @attr lang - Language of the button; defaults to the closest `lang` up the page.
 * @attr processing - Reflected while the hosted page is being prepared or a payment is being confirmed.
 *
 * @event {CustomEvent<PayEventDetails['pay-ready']>} pay-ready - The session loaded and can be paid: once a session (not again back from the back/forward cache), before the outcome of the attempt the customer comes back from (also one decided while the button confirmed it). `detail: { mode: 'hosted', test, amount, currency }` (amount in minor units).
 * @event {CustomEvent<PayEventDetails['pay-redirect']>} pay-redirect - About to leave for the hosted page; cancelable. `detail: { url, reason: 'hosted' }`.
 * @event {CustomEvent<PayEventDetails['pay-success']>} pay-success - The session is paid (after returning from the hosted page). `detail: { orderId, paymentId? }`.
 * @event {CustomEvent<PayEventDetails['pay-failure']>} pay-failure - The last attempt failed (after `pay-ready`, back from the hosted page). `detail: { message, orderId }`.
 * @event {CustomEvent<PayEventDetails['pay-error']>} pay-error - The companion could not be reached or answered badly, or the page is set up wrong. `detail: { code, message, reason? }` (`reason`, for the developer, with `misconfigured` and an unknown session).
 *
 * @csspart button - The button (also the "check again" button while a payment is being confirmed).
 * @csspart note - For a card verification (`lookup` session): that the card is saved and nothing is charged.
 * @csspart message - The live region.
 * @csspart more-time - Beside the warning that the time to pay is nearly up, the button asking for more time (a session view with `extendable`).
 * @csspart banner - The test mode banner.
 * @csspart success - The success view.
 *
 * @cssproperty --pay-form-color-accent - Button colour.
 * @cssproperty --pay-form-color-on-accent - Button text colour; by default the background colour.
 * @cssproperty --pay-form-color-background - The background colour: the button's text and the success mark's by default, and the gap inside the focus ring.
 * @cssproperty --pay-form-color-text - Text colour.
 * @cssproperty --pay-form-color-error - Errors.
 * @cssproperty --pay-form-font - The `font` shorthand.
 * @cssproperty --pay-form-radius - Corner radius.
 * @cssproperty --pay-form-spacing - Space under the test mode banner and around the outcome (spinner, success).
 * @cssproperty --pay-form-focus-ring - The focus ring (a `box-shadow`).
 */
export class PayButton extends CheckoutElement {
  static override styles = theme;

  /** @internal */
  override get hosted(): boolean {
    return true;
  }

  protected override body(): TemplateResult {
    return this.button();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-button': PayButton;
  }
}
