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
 * Props as a page's state holds them: any may be `undefined` (under exactOptionalPropertyTypes
 * too: `endpoint={import.meta.env.VITE_PAYFORM}`), and `session` `null` until its server answers,
 * which the element waits for (`sessionWait`). @lit/react types each as the property's own type.
 */
type PageProps<P> = { [K in keyof Omit<P, 'session'>]?: P[K] | undefined } & { session?: string | null | undefined };

type Component<C> = C extends React.ForwardRefExoticComponent<infer P> ? React.ForwardRefExoticComponent<PageProps<P>> : never;

const buttonEvents = {
  onPayReady: event('pay-ready'),
  onPayRedirect: event('pay-redirect'),
  onPaySuccess: event('pay-success'),
  onPayFailure: event('pay-failure'),
  onPayError: event('pay-error'),
};

const formEvents = {
  ...buttonEvents,
  onPayChange: event('pay-change'),
  onPayBrandChange: event('pay-brand-change'),
  onPaySubmit: event('pay-submit'),
};

/**
 * `component` with its `onPay…` props heard while it is mounted only. @lit/react leaves its
 * listeners on an element React removed: a payment that ends after the customer followed a link
 * would run the checkout's `onPaySuccess` (a `navigate('/thanks')`) on the page they went to. Its
 * end reaches `document` (docs/widget.md).
 */
function whileMounted<C>(component: C, events: Record<string, unknown>, displayName: string): Component<C> {
  const wrapped = React.forwardRef<unknown, Record<string, unknown>>((props, ref) => {
    const mounted = React.useRef(false);
    useLayoutEffect(() => {
      mounted.current = true;
      return () => void (mounted.current = false);
    }, []);
    const guarded: Record<string, unknown> = { ...props, ref };
    for (const name of Object.keys(events)) {
      const handler = props[name];
      if (typeof handler === 'function') guarded[name] = (event: Event) => mounted.current && handler(event);
    }
    return React.createElement(component as React.ElementType, guarded);
  });
  wrapped.displayName = displayName;
  return wrapped as Component<C>;
}

/** A layout effect in the browser; on a server, where none runs, an effect (React 18 warns of a layout one there). */
const useLayoutEffect = typeof window === 'undefined' ? React.useEffect : React.useLayoutEffect;

const payForm = createComponent({ tagName: 'pay-form', elementClass: PayFormElement, react: React, events: formEvents, displayName: 'PayFormElement' });
const payButton = createComponent({ tagName: 'pay-button', elementClass: PayButtonElement, react: React, events: buttonEvents, displayName: 'PayButtonElement' });

export const PayForm = whileMounted(payForm, formEvents, 'PayForm');
export const PayButton = whileMounted(payButton, buttonEvents, 'PayButton');
