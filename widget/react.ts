/**
 * @payform/widget/react: `<pay-form>` and `<pay-button>` as React components, their properties
 * typed from the elements and their events as `onPay…` props typed from the event map. Made with
 * @lit/react, which, with react, is an optional peer dependency: install both to use this entry.
 *
 *   import { PayForm } from '@payform/widget/react';
 *   <PayForm session={sessionId} onPaySuccess={(event) => showReceipt(event.detail.orderId)} />
 *
 * Not part of the script-tag bundle (pay-form.js).
 */
import * as React from 'react';
import { createComponent } from '@lit/react';
import type { EventName } from '@lit/react';
import { PayButton as PayButtonElement, PayForm as PayFormElement } from './index.js';
import type { PayEventMap } from './events.js';

const event = <K extends keyof PayEventMap>(type: K) => type as EventName<PayEventMap[K]>;

const buttonEvents = {
  onPayReady: event('pay-ready'),
  onPayRedirect: event('pay-redirect'),
  onPaySuccess: event('pay-success'),
  onPayFailure: event('pay-failure'),
  onPayError: event('pay-error'),
};

export const PayForm = createComponent({
  tagName: 'pay-form',
  elementClass: PayFormElement,
  react: React,
  events: {
    ...buttonEvents,
    onPayChange: event('pay-change'),
    onPayBrandChange: event('pay-brand-change'),
    onPaySubmit: event('pay-submit'),
  },
  displayName: 'PayForm',
});

export const PayButton = createComponent({
  tagName: 'pay-button',
  elementClass: PayButtonElement,
  react: React,
  events: buttonEvents,
  displayName: 'PayButton',
});
