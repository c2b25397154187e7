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

/**
 * `session` typed as the element takes it: a page's state holds `null` or `undefined` until its
 * server answers, and the element waits for it (`sessionWait`). @lit/react types it as the
 * property's own `string`.
 */
type AwaitingSession<C> =
  C extends React.ForwardRefExoticComponent<infer P>
    ? React.ForwardRefExoticComponent<Omit<P, 'session'> & { session?: string | null | undefined }>
    : never;

const buttonEvents = {
  onPayReady: event('pay-ready'),
  onPayRedirect: event('pay-redirect'),
  onPaySuccess: event('pay-success'),
  onPayFailure: event('pay-failure'),
  onPayError: event('pay-error'),
};

const payForm = createComponent({
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

const payButton = createComponent({
  tagName: 'pay-button',
  elementClass: PayButtonElement,
  react: React,
  events: buttonEvents,
  displayName: 'PayButton',
});

export const PayForm = payForm as AwaitingSession<typeof payForm>;
export const PayButton = payButton as AwaitingSession<typeof payButton>;
