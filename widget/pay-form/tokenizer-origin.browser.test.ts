// Tokenize mode on a page whose origin the gateway project does not take (its widget origins name
// a live shop only): the tokenizer answers without CORS headers, which to the browser looks as a
// tokenizer out of reach does. The customer pays on the hosted page; the developer is told that
// the project must take this page's origin, not to look at the Content-Security-Policy.
import { expect } from '@open-wc/testing';
import { openCheckout } from '../test/checkout-fixture.js';
import { payPastTokenizer } from '../test/harness.js';

describe('<pay-form> in tokenize mode on a page the gateway project does not take', () => {
  it('goes to the hosted page and names the project’s widget origins on the console, as an error', async () => {
    const { id, companion_url } = await openCheckout({ merchant: 'tokenize-far' });
    const { tokenizer, error } = await payPastTokenizer(id, companion_url);
    expect(error).to.equal(
      `<pay-form>: the gateway's tokenizer at ${tokenizer} did not answer this page: it does not take this page's origin, ${location.origin}: ` +
        "add it to the gateway project's widget origins (the sandbox's: widget_origins in its projects file); the customer pays on the hosted page instead",
    );
  });
});
