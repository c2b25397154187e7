// Tokenize mode on a page whose Content-Security-Policy leaves the gateway's tokenizer out of
// connect-src: to the browser that is a tokenizer out of reach, so the customer pays on the hosted
// page, and the developer is told why every tokenize payment turned into a redirect. Its own file:
// a policy once in force stays for the page.
import { expect } from '@open-wc/testing';
import { openCheckout } from '../test/checkout-fixture.js';
import { autofill, button, card, mount, stay, watchFetch } from '../test/harness.js';

describe('<pay-form> in tokenize mode under a connect-src without the tokenizer', () => {
  it('goes to the hosted page and names the tokenizer and connect-src on the console', async () => {
    const { id, companion_url } = await openCheckout({ merchant: 'tokenize' });
    const policy = document.createElement('meta');
    policy.httpEquiv = 'Content-Security-Policy';
    policy.content = `connect-src 'self' ${companion_url}`;
    document.head.append(policy);
    const warnings: string[] = [];
    const real = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(String(args[0]));
    const calls = watchFetch();
    try {
      const form = await mount(id, { endpoint: companion_url });
      const tokenizer = form.view!.tokenizer!.url;
      const redirect = stay(form);
      autofill(form, card('4242424242424242'));
      button(form).click();
      expect((await redirect).detail.reason).to.equal('hosted');
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.contain(`the gateway's tokenizer at ${tokenizer} did not answer`);
      expect(warnings[0]).to.contain(`connect-src`);
      expect(warnings[0]).to.contain('the customer pays on the hosted page instead');
      // The companion is told why, for its operator: the console is the customer's.
      expect(calls.filter(({ url }) => url.endsWith('/hosted')).map(({ body }) => (body as { fallback?: string }).fallback)).to.deep.equal(['tokenizer_unreachable']);
    } finally {
      calls.restore();
      console.warn = real;
    }
  });
});
