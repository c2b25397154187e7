// A page whose Content-Security-Policy connect-src leaves the companion out: the browser refuses
// every request to it, which the fetch tells as a network error. The element says it is the page's
// policy, naming the origin to add, not an outage or a wrong endpoint. Its own file: a policy once
// in force stays for the page.
import { expect, fixture, oneEvent } from '@open-wc/testing';
import { openCheckout } from '../test/checkout-fixture.js';
import { message, watchConsoleErrors } from '../test/harness.js';

describe('under a connect-src without the companion', () => {
  let companion: string;
  let session: string;
  before(async () => {
    // The companion on another origin than the page, which the policy allows ('self': the fixtures).
    const { id, companion_url } = await openCheckout();
    [companion, session] = [companion_url, id];
    const policy = document.createElement('meta');
    policy.httpEquiv = 'Content-Security-Policy';
    policy.content = "connect-src 'self'";
    document.head.append(policy);
  });

  for (const name of ['pay-form', 'pay-button'] as const) {
    it(`<${name}> names the policy's connect-src and the origin to add, once`, async () => {
      const errors = watchConsoleErrors();
      const warnings: string[] = [];
      const real = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
      try {
        const element = Object.assign(document.createElement(name), { session, endpoint: companion });
        const error = oneEvent(element, 'pay-error');
        await fixture(element);
        const { detail } = await error;
        await element.updateComplete;
        const { origin } = new URL(companion);
        expect(origin).not.to.equal(location.origin);
        expect(detail.code).to.equal('misconfigured');
        expect(detail.reason).to.equal(
          `this page's Content-Security-Policy refused the request to ${companion}/api/checkout/sessions/${session}: ` +
            `add ${origin}, where <${name} endpoint> points, to its connect-src (now "connect-src 'self'")`,
        );
        expect(message(element)).to.equal('Something went wrong. Please try again in a moment.');
        expect(errors).to.deep.equal([`<${name}>: ${detail.reason}`]);
        expect(warnings).to.deep.equal([]);
      } finally {
        errors.restore();
        console.warn = real;
      }
    });
  }
});
