/**
 * A framework may put the element in the page and take it out again before it has shown anything
 * (a conditional that flips twice, React's StrictMode mounting twice, a router's transition), then
 * put it back. The page hears `pay-ready` from it once it shows, in the page: never from an
 * element out of it, where no listener of the page hears it.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { createSession } from '../test/checkout-fixture.js';
import { watchFetch } from '../test/harness.js';
import '../index.js';

const pause = (ms: number): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, ms));

describe('an element taken out of the page before it first showed, then put back', () => {
  for (const tag of ['pay-form', 'pay-button'] as const) {
    it(`<${tag}> reads its session only in the page, and the page hears pay-ready once it is back`, async () => {
      const session = await createSession();
      const ready: EventTarget[] = [];
      const listener = (event: Event) => ready.push(event.target!);
      document.addEventListener('pay-ready', listener);
      const calls = watchFetch();
      const element = document.createElement(tag);
      try {
        element.session = session;
        document.body.append(element);
        // Out again before its first update: Lit still runs that update, out of the page.
        element.remove();
        await pause(500);
        expect(calls.map(({ method, url }) => `${method} ${url}`), 'read out of the page').to.deep.equal([]);
        expect(ready, 'told out of the page').to.deep.equal([]);
        document.body.append(element);
        await waitUntil(() => ready.length > 0, `no pay-ready (${element.phase})`);
        await pause(300);
        expect(ready.length, 'pay-ready heard').to.equal(1);
        expect(ready[0] === element, 'from the element').to.equal(true);
        expect(element.phase).to.equal('ready');
      } finally {
        element.remove();
        calls.restore();
        document.removeEventListener('pay-ready', listener);
      }
    });
  }

  it('a form taken out as it reads its session reads it again once back, and the page hears pay-ready then', async () => {
    const session = await createSession();
    const ready: EventTarget[] = [];
    const listener = (event: Event) => ready.push(event.target!);
    document.addEventListener('pay-ready', listener);
    const element = document.createElement('pay-form');
    try {
      element.session = session;
      document.body.append(element);
      await element.updateComplete;
      element.remove();
      await pause(500);
      expect(ready, 'told out of the page').to.deep.equal([]);
      document.body.append(element);
      await waitUntil(() => ready.length > 0, `no pay-ready (${element.phase})`);
      expect(element.shadowRoot!.querySelector('#number'), 'the form shows').to.not.equal(null);
    } finally {
      element.remove();
      document.removeEventListener('pay-ready', listener);
    }
  });
});
