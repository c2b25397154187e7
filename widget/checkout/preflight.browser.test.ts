// A companion behind a server that answers CORS preflights itself, without CORS headers (Next.js,
// for a route handler that does not export OPTIONS). On another origin than the page's, the session
// reads (a simple GET), but the browser never sends a payment's POST of JSON, which is preflighted:
// the element says so, naming the fix, where it would be a bare network error.
import { expect, oneEvent } from '@open-wc/testing';
import { createSession, readView } from '../test/checkout-fixture.js';
import { autofill, button, card, mount, watchConsoleErrors } from '../test/harness.js';

describe('a companion that does not answer CORS preflights', () => {
  // The dev server's stand-in (dev-server-backend.ts) on another origin: `localhost` for the page's `127.0.0.1`.
  const endpoint = `http://localhost:${location.port}/__next-without-options`;

  for (const name of ['pay-form', 'pay-button'] as const) {
    it(`<${name}>'s payment is misconfigured, naming OPTIONS and the fix, once`, async () => {
      const session = await createSession();
      const element = await mount(session, { endpoint }, name);
      expect(new URL(endpoint).origin).not.to.equal(location.origin);
      const errors = watchConsoleErrors();
      try {
        const error = oneEvent(element, 'pay-error');
        if (name === 'pay-form') autofill(element, card('4242424242424242'));
        button(element).click();
        const { detail } = await error;
        expect(detail.code).to.equal('misconfigured');
        expect(detail.reason).to.equal(
          `the companion at ${endpoint} does not answer CORS preflights (OPTIONS), so this page's browser never sent the payment (a POST of JSON): ` +
            'hand OPTIONS requests to it as well (Next.js: export OPTIONS from the route handler)',
        );
        expect(errors).to.deep.equal([`<${name}>: ${detail.reason}`]);
      } finally {
        errors.restore();
      }
      expect((await readView(session)).status, 'nothing was paid').to.equal('open');
    });
  }
});
