/**
 * A session read that finds no connection (a page shown offline, a page the back/forward cache
 * kept, shown again offline) is read again by the element itself once the browser is back
 * online: the customer is told they are offline meanwhile, never left on "Could not reach…" until
 * they click. Several elements read once each, not once per failed read.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { CheckoutElement } from './checkout-element.js';
import { createSession } from '../test/checkout-fixture.js';
import { message, watchFetch } from '../test/harness.js';
import '../index.js';

/** The browser offline as far as the page can tell: `navigator.onLine` false, every companion request dropped. */
function offline(): { back(): void; reads: () => number; restore(): void } {
  let down = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !down });
  const calls = watchFetch((call) => (down && call.url.includes('/api/checkout/') ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
  return {
    back() {
      down = false;
      dispatchEvent(new Event('online'));
    },
    reads: () => calls.filter((call) => call.method === 'GET' && call.url.includes('/api/checkout/sessions/')).length,
    restore() {
      calls.restore();
      delete (navigator as { onLine?: boolean }).onLine;
    },
  };
}

describe('a session read while offline', () => {
  it('says the customer is offline and reads the session again, once per element, as the connection comes back', async () => {
    const session = await createSession();
    const network = offline();
    try {
      const form = document.createElement('pay-form');
      const button = document.createElement('pay-button');
      for (const each of [form, button]) each.session = session;
      await fixture(html`<div>${form}${button}</div>`);
      const offlineWords = 'You are offline. This checkout will load once you are back online.';
      await waitUntil(() => message(form) === offlineWords && message(button) === offlineWords, `not said offline: ${message(form)}`);
      // The customer clicks the fallback button meanwhile: its read fails as well.
      await (form as CheckoutElement).pay();
      const before = network.reads();
      network.back();
      await waitUntil(() => form.shadowRoot!.querySelector('#number'), 'the form did not read the session again', { timeout: 3000 });
      await waitUntil(() => button.phase === 'ready' && !!button.view, 'the button did not read the session again');
      expect(message(form)).to.equal('');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(network.reads() - before, 'one read an element').to.equal(2);
    } finally {
      network.restore();
    }
  });
});
