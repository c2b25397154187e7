// Tokenize mode on a page whose Content-Security-Policy leaves the gateway's tokenizer out of
// connect-src: to the browser that is a tokenizer out of reach, so the customer pays on the hosted
// page, and the developer is told why every tokenize payment turned into a redirect. Its own file:
// a policy once in force stays for the page.
import { expect } from '@open-wc/testing';
import { openCheckout } from '../test/checkout-fixture.js';
import { payPastTokenizer, watchFetch } from '../test/harness.js';

describe('<pay-form> in tokenize mode under a connect-src without the tokenizer', () => {
  it('goes to the hosted page and names the tokenizer and connect-src on the console, as an error', async () => {
    const { id, companion_url } = await openCheckout({ merchant: 'tokenize' });
    const policy = document.createElement('meta');
    policy.httpEquiv = 'Content-Security-Policy';
    policy.content = `connect-src 'self' ${companion_url}`;
    document.head.append(policy);
    const calls = watchFetch();
    try {
      const { tokenizer, error } = await payPastTokenizer(id, companion_url);
      expect(error).to.equal(
        `<pay-form>: the gateway's tokenizer at ${tokenizer} did not answer this page: this page's Content-Security-Policy refused the request: ` +
          `add ${new URL(tokenizer).origin} to its connect-src (now "connect-src 'self' ${companion_url}"); the customer pays on the hosted page instead`,
      );
      // The companion is told why, for its operator: the console is the customer's.
      expect(calls.filter(({ url }) => url.endsWith('/hosted')).map(({ body }) => (body as { fallback?: string }).fallback)).to.deep.equal(['tokenizer_unreachable']);
    } finally {
      calls.restore();
    }
  });
});
