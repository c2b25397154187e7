// A session read the browser blocks on every try — an extension blocking requests by their
// address (Chromium's net::ERR_BLOCKED_BY_CLIENT, as a privacy or ad blocker does), or a proxy
// that passes on the companion's script only — while the companion is up and allows the page's
// origin: the fetch fails as a CORS refusal does. The element says the companion could not be
// reached from the page, a `network` error, not that the page's origin is refused.
import { expect, fixture, oneEvent } from '@open-wc/testing';
import { openCheckout } from '../test/checkout-fixture.js';
import { watchConsoleErrors, watchFetch } from '../test/harness.js';
import '../index.js';

describe('a session read blocked on its way, the companion up', () => {
  for (const name of ['pay-form', 'pay-button'] as const) {
    it(`<${name}> says the companion could not be reached, not that the page's origin is refused`, async () => {
      // `shop` on its own origin, which allows the page's: its script answers the page.
      const { id, companion_url } = await openCheckout();
      const read = `${companion_url}/api/checkout/sessions/${id}`;
      expect(new URL(companion_url).origin).not.to.equal(location.origin);
      expect((await fetch(read)).ok, 'the origin is allowed').to.equal(true);
      // Blocked as an extension blocks: every request to that address, and below it, fails at once.
      const calls = watchFetch((call) => (call.url.startsWith(read) ? Promise.reject(new TypeError('Failed to fetch')) : undefined));
      const errors = watchConsoleErrors();
      const warnings: string[] = [];
      const real = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
      try {
        const element = Object.assign(document.createElement(name), { session: id, endpoint: companion_url });
        const error = oneEvent(element, 'pay-error');
        await fixture(element);
        const { detail } = await error;
        expect(detail.code).to.equal('network');
        expect(detail.reason).to.equal(undefined);
        expect(errors).to.deep.equal([]);
        expect(warnings).to.deep.equal([
          `<${name}>: the companion at ${companion_url} could not be reached from this page at ${read}, though it serves the page its script: ` +
            'blocked by the browser or an extension (a privacy or ad blocker), or nothing answers at that path (a proxy in front of the companion that passes on its script only)',
        ]);
      } finally {
        console.warn = real;
        errors.restore();
        calls.restore();
      }
    });
  }
});
